/**
 * The holder's learner record: one CLR 2.0 `ClrCredential` (1EdTech Comprehensive Learner Record)
 * gathering their active certificates, signed as a VC-JWT with the certificates' key and `kid`
 * (src/domain/certificates/credential.ts `signJwt`). Built on request, never stored: it is always
 * the certificates as they stand now. docs/portability.md and docs/decisions/0142–0144.
 */
import { and, asc, eq, gt, isNotNull, isNull, or } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { certificates } from '../../db/schema';
import {
  decodeJwt,
  JWT_CLAIMS_CONTEXT,
  OB_CONTEXT_V3,
  signJwt,
  VC_CONTEXT_V2,
} from '../../domain/certificates/credential';
import { issuerUrl } from '../../domain/certificates/urls';
import { ISSUER_NAME, parseDataIntegrity } from '../certificates';
import { holderSubjectId } from '../credentials';
import { requireSigningKey } from '../signing-key';
import { issuerStillRecognised } from './holder-credentials';

export const CLR_CONTEXT_V2 = 'https://purl.imsglobal.org/spec/clr/v2p0/context-2.0.1.json';

/** The official JSON Schema a ClrCredential names in `credentialSchema`. */
export const CLR_CREDENTIAL_SCHEMA =
  'https://purl.imsglobal.org/spec/clr/v2p0/schema/json/clr_v2p0_clrcredential_schema.json';

/**
 * The VC-JWTs of the holder's certificates that a learner record holds: signed, `active` (not
 * revoked), not expired at `now` and of an issuer not suspended, oldest first.
 */
export async function activeCredentialJwts(db: Database, holderId: string, now: Date): Promise<string[]> {
  return (await activeCredentials(db, holderId, now)).map((r) => r.jwt);
}

/** {@link activeCredentialJwts} with each one's Data Integrity form (null when it has none yet). */
export async function activeCredentials(
  db: Database,
  holderId: string,
  now: Date,
): Promise<{ jwt: string; dataIntegrity: Record<string, unknown> | null }[]> {
  const rows = await db
    .select({ jwt: certificates.credentialJwt, dataIntegrity: certificates.credentialDataIntegrity })
    .from(certificates)
    .where(
      and(
        eq(certificates.holderId, holderId),
        eq(certificates.status, 'active'),
        isNotNull(certificates.credentialJwt),
        or(isNull(certificates.validUntil), gt(certificates.validUntil, now)),
        issuerStillRecognised(db),
      ),
    )
    .orderBy(asc(certificates.issuedAt), asc(certificates.id));
  return rows.flatMap((r) =>
    r.jwt === null ? [] : [{ jwt: r.jwt, dataIntegrity: parseDataIntegrity(r.dataIntegrity) }],
  );
}

/** Whole seconds: `nbf` must equal `validFrom` exactly. */
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * The unsigned ClrCredential (with its JWT registered claims) for these certificates' VC-JWTs.
 * Each certificate enters `credentialSubject.verifiableCredential` as the AchievementCredential
 * its VC-JWT carries (the payload as signed, registered claims included), or, when it has one, as
 * its Data Integrity form (the same credential with its embedded proof, so verifiable on its own
 * inside the record: `dataIntegrity[i]` belongs to `jwts[i]`); CLR 2.0 requires at
 * least one, so `jwts` must not be empty. Pure; exported for tests.
 */
export function buildLearnerRecord(input: {
  baseUrl: string;
  subjectId: string;
  jwts: string[];
  dataIntegrity?: (Record<string, unknown> | null)[];
  id: string;
  now: Date;
}) {
  if (input.jwts.length === 0) throw new RangeError('a learner record holds at least one credential');
  const base = input.baseUrl.replace(/\/+$/, '');
  const issuedAt = seconds(input.now);
  const validFrom = new Date(issuedAt * 1000).toISOString().replace('.000Z', 'Z');
  const issuer = { id: issuerUrl(base, null), type: ['Profile'], name: ISSUER_NAME, url: base };
  const subject = `urn:uuid:${input.subjectId.toLowerCase()}`;
  const credential = {
    '@context': [VC_CONTEXT_V2, CLR_CONTEXT_V2, OB_CONTEXT_V3, JWT_CLAIMS_CONTEXT],
    id: `urn:uuid:${input.id}`,
    type: ['VerifiableCredential', 'ClrCredential'],
    issuer,
    validFrom,
    name: 'Learner record',
    description:
      `Every certificate of this holder that was neither revoked nor expired at ${validFrom} ` +
      `(${input.jwts.length}), each also verifiable on its own page.`,
    credentialSubject: {
      id: subject,
      type: ['ClrSubject'],
      verifiableCredential: input.jwts.map((jwt, i) => {
        const secured = input.dataIntegrity?.[i];
        if (secured) return secured;
        const decoded = decodeJwt(jwt);
        if (!decoded) throw new Error('a stored credential is not a JWT');
        return decoded.payload;
      }),
    },
    credentialSchema: [{ id: CLR_CREDENTIAL_SCHEMA, type: '1EdTechJsonSchemaValidator2019' }],
  };
  return {
    ...credential,
    iss: issuer.id,
    sub: subject,
    jti: credential.id,
    nbf: issuedAt,
    iat: issuedAt,
  };
}

/**
 * The holder's learner record as a VC-JWT, signed now with the current certificate key (its
 * `kid` the key's URL), or null when they hold no active certificate (a ClrCredential must hold
 * at least one). 503 `not-configured` without a usable signing key.
 */
export async function signedLearnerRecord(
  db: Database,
  env: Pick<Env, 'CERT_SIGNING_KEY' | 'PUBLIC_BASE_URL'>,
  holderId: string,
  now = new Date(),
): Promise<{ jwt: string; credentials: number } | null> {
  const held = await activeCredentials(db, holderId, now);
  const jwts = held.map((h) => h.jwt);
  if (jwts.length === 0) return null;
  const key = await requireSigningKey(env);
  const payload = buildLearnerRecord({
    baseUrl: env.PUBLIC_BASE_URL,
    subjectId: await holderSubjectId(db, holderId),
    jwts,
    dataIntegrity: held.map((h) => h.dataIntegrity),
    id: crypto.randomUUID(),
    now,
  });
  return { jwt: await signJwt(payload, key), credentials: jwts.length };
}
