import { and, desc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { briefs, certificates, users } from '../db/schema';
import { generateCertificateNumber, parseCertificateNumber } from '../domain/certificates/certificate-number';
import {
  importSigningKey,
  type Jwks,
  jwksFrom,
  parsePreviousKeys,
  type SigningKey,
  signCredential,
} from '../domain/certificates/credential';
import { olderThan, type Position } from '../lib/paging';
import { ProblemError } from '../lib/problem';
import { type CachedPayload, payloadMemory, verificationKey } from './cache-keys';
import { hasConsent } from './consent';

/** How long a cached verification may live without being invalidated. */
const VERIFICATION_TTL_SECONDS = 60 * 60;

/** How an erased (or erasure-pending) employer is named: the tombstone account's name. */
export const FORMER_EMPLOYER = 'Former employer';

/** The name credentials are issued under. */
export const ISSUER_NAME = 'Verification Platform';

let cachedKey: { secret: string; key: Promise<SigningKey> } | undefined;

/** The signing key from the `CERT_SIGNING_KEY` secret, imported once per isolate. */
export function signingKey(env: Pick<Env, 'CERT_SIGNING_KEY'>): Promise<SigningKey> {
  if (cachedKey?.secret !== env.CERT_SIGNING_KEY) {
    cachedKey = { secret: env.CERT_SIGNING_KEY, key: importSigningKey(env.CERT_SIGNING_KEY) };
  }
  return cachedKey.key;
}

/** The current public key plus retired ones (`CERT_PREVIOUS_PUBLIC_KEYS`), for `/.well-known/jwks.json`. */
export async function publishedKeys(
  env: Pick<Env, 'CERT_SIGNING_KEY' | 'CERT_PREVIOUS_PUBLIC_KEYS'>,
): Promise<Jwks> {
  const current = await signingKey(env);
  return jwksFrom([current.publicJwk, ...parsePreviousKeys(env.CERT_PREVIOUS_PUBLIC_KEYS)]);
}

type CertificateRow = typeof certificates.$inferSelect;

/**
 * Issues and signs a certificate. Numbers are random (55 bits), so a clash is rare; the
 * unique index decides and a clash draws again.
 */
export async function issueCertificate(
  env: Pick<Env, 'CERT_SIGNING_KEY' | 'PUBLIC_BASE_URL'>,
  db: Database,
  input: {
    holderId: string;
    briefId: string;
    briefTitle: string;
    employerId: string;
    employerName: string;
    submissionId: string;
    domain: string;
    issuedAt?: Date;
  },
): Promise<CertificateRow> {
  const key = await signingKey(env);
  const issuedAt = input.issuedAt ?? new Date();
  for (let attempt = 0; ; attempt++) {
    const id = crypto.randomUUID();
    const certificateNo = generateCertificateNumber();
    const credentialJwt = await signCredential(
      {
        certificateId: id,
        certificateNo,
        issuerUrl: env.PUBLIC_BASE_URL,
        issuerName: ISSUER_NAME,
        briefTitle: input.briefTitle,
        domain: input.domain,
        employerName: input.employerName,
        issuedAt,
      },
      key,
    );
    try {
      const [row] = await db
        .insert(certificates)
        .values({
          id,
          certificateNo,
          holderId: input.holderId,
          briefId: input.briefId,
          employerId: input.employerId,
          submissionId: input.submissionId,
          domain: input.domain,
          credentialJwt,
          issuedAt,
        })
        .returning();
      return row as CertificateRow;
    } catch (err) {
      if (attempt < 4 && isUniqueViolation(err, 'certificate_no')) continue;
      throw err;
    }
  }
}

export type VerificationPayload = {
  certificateNo: string;
  status: 'active' | 'revoked';
  brief: { id: string; title: string };
  domain: string;
  employer: { name: string };
  issuedAt: string;
  revokedAt: string | null;
  holder: { name: string } | null;
  credential: { format: 'vc-jwt'; jwt: string };
  jwksUrl: string;
};

const employer = alias(users, 'employer');

/** What `GET /api/verify/{no}` shows, from D1. Null when no such certificate, or its holder is disabled. */
export async function buildVerification(
  env: Pick<Env, 'PUBLIC_BASE_URL'>,
  db: Database,
  certificateNo: string,
): Promise<VerificationPayload | null> {
  const [row] = await db
    .select({
      certificateNo: certificates.certificateNo,
      status: certificates.status,
      domain: certificates.domain,
      issuedAt: certificates.issuedAt,
      revokedAt: certificates.revokedAt,
      credentialJwt: certificates.credentialJwt,
      holderId: certificates.holderId,
      holderName: users.name,
      holderDisabledAt: users.disabledAt,
      briefId: briefs.id,
      briefTitle: briefs.title,
      employerName: employer.name,
      employerDisabledAt: employer.disabledAt,
    })
    .from(certificates)
    .innerJoin(users, eq(users.id, certificates.holderId))
    .innerJoin(briefs, eq(briefs.id, certificates.briefId))
    .innerJoin(employer, eq(employer.id, certificates.employerId))
    .where(eq(certificates.certificateNo, certificateNo))
    .limit(1);
  // A disabled holder is one whose erasure is pending (or an account closed): from the moment
  // they ask, their certificates answer as if already gone, before the cascade deletes them.
  if (!row || row.holderDisabledAt) return null;
  const showName = await hasConsent(db, row.holderId, 'public_verification');
  return {
    certificateNo: row.certificateNo,
    status: row.status,
    brief: { id: row.briefId, title: row.briefTitle },
    domain: row.domain,
    // An employer whose erasure is pending is shown as the cascade will leave them.
    employer: { name: row.employerDisabledAt ? FORMER_EMPLOYER : row.employerName },
    issuedAt: row.issuedAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
    holder: showName ? { name: row.holderName } : null,
    credential: { format: 'vc-jwt', jwt: row.credentialJwt },
    jwksUrl: `${env.PUBLIC_BASE_URL}/.well-known/jwks.json`,
  };
}

/**
 * Cached verification: `{json, etag}` from the isolate's memory or one KV read on a hit,
 * built from D1 on a miss; null for an unknown number.
 */
export function verification(
  env: Pick<Env, 'PUBLIC_BASE_URL' | 'CACHE' | 'DB'>,
  certificateNo: string,
  readDb: () => Database,
): Promise<CachedPayload | null> {
  const key = verificationKey(certificateNo);
  return payloadMemory.get(key, () => loadVerification(env, key, certificateNo, readDb));
}

async function loadVerification(
  env: Pick<Env, 'PUBLIC_BASE_URL' | 'CACHE' | 'DB'>,
  key: string,
  certificateNo: string,
  readDb: () => Database,
): Promise<CachedPayload | null> {
  const hit = await env.CACHE.getWithMetadata<{ etag: string }>(key);
  if (hit.value !== null && hit.metadata) return { json: hit.value, etag: hit.metadata.etag };
  const payload = await buildVerification(env, readDb(), certificateNo);
  if (!payload) return null;
  const json = JSON.stringify(payload);
  const etag = `W/"${Date.now().toString(36)}"`;
  // Invalidation (revocation, consent, erasure) deletes the entry at once; the TTL bounds how long
  // a miss answered by a lagging read replica (e.g. just before a revocation) can be served.
  await env.CACHE.put(key, json, { metadata: { etag }, expirationTtl: VERIFICATION_TTL_SECONDS });
  return { json, etag };
}

/** A certificate as its holder sees it (`GET /api/me/certificates`, the revocation answer). */
function holderViews(db: Database) {
  return db
    .select({
      id: certificates.id,
      certificateNo: certificates.certificateNo,
      status: certificates.status,
      domain: certificates.domain,
      issuedAt: certificates.issuedAt,
      revokedAt: certificates.revokedAt,
      credentialJwt: certificates.credentialJwt,
      briefId: certificates.briefId,
      briefTitle: briefs.title,
    })
    .from(certificates)
    .innerJoin(briefs, eq(briefs.id, certificates.briefId));
}

export type HolderCertificate = Awaited<ReturnType<ReturnType<typeof holderViews>['execute']>>[number];

/** Where a certificate stands in the holder's list (newest issued first), for its cursor. */
export const certificatePosition = (r: HolderCertificate): Position => ({ createdAt: r.issuedAt, id: r.id });

/** One page of a holder's certificates, newest first: `limit + 1` rows (for `toPage`) after `after`. */
export async function certificatesOf(db: Database, holderId: string, limit: number, after?: Position) {
  const mine = eq(certificates.holderId, holderId);
  return holderViews(db)
    .where(
      after ? and(mine, olderThan({ createdAt: certificates.issuedAt, id: certificates.id }, after)) : mine,
    )
    .orderBy(desc(certificates.issuedAt), desc(certificates.id))
    .limit(limit + 1);
}

/** One certificate by number, as its holder sees it. */
export async function holderCertificate(
  db: Database,
  certificateNo: string,
): Promise<HolderCertificate | undefined> {
  const [row] = await holderViews(db).where(eq(certificates.certificateNo, certificateNo)).limit(1);
  return row;
}

/**
 * Revokes a certificate. Admins may revoke any; an employer only the ones issued on their
 * briefs (for anyone else the certificate "does not exist": null). Revoking twice is a conflict.
 */
export async function revokeCertificate(
  db: Database,
  certificateNo: string,
  actor: { id: string; role: string },
  reason: string,
  now = new Date(),
): Promise<CertificateRow | null> {
  const [row] = await db
    .select()
    .from(certificates)
    .where(eq(certificates.certificateNo, certificateNo))
    .limit(1);
  if (!row || (actor.role !== 'admin' && row.employerId !== actor.id)) return null;
  if (row.status === 'revoked') throw new ProblemError('conflict', 'This certificate is already revoked.');
  const [updated] = await db
    .update(certificates)
    .set({ status: 'revoked', revokedAt: now, revokedReason: reason, revokedBy: actor.id })
    .where(and(eq(certificates.id, row.id), eq(certificates.status, 'active')))
    .returning();
  if (!updated) throw new ProblemError('conflict', 'This certificate is already revoked.');
  return updated;
}

/** A certificate as its holder (and a revoker) sees it. */
export const certificateView = (env: Pick<Env, 'PUBLIC_BASE_URL'>, r: HolderCertificate) => ({
  certificateNo: r.certificateNo,
  status: r.status,
  brief: { id: r.briefId, title: r.briefTitle },
  domain: r.domain,
  issuedAt: r.issuedAt.toISOString(),
  revokedAt: r.revokedAt?.toISOString() ?? null,
  credential: { format: 'vc-jwt' as const, jwt: r.credentialJwt },
  verifyUrl: `${env.PUBLIC_BASE_URL}/api/verify/${r.certificateNo}`,
});

/** A mistyped number is refused before any lookup (the check character catches typos). */
export function requireCertificateNumber(input: string): string {
  const parsed = parseCertificateNumber(input);
  if (parsed.ok) return parsed.normalised;
  throw new ProblemError(
    'invalid-parameters',
    parsed.reason === 'checksum'
      ? 'This certificate number has a typo: its check character does not match.'
      : 'Certificate numbers look like VP-XXXX-XXXX-XXXX.',
    {
      errors: [
        {
          pointer: '#/path/certificateNo',
          detail: parsed.reason === 'checksum' ? 'Check character mismatch' : 'Invalid format',
        },
      ],
    },
  );
}
