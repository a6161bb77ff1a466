import { and, desc, eq, ne, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { briefs, type CertificateState, certificates, organisations, users } from '../db/schema';
import { parseCertificateNumber } from '../domain/certificates/certificate-number';
import { linkedInAddToProfileUrl } from '../domain/certificates/linkedin';
import { verifyPageUrl as pageUrlOf } from '../domain/certificates/urls';
import { encodeQr, packModules } from '../domain/pages/qr';
import { log } from '../lib/log';
import { olderThan, type Position } from '../lib/paging';
import { ProblemError } from '../lib/problem';
import { afterCommit, type EffectsEnv } from './after-commit';
import { auditInsert } from './audit';
import { type CachedPayload, verificationKey, verificationTtlSeconds } from './cache-keys';
import { hasConsent } from './consent';
import { briefCredentialFacts } from './credentials';
import { mayBeIssued } from './verification-filter';
import {
  claimRefresh,
  refreshDone,
  syncVerificationChanges,
  trustedPayload,
  verificationMemory,
} from './verification-memory';
import {
  kvVerification,
  type ShareQr,
  VERIFICATION_CACHE_CONTROL,
  type VerificationMeta,
  verificationFromKv,
  verificationFromMemory,
} from './verification-reads';
import { certificateEvent } from './webhooks/events';

export { VERIFICATION_CACHE_CONTROL, verificationFromKv, verificationFromMemory };

/** How an erased (or erasure-pending) employer is named: the tombstone account's name. */
export const FORMER_EMPLOYER = 'Former employer';

/** The name credentials are issued under. */
export const ISSUER_NAME = 'Verification Platform';

type CertificateRow = typeof certificates.$inferSelect;

/**
 * What a verifier is told. `status` is the certificate's own state, except that an active
 * certificate of a suspended (or, after issuing, rejected) organisation shows as `suspended`; `valid` is true only for an
 * `active` one. `employer.name` is the issuer's name as signed into the credential;
 * `organisation.name` is its name now (the page says "now known as …" when they differ).
 */
export type VerificationPayload = {
  certificateNo: string;
  status: 'active' | 'revoked' | 'pending_issuer' | 'suspended' | 'expired';
  valid: boolean;
  brief: { id: string; title: string };
  domain: string;
  employer: { name: string };
  organisation: { id: string; name: string; verification: string; verifiedDomain?: string | null } | null;
  issuedAt: string;
  validUntil: string | null;
  revokedAt: string | null;
  holder: { name: string } | null;
  credential: { format: 'vc-jwt'; jwt: string; dataIntegrity?: Record<string, unknown> } | null;
  jwksUrl: string;
};

/**
 * A certificate's credential in both securings: the VC-JWT and, when it has one (signed since
 * Data Integrity, or re-signed), the same credential with its embedded Data Integrity proof.
 */
export function credentialOf(row: {
  credentialJwt: string | null;
  credentialDataIntegrity: string | null;
}): VerificationPayload['credential'] {
  if (!row.credentialJwt) return null;
  const dataIntegrity = parseDataIntegrity(row.credentialDataIntegrity);
  return { format: 'vc-jwt', jwt: row.credentialJwt, ...(dataIntegrity ? { dataIntegrity } : {}) };
}

/** The stored Data Integrity credential (JSON text), or null. */
export function parseDataIntegrity(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * The status a verifier sees (see `VerificationPayload`): a revocation outranks everything, then
 * the issuer's suspension, then expiry (`validUntil` reached).
 */
export function publicStatus(
  status: CertificateState,
  organisationVerification: string | null,
  validUntil: Date | null = null,
  now = new Date(),
): VerificationPayload['status'] {
  // Suspended, or rejected after issuing: the platform no longer stands behind this issuer.
  if (
    status === 'active' &&
    (organisationVerification === 'suspended' || organisationVerification === 'rejected')
  )
    return 'suspended';
  if (status === 'active' && validUntil !== null && validUntil.getTime() <= now.getTime()) return 'expired';
  return status;
}

/** What `GET /api/verify/{no}` shows, from D1, with the certificate's version. Null when no such certificate. */
export async function buildVerification(
  db: Database,
  env: Pick<Env, 'PUBLIC_BASE_URL'>,
  certificateNo: string,
  now = new Date(),
): Promise<{ payload: VerificationPayload; version: number } | null> {
  const [row] = await db
    .select({
      certificateNo: certificates.certificateNo,
      status: certificates.status,
      version: certificates.version,
      domain: certificates.domain,
      issuedAt: certificates.issuedAt,
      validUntil: certificates.validUntil,
      revokedAt: certificates.revokedAt,
      credentialJwt: certificates.credentialJwt,
      credentialDataIntegrity: certificates.credentialDataIntegrity,
      signedOrganisationName: certificates.signedOrganisationName,
      holderId: certificates.holderId,
      holderName: users.name,
      holderDisabledAt: users.disabledAt,
      briefId: briefs.id,
      briefTitle: briefs.title,
      organisationId: organisations.id,
      organisationName: organisations.name,
      verification: organisations.verification,
      verificationMethod: organisations.verificationMethod,
      verifiedDomain: organisations.verifiedDomain,
    })
    .from(certificates)
    .innerJoin(users, eq(users.id, certificates.holderId))
    .innerJoin(briefs, eq(briefs.id, certificates.briefId))
    .leftJoin(organisations, eq(organisations.id, certificates.organisationId))
    .where(eq(certificates.certificateNo, certificateNo))
    .limit(1);
  // A disabled holder is one whose erasure is pending (or an account closed): from the moment
  // they ask, their certificates answer as if already gone, before the cascade deletes them.
  if (!row || row.holderDisabledAt) return null;
  const showName = await hasConsent(db, row.holderId, 'public_verification');
  const status = publicStatus(row.status, row.verification, row.validUntil, now);
  const currentName = row.organisationName ?? 'Former employer';
  return {
    version: row.version,
    payload: {
      certificateNo: row.certificateNo,
      status,
      valid: status === 'active',
      brief: { id: row.briefId, title: row.briefTitle },
      domain: row.domain,
      employer: { name: row.signedOrganisationName ?? currentName },
      organisation: row.organisationId
        ? {
            id: row.organisationId,
            name: currentName,
            verification: row.verification ?? 'unverified',
            // What a DNS proof established: control of this domain (the name is the organisation's own).
            // Only while the current verification is that proof: an admin's is not about a domain.
            verifiedDomain:
              row.verification === 'verified' && row.verificationMethod === 'dns'
                ? (row.verifiedDomain ?? null)
                : null,
          }
        : null,
      issuedAt: row.issuedAt.toISOString(),
      validUntil: row.validUntil?.toISOString() ?? null,
      revokedAt: row.revokedAt?.toISOString() ?? null,
      holder: showName ? { name: row.holderName } : null,
      credential: credentialOf(row),
      jwksUrl: `${env.PUBLIC_BASE_URL}/.well-known/jwks.json`,
    },
  };
}

/** The certificate's current version, read from the primary database (never a lagging replica). */
async function currentVersion(db: Database, certificateNo: string): Promise<number | null> {
  const [row] = await db
    .select({ version: certificates.version })
    .from(certificates)
    .where(eq(certificates.certificateNo, certificateNo))
    .limit(1);
  return row?.version ?? null;
}

/**
 * Cached verification: `{json, etag}` from the isolate's memory or one KV read on a hit,
 * built from D1 on a miss; null for an unknown number. A number the membership filter knows was
 * never issued is null at once, with no KV or D1 read (`./verification-filter.ts`).
 */
export async function verification(
  db: Database,
  env: Pick<Env, 'PUBLIC_BASE_URL' | 'CACHE'>,
  certificateNo: string,
  readDb: () => Database,
  /** The request's `waitUntil`: with it, a payload near its end is reloaded in the background. */
  waitUntil?: (promise: Promise<unknown>) => void,
): Promise<CachedPayload | null> {
  // Forget what changed elsewhere (a KV read at most every few seconds per isolate), then memory.
  const syncing = syncVerificationChanges(env);
  if (syncing) await syncing;
  const key = verificationKey(certificateNo);
  const now = Date.now();
  // Taken before `trustedPayload`, which forgets an expired entry: see the load below.
  const previous = verificationMemory.lastValue(key);
  const trusted = trustedPayload(key, now);
  // A payload in memory was issued: the filter is asked only on the way to KV (issue 43).
  if (trusted) {
    // Refresh-ahead: near its end, one request reloads it off its own path, so that no request
    // waits for KV on a certificate memory already holds (docs/performance.md, 2026-11-29).
    if (waitUntil && claimRefresh(key, now)) {
      waitUntil(
        reloadVerification(db, env, certificateNo, readDb, trusted, now)
          .catch((err: unknown) => {
            // The payload stays until it comes due; a later request tries again.
            log('warn', 'verification refresh-ahead failed', { error: String(err) });
          })
          .finally(() => refreshDone(key)),
      );
    }
    return trusted;
  }
  // A number never issued is answered from the filter, with no I/O at all.
  if (!(await mayBeIssued(env, certificateNo))) return null;
  return reloadVerification(db, env, certificateNo, readDb, previous, now);
}

/** Loads `certificateNo`'s payload into memory, keeping `previous` (and its gzip bytes) when unchanged. */
function reloadVerification(
  db: Database,
  env: Pick<Env, 'PUBLIC_BASE_URL' | 'CACHE'>,
  certificateNo: string,
  readDb: () => Database,
  previous: CachedPayload | undefined,
  now: number,
): Promise<CachedPayload | null> {
  return verificationMemory.load(
    verificationKey(certificateNo),
    async () => {
      const loaded = await loadVerification(db, env, certificateNo, readDb);
      if (!loaded) return loaded;
      // Reloaded unchanged (the usual case once its ten minutes are up): the payload already
      // served is kept, with its gzip bytes, instead of compressing ~14 KB again (issue 43).
      const unchanged = previous?.json === loaded.json && previous.etag === loaded.etag;
      const kept = unchanged ? previous : loaded;
      kept.loadedAt = now;
      return kept;
    },
    now,
  );
}

/** Test seam: runs between reading the database and writing the cache (to interleave a revocation). */
export type LoadHooks = { afterRead?: () => Promise<void> };

/**
 * A cache miss. The payload is written to KV with the version it was built from, then the
 * version is read again from the primary: if a change (revocation, suspension, erasure…) landed
 * in between, its invalidation may already have run, so the stale entry is replaced with a fresh
 * build instead of being left for the TTL. Whatever the interleaving, "active" cannot outlive a
 * revocation in KV by more than this one round trip. (The isolate's own memory drops in-flight
 * loads on invalidation: `IsolateCache.delete`.) `db` is the primary; `readDb` may be a replica.
 */
export async function loadVerification(
  db: Database,
  env: Pick<Env, 'PUBLIC_BASE_URL' | 'CACHE'>,
  certificateNo: string,
  readDb: () => Database,
  hooks: LoadHooks = {},
): Promise<CachedPayload | null> {
  const key = verificationKey(certificateNo);
  const { found, stale } = await kvVerification(env, certificateNo);
  if (found) return found;
  let built = await buildVerification(stale ? db : readDb(), env, certificateNo);
  for (let attempt = 0; built && attempt < 3; attempt++) {
    await hooks.afterRead?.();
    const json = JSON.stringify(built.payload);
    const builtAt = Date.now();
    const etag = `W/"${built.version.toString(36)}-${builtAt.toString(36)}"`;
    // The TTL is a safety net only: every change deletes the entry at once. Nothing deletes it
    // when a certificate expires, so an entry never outlives `validUntil` (KV's floor is 60 s).
    const metadata: VerificationMeta = {
      etag,
      builtAt,
      ...shareQrMeta(env, certificateNo, { etag, builtAt }),
    };
    await env.CACHE.put(key, json, { metadata, expirationTtl: verificationTtlSeconds(built.payload) });
    if ((await currentVersion(db, certificateNo)) === built.version) return { json, etag, builtAt };
    built = await buildVerification(db, env, certificateNo);
    hooks.afterRead = undefined;
  }
  await env.CACHE.delete(key);
  return built ? { json: JSON.stringify(built.payload), etag: `W/"${built.version.toString(36)}-x"` } : null;
}

/** KV's limit on an entry's metadata, serialised as JSON. */
const KV_METADATA_BYTES = 1024;

/**
 * The page's share-link QR code for KV's metadata beside `meta`: the whole code where it fits,
 * else its mask, so a cold isolate's page skips the encoding or at least the mask search
 * (decisions 0327 and 0328); nothing for an origin too long for either. As the page builds its
 * link (`${base}/verify/{no}`).
 */
function shareQrMeta(
  env: Pick<Env, 'PUBLIC_BASE_URL'>,
  certificateNo: string,
  meta: Omit<VerificationMeta, 'qr'>,
): Pick<VerificationMeta, 'qr'> {
  const base = env.PUBLIC_BASE_URL.replace(/\/$/, '');
  if (base.length > 512) return {};
  const code = encodeQr(`${base}/verify/${certificateNo}`);
  if (!code) return {};
  const fits = (qr: ShareQr) =>
    new TextEncoder().encode(JSON.stringify({ ...meta, qr })).length <= KV_METADATA_BYTES;
  const whole: ShareQr = { base, ...packModules(code) };
  if (fits(whole)) return { qr: whole };
  const mask: ShareQr = { base, mask: code.mask };
  return fits(mask) ? { qr: mask } : {};
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
      validUntil: certificates.validUntil,
      credentialJwt: certificates.credentialJwt,
      credentialDataIntegrity: certificates.credentialDataIntegrity,
      briefId: certificates.briefId,
      briefTitle: briefs.title,
      holderId: certificates.holderId,
      signedOrganisationName: certificates.signedOrganisationName,
      organisationName: organisations.name,
      organisationVerification: organisations.verification,
      digilockerEnabled: certificates.digilockerEnabled,
    })
    .from(certificates)
    .innerJoin(briefs, eq(briefs.id, certificates.briefId))
    .leftJoin(organisations, eq(organisations.id, certificates.organisationId));
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

/** Whether `userId` holds the certificate `certificateNo` (its page offers them its holder's controls). */
export async function isHolderOf(db: Database, userId: string, certificateNo: string): Promise<boolean> {
  const [row] = await db
    .select({ id: certificates.id })
    .from(certificates)
    .where(and(eq(certificates.certificateNo, certificateNo), eq(certificates.holderId, userId)))
    .limit(1);
  return row !== undefined;
}

/**
 * Revokes a certificate (an active one, or one still waiting for its issuer). Admins may revoke
 * any; an employer only those of their own organisation (for anyone else the certificate "does
 * not exist": null). Revoking twice is a conflict. The revocation and its audit entry commit
 * together, and the version bump makes any cache built before it stale.
 */
export async function revokeCertificate(
  db: Database,
  certificateNo: string,
  actor: { id: string; role: string; ip?: string | null },
  reason: string,
  now = new Date(),
  /** Where the effects run: cached views dropped, webhook jobs queued (else the sweeper enqueues them). */
  env?: EffectsEnv,
): Promise<CertificateRow | null> {
  const [row] = await db
    .select({ certificate: certificates, actorOrganisation: users.organisationId })
    .from(certificates)
    .leftJoin(users, eq(users.id, actor.id))
    .where(eq(certificates.certificateNo, certificateNo))
    .limit(1);
  if (!row) return null;
  const { certificate } = row;
  const ownOrganisation =
    certificate.organisationId !== null && certificate.organisationId === row.actorOrganisation;
  if (actor.role !== 'admin' && !ownOrganisation) return null;
  if (certificate.status === 'revoked')
    throw new ProblemError('conflict', 'This certificate is already revoked.');
  const hooks = await certificateEvent(db, 'certificate.revoked', certificate, now);
  const [[updated]] = await db.batch([
    db
      .update(certificates)
      .set({
        status: 'revoked',
        revokedAt: now,
        revokedReason: reason,
        revokedBy: actor.id,
        version: sql`${certificates.version} + 1`,
      })
      .where(and(eq(certificates.id, certificate.id), ne(certificates.status, 'revoked')))
      .returning(),
    auditInsert(db, {
      actorId: actor.id,
      action: 'certificate.revoked',
      targetType: 'certificate',
      targetId: certificate.id,
      details: { reason },
      ip: actor.ip ?? null,
    }),
    ...hooks.statements,
  ]);
  if (!updated) throw new ProblemError('conflict', 'This certificate is already revoked.');
  // The revocation's audit entry (reason, address) committed with it.
  if (env)
    await afterCommit(
      db,
      env,
      { certificates: [updated.certificateNo], domains: [updated.domain], jobs: hooks.jobIds },
      { now },
    );
  return updated;
}

/** The organisation a certificate names: the name signed into it, else its name now. */
export const issuingOrganisationName = (
  r: Pick<HolderCertificate, 'signedOrganisationName' | 'organisationName'>,
) => r.signedOrganisationName ?? r.organisationName ?? FORMER_EMPLOYER;

/** The public verification page of a certificate (for people: the HTML page, not the JSON). */
export const verifyPageUrl = (env: Pick<Env, 'PUBLIC_BASE_URL'>, certificateNo: string) =>
  pageUrlOf(env.PUBLIC_BASE_URL, certificateNo);

/**
 * LinkedIn's add-certification link, for a certificate that is valid (issued and not revoked);
 * null otherwise, so nobody is invited to list a certificate that does not verify.
 */
export function linkedInUrlOf(env: Pick<Env, 'PUBLIC_BASE_URL'>, r: HolderCertificate): string | null {
  if (holderPublicStatus(r) !== 'active' || !r.credentialJwt) return null;
  return linkedInAddToProfileUrl({
    name: r.briefTitle,
    organisationName: issuingOrganisationName(r),
    issuedAt: r.issuedAt,
    expiresAt: r.validUntil,
    certificateNo: r.certificateNo,
    verifyUrl: verifyPageUrl(env, r.certificateNo),
  });
}

/** What a verifier is told of the holder's certificate now (`publicStatus`). */
const holderPublicStatus = (
  r: Pick<HolderCertificate, 'status' | 'organisationVerification' | 'validUntil'>,
  now = new Date(),
) => publicStatus(r.status, r.organisationVerification, r.validUntil, now);

/** A certificate as its holder (and a revoker) sees it. */
export const certificateView = (env: Pick<Env, 'PUBLIC_BASE_URL'>, r: HolderCertificate) => ({
  certificateNo: r.certificateNo,
  status: r.status,
  // What a verifier sees, so the holder is not surprised by a suspension or an expiry.
  publicStatus: holderPublicStatus(r),
  valid: holderPublicStatus(r) === 'active',
  brief: { id: r.briefId, title: r.briefTitle },
  domain: r.domain,
  issuedAt: r.issuedAt.toISOString(),
  revokedAt: r.revokedAt?.toISOString() ?? null,
  credential: credentialOf(r),
  validUntil: r.validUntil?.toISOString() ?? null,
  // For people: the HTML page (the JSON is at /api/verify/{no}).
  verifyUrl: verifyPageUrl(env, r.certificateNo),
  linkedInAddToProfileUrl: linkedInUrlOf(env, r),
});

/**
 * The creation date a certificate's PDF carries: fixed per certificate (its issue, or its
 * revocation), so every copy of it, the holder's download and DigiLocker's, is the same file.
 */
export const certificatePdfDate = (d: { issuedAt: Date; revokedAt: Date | null }) =>
  d.revokedAt ?? d.issuedAt;

/** What the holder's printable certificate shows; null unless `holderId` holds this certificate. */
export async function holderCertificateDocument(
  db: Database,
  env: Pick<Env, 'PUBLIC_BASE_URL'>,
  certificateNo: string,
  holderId: string,
) {
  const [row] = await db
    .select({
      certificateNo: certificates.certificateNo,
      status: certificates.status,
      domain: certificates.domain,
      issuedAt: certificates.issuedAt,
      revokedAt: certificates.revokedAt,
      validUntil: certificates.validUntil,
      briefId: certificates.briefId,
      briefTitle: briefs.title,
      holderName: users.name,
      signedOrganisationName: certificates.signedOrganisationName,
      organisationName: organisations.name,
      organisationVerification: organisations.verification,
    })
    .from(certificates)
    .innerJoin(briefs, eq(briefs.id, certificates.briefId))
    .innerJoin(users, eq(users.id, certificates.holderId))
    .leftJoin(organisations, eq(organisations.id, certificates.organisationId))
    .where(and(eq(certificates.certificateNo, certificateNo), eq(certificates.holderId, holderId)))
    .limit(1);
  if (!row) return null;
  const { rubric } = await briefCredentialFacts(db, row.briefId);
  return {
    holderName: row.holderName,
    certificateNo: row.certificateNo,
    briefTitle: row.briefTitle,
    domain: row.domain,
    employerName: issuingOrganisationName(row),
    status: row.status,
    publicStatus: holderPublicStatus(row),
    validUntil: row.validUntil,
    issuerRejected: row.organisationVerification === 'rejected',
    issuerVerified: row.organisationVerification === 'verified',
    criteria: rubric.map((c) => c.name),
    issuedAt: row.issuedAt,
    revokedAt: row.revokedAt,
    verifyUrl: verifyPageUrl(env, row.certificateNo),
  };
}

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
