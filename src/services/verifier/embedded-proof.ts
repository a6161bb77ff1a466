/**
 * The seam for credentials secured with an embedded proof (W3C Data Integrity:
 * `DataIntegrityProof` with `eddsa-rdfc-2022`, `ecdsa-rdfc-2019`, or `Ed25519Signature2020`).
 * The verifier (src/services/credential-verifier.ts) calls {@link verifyEmbeddedProof} for every
 * JSON credential that carries a `proof`; what it answers becomes the `signature` check.
 *
 * Today it answers `unsupported` (verdict `unverifiable`): the Data Integrity verification is
 * being added by the "wallets" work (issue 56), here and only here. Whatever fills it in must
 * bind the verification method to the issuer (its `controller` is the issuer id, or the
 * issuer's DID document lists it), resolve did:key / did:web keys with the helpers in
 * src/domain/open-badges/did.ts and fetch only through src/services/outbound-fetch.ts.
 */

/** What an embedded proof check found. */
export type EmbeddedProofResult =
  | { outcome: 'verified'; detail: string; verificationMethod: string }
  | { outcome: 'failed'; detail: string }
  | { outcome: 'unverifiable'; detail: string }
  | { outcome: 'unsupported'; detail: string };

/** What the verifier hands over: the credential (with its `proof`, one object or an array) and its issuer id. */
export type EmbeddedProofInput = {
  credential: Record<string, unknown>;
  issuerId: string | null;
  /** The services a verification may use (fetches count against its budget). */
  env: Pick<Env, 'CACHE' | 'PUBLIC_BASE_URL' | 'DOH_RESOLVER_URL' | 'WEBHOOKS_ALLOW_HTTP_LOCALHOST'>;
  budget: { remaining: number };
  now: Date;
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The proofs of a credential: `proof` as one object (the published schema's form) or an array. */
export function proofsOf(credential: Record<string, unknown>): Record<string, unknown>[] {
  const proof = credential.proof;
  return (Array.isArray(proof) ? proof : proof === undefined ? [] : [proof]).filter(isRecord);
}

/** Checks the credential's embedded proof. Not implemented yet: `unsupported`, naming the proof it saw. */
export async function verifyEmbeddedProof(input: EmbeddedProofInput): Promise<EmbeddedProofResult> {
  const proofs = proofsOf(input.credential);
  if (proofs.length === 0)
    return { outcome: 'failed', detail: 'A JSON credential with no proof: nothing secures it.' };
  const first = proofs[0]!;
  const kind = [first.type, first.cryptosuite].filter((v) => typeof v === 'string').join(' / ') || 'unknown';
  return {
    outcome: 'unsupported',
    detail: `An embedded proof (${kind.slice(0, 100)}): Data Integrity proofs are not checked here yet; only VC-JWT signatures are.`,
  };
}
