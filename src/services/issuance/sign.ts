import type { Database } from '../../db/client';
import {
  buildCredential,
  type CredentialInput,
  type SigningKey,
  signCredential,
} from '../../domain/certificates/credential';
import { issuerDid } from '../../domain/certificates/did-web';
import {
  addMonths,
  bindStatusIndex,
  briefCredentialFacts,
  holderIdentity,
  holderSubjectId,
  reserveStatusIndex,
  statusIndexOf,
  submissionResults,
} from '../credentials';
import { issuerSigner } from '../issuer-keys';

/** The bindings signing reads: the key and the base URL the credential's ids are built on. */
export type IssuanceEnv = Pick<Env, 'CERT_SIGNING_KEY' | 'PUBLIC_BASE_URL'>;

/**
 * The same credential as the VC-JWT's, secured the second way: an embedded `DataIntegrityProof`
 * (eddsa-rdfc-2022) by the issuer's Ed25519 key, `created` at the issue time. The Data Integrity
 * stack (jsonld.js and the contexts) is loaded here, on the signing path only.
 */
export async function dataIntegrityFor(env: IssuanceEnv, input: CredentialInput) {
  const { signDataIntegrity } = await import('../../domain/certificates/data-integrity');
  const signer = await issuerSigner(env, input.issuer.organisationId);
  return signDataIntegrity(buildCredential(input), signer, input.issuedAt);
}
/** One statement of a `db.batch([...])`. */
export type BatchItem = Parameters<Database['batch']>[0][number];

export type EarnedCertificate = {
  holderId: string;
  briefId: string;
  briefTitle: string;
  domain: string;
  organisation: { id: string; name: string; verified: boolean };
  /** The person whose rating completed it. */
  ratedBy: string;
  submissionId: string;
  earnedAt: Date;
  /** The organisation's score (1–5) of the final work, when the rating is in the same batch. */
  rating?: number;
  /** Its verdict, likewise (the rating row is not written yet when the credential is signed). */
  verdict?: 'pass' | 'fail';
};

/**
 * Signs a certificate's credential: exactly what was done, under the organisation's name, bound
 * to the holder's subject id, with its bit in the revocation list. The status index is reserved
 * here unless the certificate already has one (re-signing keeps it); the returned statements
 * (binding a new index) belong in the caller's batch. `validUntil` undefined means "from the
 * brief's `validForMonths`"; re-signing passes the certificate's own.
 */
export async function signFor(
  db: Database,
  env: IssuanceEnv,
  key: SigningKey,
  c: EarnedCertificate,
  id: string,
  certificateNo: string,
  issuedAt: Date,
  keep: { validUntil: Date | null } | null = null,
  subjectDid?: string,
) {
  const facts = await briefCredentialFacts(db, c.briefId);
  const results = await submissionResults(db, c.submissionId || null, c.verdict);
  if (c.rating !== undefined) results.overall = c.rating;
  // Whole seconds, as the credential's validUntil (and exp) state it.
  const validUntil = keep
    ? keep.validUntil
    : facts.validForMonths
      ? new Date(Math.floor(addMonths(issuedAt, facts.validForMonths).getTime() / 1000) * 1000)
      : null;
  const existing = await statusIndexOf(db, id);
  const statusIndex = existing ?? (await reserveStatusIndex(db));
  const input: CredentialInput = {
    certificateId: id,
    certificateNo,
    baseUrl: env.PUBLIC_BASE_URL,
    issuer: {
      organisationId: c.organisation.id || null,
      name: c.organisation.name,
      url: facts.websiteUrl,
      // The issuer's did:web (decision 0350): what a wallet's verifier resolves, both securings.
      id: issuerDid(env.PUBLIC_BASE_URL, c.organisation.id || null),
    },
    subjectId: await holderSubjectId(db, c.holderId),
    ...(subjectDid ? { subjectDid } : {}),
    identity: await holderIdentity(db, c.holderId),
    brief: { id: c.briefId, title: c.briefTitle, domain: c.domain },
    rubric: facts.rubric,
    results,
    statusIndex,
    issuedAt,
    validUntil,
  };
  const credentialJwt = await signCredential(input, key);
  const credentialDataIntegrity = JSON.stringify(await dataIntegrityFor(env, input));
  return {
    credentialJwt,
    credentialDataIntegrity,
    validUntil,
    statements: existing === null ? [bindStatusIndex(db, statusIndex, id)] : [],
  };
}
