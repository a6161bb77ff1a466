/**
 * Embedded proofs of presented credentials (Data Integrity): the seam the credential verifier
 * (src/services/credential-verifier.ts) calls for a JSON credential with a `proof`. Verifies
 * `DataIntegrityProof` with cryptosuite `eddsa-rdfc-2022` or `ecdsa-rdfc-2019` (P-256, P-384),
 * and `Ed25519Signature2020` (Digital Bazaar's libraries, the same stack that signs ours, contexts
 * bundled, nothing fetched but DID documents), the key resolved from the verification method's
 * DID: `did:key` from the identifier itself, `did:web` from its DID document under the
 * outbound-fetch rules (our own issuers' documents without a fetch). The key's controller must be
 * the credential's issuer. Other proof types and cryptosuites (bbs-2023, ecdsa-sd-2023, JWS
 * proofs …) are `unverifiable` here: no maintained library for them is bundled. A proof of a
 * suite checked here that does not verify under it (another cryptosuite's signature relabelled)
 * is `failed`, like any signature that does not verify (decision 0353).
 *
 * The Data Integrity stack is loaded with `await import()` only when such a proof is checked.
 */
import type { ProofSuite } from '../../domain/certificates/data-integrity';
import { issuerOfDid } from '../../domain/certificates/did-web';
import type { Check } from '../../domain/open-badges/checks';
import { didWebUrl } from '../../domain/open-badges/did';
import { issuerDidDocumentFor } from '../issuer-keys';
import { type FetchBudget, guardedFetch, OutboundRefused } from '../outbound-fetch';

export type EmbeddedProofEnv = Pick<
  Env,
  'PUBLIC_BASE_URL' | 'CERT_SIGNING_KEY' | 'DOH_RESOLVER_URL' | 'WEBHOOKS_ALLOW_HTTP_LOCALHOST'
> &
  Partial<Pick<Env, 'CERT_PREVIOUS_PUBLIC_KEYS'>>;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const MULTIKEY_CONTEXT = 'https://w3id.org/security/multikey/v1';
const ED25519_2020_CONTEXT = 'https://w3id.org/security/suites/ed25519-2020/v1';

/** The suite a proof asks for, when one checked here: by its type, and its cryptosuite for Data Integrity. */
function suiteOf(proof: Record<string, unknown>): ProofSuite | null {
  if (proof.type === 'Ed25519Signature2020') return 'Ed25519Signature2020';
  if (proof.type !== 'DataIntegrityProof') return null;
  if (proof.cryptosuite === 'eddsa-rdfc-2022' || proof.cryptosuite === 'ecdsa-rdfc-2019')
    return proof.cryptosuite;
  return null;
}

/** The JSON-LD context a verification method of `type` is read with. */
const methodContext = (type: unknown) =>
  type === 'Ed25519VerificationKey2020' ? ED25519_2020_CONTEXT : MULTIKEY_CONTEXT;

/** The DID document of `did` (a did:key's is made from the identifier itself). */
async function didDocument(
  env: EmbeddedProofEnv,
  did: string,
  budget: FetchBudget,
): Promise<Record<string, unknown>> {
  if (did.startsWith('did:key:')) {
    const key = did.slice('did:key:'.length);
    const method = { id: `${did}#${key}`, type: 'Multikey', controller: did, publicKeyMultibase: key };
    return {
      '@context': ['https://www.w3.org/ns/did/v1', MULTIKEY_CONTEXT],
      id: did,
      verificationMethod: [method],
      assertionMethod: [method.id],
    };
  }
  const own = issuerOfDid(env.PUBLIC_BASE_URL, did);
  if (own !== null) return issuerDidDocumentFor({ CERT_PREVIOUS_PUBLIC_KEYS: '', ...env }, own);
  const url = didWebUrl(did);
  if (!url) throw new Error(`${did} is neither a did:key nor a well-formed did:web.`);
  const fetched = await guardedFetch(env, url, { budget, accept: 'application/did+json, application/json' });
  if (fetched.status !== 200) throw new Error(`${url} answered ${fetched.status}.`);
  const parsed: unknown = JSON.parse(fetched.body);
  if (!isRecord(parsed) || parsed.id !== did) throw new Error(`${url} is not the DID document of ${did}.`);
  return parsed;
}

/** Verifies the credential's embedded proof; `issuerId` is the credential's `issuer.id`, as it names it. */
export async function verifyEmbeddedProof(
  env: EmbeddedProofEnv,
  credential: Record<string, unknown>,
  issuerId: string | null,
  budget: FetchBudget,
): Promise<Check> {
  if (credential.proof === undefined)
    return {
      check: 'signature',
      outcome: 'failed',
      detail:
        'Not signed (no proof): a JSON credential without an embedded proof says nothing of who issued it.',
    };
  const proofs = Array.isArray(credential.proof) ? credential.proof : [credential.proof];
  const proof = proofs[0];
  if (proofs.length !== 1 || !isRecord(proof))
    return {
      check: 'signature',
      outcome: 'failed',
      detail: 'Exactly one embedded proof object is expected.',
    };
  const suite = suiteOf(proof);
  if (suite === null)
    return {
      check: 'signature',
      outcome: 'unverifiable',
      detail: `An embedded proof of type ${JSON.stringify(proof.type)}${proof.cryptosuite ? ` (${JSON.stringify(proof.cryptosuite)})` : ''}: only DataIntegrityProof with eddsa-rdfc-2022 or ecdsa-rdfc-2019, and Ed25519Signature2020, are checked here.`,
    };
  const method = typeof proof.verificationMethod === 'string' ? proof.verificationMethod : '';
  const did = method.split('#')[0] ?? '';
  if (!did.startsWith('did:key:') && !did.startsWith('did:web:'))
    return {
      check: 'signature',
      outcome: 'unverifiable',
      detail: `The verification method ${method || '(none)'} is not a did:key or did:web key.`,
    };

  const documents = new Map<string, Promise<Record<string, unknown>>>();
  const documentOf = (id: string) => {
    let found = documents.get(id);
    if (!found) {
      found = didDocument(env, id, budget);
      documents.set(id, found);
    }
    return found;
  };
  const resolve = async (url: string): Promise<unknown> => {
    const [id = '', fragment] = url.split('#');
    if (id !== did) return undefined;
    const document = await documentOf(id);
    if (fragment === undefined) return document;
    const methods = Array.isArray(document.verificationMethod) ? document.verificationMethod : [];
    const found = methods.find((m) => isRecord(m) && m.id === url);
    return isRecord(found) ? { '@context': methodContext(found.type), ...found } : undefined;
  };

  const { verifyDataIntegrity } = await import('../../domain/certificates/data-integrity');
  let result: Awaited<ReturnType<typeof verifyDataIntegrity>>;
  try {
    result = await verifyDataIntegrity(credential, resolve, suite);
  } catch (error) {
    if (error instanceof OutboundRefused)
      return { check: 'signature', outcome: 'unverifiable', detail: `${did}: ${error.message}` };
    throw error;
  }
  if (!result.verified) {
    const unreachable = /Unable to load|answered|not the DID document|OutboundRefused|refused/i.test(
      result.error,
    );
    return {
      check: 'signature',
      outcome: unreachable ? 'unverifiable' : 'failed',
      detail: `The ${suite} proof does not verify: ${result.error}`,
    };
  }
  // Key provenance: the key is the issuer's own (its DID's), controlled by the issuer.
  if (did !== issuerId || result.controller !== issuerId)
    return {
      check: 'signature',
      outcome: 'failed',
      detail: `The proof's key belongs to ${did}, not to the issuer ${issuerId ?? '(none)'}: a key elsewhere cannot speak for it.`,
    };
  return {
    check: 'signature',
    outcome: 'passed',
    detail: `${suite === 'Ed25519Signature2020' ? 'Ed25519Signature2020' : `${suite} Data Integrity`} proof verified with ${result.verificationMethod}.`,
  };
}
