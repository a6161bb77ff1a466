// The Data Integrity libraries ship JavaScript without types; only what src/ uses is declared.
declare module '@digitalbazaar/data-integrity' {
  export class DataIntegrityProof {
    constructor(options: {
      cryptosuite: unknown;
      date?: Date | string | number | null;
      signer?: { id: string; algorithm: string; sign(input: { data: Uint8Array }): Promise<Uint8Array> };
    });
  }
}
declare module '@digitalbazaar/eddsa-rdfc-2022-cryptosuite' {
  export const cryptosuite: unknown;
}
declare module 'jsonld-signatures' {
  const jsigs: {
    sign(document: unknown, options: Record<string, unknown>): Promise<Record<string, unknown>>;
    verify(document: unknown, options: Record<string, unknown>): Promise<unknown>;
    purposes: { AssertionProofPurpose: new (options?: Record<string, unknown>) => unknown };
  };
  export default jsigs;
}
declare module '@digitalbazaar/ecdsa-rdfc-2019-cryptosuite' {
  export const cryptosuite: unknown;
}
declare module '@digitalbazaar/ed25519-signature-2020' {
  export class Ed25519Signature2020 {
    constructor(options?: Record<string, unknown>);
  }
}
