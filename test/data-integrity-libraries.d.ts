// The key libraries the tests sign foreign fixtures with (JavaScript without types); only what
// the tests use is declared. The suites themselves are declared in src/types/data-integrity.d.ts.
declare module '@digitalbazaar/ecdsa-multikey' {
  export type EcdsaKeyPair = {
    id?: string;
    controller?: string;
    publicKeyMultibase: string;
    signer(): { id: string; algorithm: string; sign(input: { data: Uint8Array }): Promise<Uint8Array> };
  };
  export function generate(options: { curve: 'P-256' | 'P-384' }): Promise<EcdsaKeyPair>;
}
declare module '@digitalbazaar/ed25519-verification-key-2020' {
  export class Ed25519VerificationKey2020 {
    id?: string;
    controller?: string;
    publicKeyMultibase: string;
    static generate(): Promise<Ed25519VerificationKey2020>;
    fingerprint(): string;
  }
}
