/**
 * The second securing of our credentials: an embedded `DataIntegrityProof` with the cryptosuite
 * `eddsa-rdfc-2022` (W3C VC Data Integrity EdDSA Cryptosuites v1.0), made and checked with Digital
 * Bazaar's maintained stack (`jsonld-signatures`, `@digitalbazaar/data-integrity`,
 * `@digitalbazaar/eddsa-rdfc-2022-cryptosuite`), the one the DCC verifier and the Learner
 * Credential Wallet use. RDF canonicalisation needs the JSON-LD contexts: every one it may meet is
 * bundled (src/assets/jsonld/contexts.json, copied from the pinned context packages) and any other
 * is refused; nothing is fetched.
 *
 * HEAVY (jsonld.js, rdf-canonize, the contexts): import this module only with `await import()`, on
 * the paths that sign or verify, never from anything a hot public read reaches.
 *
 * The Ed25519 signature itself is WebCrypto's (`Ed25519` in workerd), with a key derived by the
 * caller; verification uses the library's Multikey verifier. Foreign credentials' proofs are also
 * checked in `ecdsa-rdfc-2019` and `Ed25519Signature2020` (`verifyDataIntegrity`'s `kind`), their
 * libraries imported only when such a proof is met.
 */
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import { cryptosuite } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
import jsigs from 'jsonld-signatures';
import bundledContexts from '../../assets/jsonld/contexts.json';

const CONTEXTS: Record<string, unknown> = bundledContexts;

export const CRYPTOSUITE = 'eddsa-rdfc-2022';

export type Ed25519Signer = {
  /** The proof's `verificationMethod`: `{did}#ed25519-key-1`. */
  id: string;
  privateKey: CryptoKey;
};

export type RemoteDocument = { contextUrl: null; documentUrl: string; document: unknown };
/** Resolves a URL (a verification method, a controller document) the bundled contexts do not hold. */
export type DocumentResolver = (url: string) => Promise<unknown | undefined>;

/** A JSON-LD document loader over the bundled contexts (and `resolve` for anything else). */
export function documentLoader(resolve?: DocumentResolver) {
  return async (url: string): Promise<RemoteDocument> => {
    const context = CONTEXTS[url];
    if (context !== undefined) return { contextUrl: null, documentUrl: url, document: context };
    const document = resolve ? await resolve(url) : undefined;
    if (document === undefined) throw new Error(`No local copy of ${url} (nothing is fetched).`);
    return { contextUrl: null, documentUrl: url, document };
  };
}

/**
 * Adds a `DataIntegrityProof` (eddsa-rdfc-2022, purpose `assertionMethod`) to a credential,
 * `created` at `created` (the issue time, so re-signing the same content gives the same proof:
 * Ed25519 and RDFC-1.0 are deterministic). The credential is not changed; a copy is returned.
 */
export async function signDataIntegrity<T extends Record<string, unknown>>(
  credential: T,
  signer: Ed25519Signer,
  created: Date,
): Promise<T & { proof: Record<string, unknown> }> {
  const suite = new DataIntegrityProof({
    cryptosuite,
    date: created,
    signer: {
      id: signer.id,
      algorithm: 'Ed25519',
      async sign({ data }: { data: Uint8Array }) {
        return new Uint8Array(await crypto.subtle.sign('Ed25519', signer.privateKey, data));
      },
    },
  });
  return jsigs.sign(structuredClone(credential), {
    suite,
    purpose: new jsigs.purposes.AssertionProofPurpose(),
    documentLoader: documentLoader(),
  }) as Promise<T & { proof: Record<string, unknown> }>;
}

export type DataIntegrityVerification =
  | { verified: true; verificationMethod: string; controller: string }
  | { verified: false; error: string };

/**
 * The embedded proofs verified here, each by Digital Bazaar's maintained library for it:
 * `DataIntegrityProof` with `eddsa-rdfc-2022` (ours, Credly's) or `ecdsa-rdfc-2019` (P-256 and
 * P-384 Multikeys), and the older `Ed25519Signature2020` (what the DCC's wallet and issuers made
 * before Data Integrity 1.0).
 */
export type ProofSuite = 'eddsa-rdfc-2022' | 'ecdsa-rdfc-2019' | 'Ed25519Signature2020';

/**
 * The jsonld-signatures suite that checks `kind`. The ECDSA cryptosuite and the Ed25519 2020
 * suite are imported here, only when a proof of theirs is met: jsonld.js is shared with the eddsa
 * suite, the rest is theirs.
 */
async function verifierSuite(kind: ProofSuite): Promise<unknown> {
  if (kind === 'eddsa-rdfc-2022') return new DataIntegrityProof({ cryptosuite });
  if (kind === 'ecdsa-rdfc-2019') {
    const ecdsa = await import('@digitalbazaar/ecdsa-rdfc-2019-cryptosuite');
    return new DataIntegrityProof({ cryptosuite: ecdsa.cryptosuite });
  }
  const { Ed25519Signature2020 } = await import('@digitalbazaar/ed25519-signature-2020');
  return new Ed25519Signature2020();
}

/**
 * Verifies a credential's embedded proof of `kind` (eddsa-rdfc-2022 unless said): the signature
 * over the canonical document and proof options, with the verification method `resolve` returns
 * (a `Multikey`, an `Ed25519VerificationKey2020` or a `JsonWebKey`), whose controller document
 * (also from `resolve`) must list it under `assertionMethod`. Expiry, status and whether the
 * controller is the issuer are the caller's.
 */
export async function verifyDataIntegrity(
  credential: Record<string, unknown>,
  resolve: DocumentResolver,
  kind: ProofSuite = 'eddsa-rdfc-2022',
): Promise<DataIntegrityVerification> {
  try {
    const suite = await verifierSuite(kind);
    const result = (await jsigs.verify(structuredClone(credential), {
      suite,
      purpose: new jsigs.purposes.AssertionProofPurpose(),
      documentLoader: documentLoader(resolve),
    })) as {
      verified: boolean;
      error?: { errors?: { message?: string }[]; message?: string };
      results?: { verificationMethod?: { id?: string; controller?: string } }[];
    };
    if (!result.verified) {
      const first =
        result.error?.errors?.[0]?.message ?? result.error?.message ?? 'The proof does not verify.';
      return { verified: false, error: first };
    }
    const method = result.results?.[0]?.verificationMethod;
    return {
      verified: true,
      verificationMethod: String(method?.id ?? ''),
      controller: String(method?.controller ?? ''),
    };
  } catch (error) {
    return { verified: false, error: error instanceof Error ? error.message : String(error) };
  }
}
