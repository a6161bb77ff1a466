/**
 * Signing an existing certificate's credential again: the certificate (number, holder, dates,
 * validity, status bit) stays; only its credential and signed name change. When the rating person
 * who once signed it corrects their name or is erased, when the holder turns their identifier on
 * or off or their email changes, when their `public_verification` consent changes, and every
 * credential after `CERT_SIGNING_KEY` is rotated (an admin, page by page).
 */
import { and, asc, eq, gt, inArray, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import { base64url } from 'jose';
import type { Database } from '../../db/client';
import { briefs, certificates, organisations, users } from '../../db/schema';
import { afterCommit, type EffectsEnv } from '../after-commit';
import { auditInsert } from '../audit';
import { requireSigningKey } from '../signing-key';
import { type BatchItem, type EarnedCertificate, type IssuanceEnv, signFor } from './sign';

/**
 * Re-signs the live credentials a person's rating completed, under their organisation's current
 * name. Credentials issued before organisations existed were signed with the rating person's own
 * name; when that person corrects their name or is erased, no credential may keep it. The
 * certificate (number, holder, dates) stays; only its credential and signed name change.
 */
export async function resignCredentialsRatedBy(
  db: Database,
  env: IssuanceEnv & EffectsEnv,
  personId: string,
  _now = new Date(),
  /** Statements committed with each re-signed credential (the erasure cascade counts them). */
  alsoInBatch: () => BatchItem[] = () => [],
): Promise<string[]> {
  const rows = await signedRows(
    db,
    and(
      eq(certificates.employerId, personId),
      eq(certificates.status, 'active'),
      eq(certificates.signedByPerson, true),
    ),
  );
  return resign(db, env, rows, {
    signedName: (r) => r.organisationName,
    reason: 'rating person changed or erased',
    alsoInBatch,
  });
}

/**
 * Re-signs the holder's live credentials, e.g. when they ask for (or drop) an `identifier`, their
 * email changes while they have one, or their `public_verification` consent changes (the
 * identifier is left out while it is withdrawn). The issuer's name stays the one signed at issue.
 */
export async function resignHolderCredentials(
  db: Database,
  env: IssuanceEnv & EffectsEnv,
  holderId: string,
  reason = 'holder identifier changed',
): Promise<string[]> {
  // Revoked credentials stay public at /api/verify (marked revoked), so they follow the holder's
  // identifier too: turning it off, or correcting the email, leaves no hash of it anywhere.
  const rows = await signedRows(
    db,
    and(eq(certificates.holderId, holderId), inArray(certificates.status, ['active', 'revoked'])),
  );
  return resign(db, env, rows, {
    // Credentials from before organisations named the rating person: those take the organisation.
    signedName: (r) =>
      r.certificate.signedByPerson
        ? r.organisationName
        : (r.certificate.signedOrganisationName ?? r.organisationName),
    reason,
  });
}

/** Certificates re-signed by one call of {@link resignAllCredentials} at most. */
export const RESIGN_PAGE_MAX = 50;

/**
 * Re-signs every live credential (active and revoked), one page in certificate-id order after
 * `after`: what an operator runs after rotating `CERT_SIGNING_KEY`. The issuers' Ed25519 keys are
 * derived from that secret, so a Data Integrity proof made before no longer verifies, and the
 * retired Ed25519 key cannot be published (only retired ES256 keys are, through
 * `CERT_PREVIOUS_PUBLIC_KEYS`). Both forms are signed again with the current keys, each page
 * committing per certificate; running it again is harmless (it signs the same content anew).
 * Credentials signed before Data Integrity get their Data Integrity form this way too.
 */
export async function resignAllCredentials(
  db: Database,
  env: IssuanceEnv & EffectsEnv,
  page: { after: string | null; limit: number; actorId: string },
): Promise<{ resigned: string[]; next: string | null }> {
  await requireSigningKey(env);
  const limit = Math.min(Math.max(1, page.limit), RESIGN_PAGE_MAX);
  const rows = await signedRows(
    db,
    and(
      inArray(certificates.status, ['active', 'revoked']),
      isNotNull(certificates.credentialJwt),
      page.after === null ? undefined : gt(certificates.id, page.after),
    ),
  )
    .orderBy(asc(certificates.id))
    .limit(limit);
  const resigned = await resign(db, env, rows, {
    // As for the holder's re-signing: the name signed at issue stays (the rating person's name of
    // before organisations is replaced by the organisation's).
    signedName: (r) =>
      r.certificate.signedByPerson
        ? r.organisationName
        : (r.certificate.signedOrganisationName ?? r.organisationName),
    reason: 'signing key rotated',
    actorId: page.actorId,
  });
  const last = rows.at(-1);
  return { resigned, next: rows.length === limit && last ? last.certificate.id : null };
}

/**
 * The `credential_resign` job (src/services/consent.ts writes it with a `public_verification`
 * grant or withdrawal): re-signs the holder's active and revoked credentials so they carry the
 * identifier exactly while the consent stands (`holderIdentity`). Nothing to do for a holder who
 * has not asked for one (dropping it re-signed them already). Idempotent: each run signs per the
 * ledger and the setting as they are then.
 */
export async function resignForPublicVerification(
  db: Database,
  env: IssuanceEnv & EffectsEnv,
  holderId: string,
): Promise<string[]> {
  const [row] = await db
    .select({ salt: users.credentialIdentitySalt })
    .from(users)
    .where(eq(users.id, holderId))
    .limit(1);
  if (!row?.salt) return [];
  return resignHolderCredentials(db, env, holderId, 'public verification consent changed');
}

/**
 * Turns the holder's credential `identifier` on (a new random salt, unless one is set) or off, and
 * re-signs their active and revoked credentials. A missing signing key refuses before the setting
 * changes. While `public_verification` is not granted the setting is kept but the credentials carry
 * no identifier (`holderIdentity`); a grant re-signs them with it.
 */
export async function setHolderIdentifier(
  db: Database,
  env: IssuanceEnv & EffectsEnv,
  holderId: string,
  enabled: boolean,
): Promise<string[]> {
  await requireSigningKey(env);
  const salt = enabled ? base64url.encode(crypto.getRandomValues(new Uint8Array(16))) : null;
  await db
    .update(users)
    .set({ credentialIdentitySalt: salt })
    .where(
      enabled ? and(eq(users.id, holderId), isNull(users.credentialIdentitySalt)) : eq(users.id, holderId),
    );
  return resignHolderCredentials(db, env, holderId);
}

type ResignRow = {
  certificate: typeof certificates.$inferSelect;
  briefTitle: string;
  organisationName: string;
  verification: string;
};

/** Signs each row's credential again, keeping its number, dates, validity and status bit. */
async function resign(
  db: Database,
  env: IssuanceEnv & EffectsEnv,
  rows: ResignRow[],
  options: {
    signedName: (r: ResignRow) => string;
    reason: string;
    alsoInBatch?: () => BatchItem[];
    /** Who asked (an admin), for the audit log; null when the service itself re-signs. */
    actorId?: string;
  },
): Promise<string[]> {
  if (rows.length === 0) return [];
  const key = await requireSigningKey(env);
  const changed: string[] = [];
  for (const row of rows) {
    const { certificate: c, briefTitle, verification } = row;
    const organisationName = options.signedName(row);
    const earned: EarnedCertificate = {
      holderId: c.holderId,
      briefId: c.briefId,
      briefTitle,
      domain: c.domain,
      organisation: {
        id: c.organisationId ?? '',
        name: organisationName,
        verified: verification === 'verified',
      },
      ratedBy: c.employerId,
      submissionId: c.submissionId ?? '',
      earnedAt: c.earnedAt ?? c.issuedAt,
    };
    // The issue date, the validity and the status bit are what was attested; re-signing keeps them.
    const { credentialJwt, credentialDataIntegrity, statements } = await signFor(
      db,
      env,
      key,
      earned,
      c.id,
      c.certificateNo,
      c.issuedAt,
      {
        validUntil: c.validUntil,
      },
    );
    await db.batch([
      db
        .update(certificates)
        .set({
          credentialJwt,
          credentialDataIntegrity,
          signedOrganisationName: organisationName,
          signedByPerson: false,
          version: sql`${certificates.version} + 1`,
        })
        .where(eq(certificates.id, c.id)),
      auditInsert(db, {
        actorId: options.actorId ?? null,
        action: 'certificate.resigned',
        targetType: 'certificate',
        targetId: c.id,
        details: { reason: options.reason },
      }),
      ...statements,
      ...(options.alsoInBatch?.() ?? []),
    ]);
    changed.push(c.certificateNo);
  }
  await afterCommit(db, env, { certificates: changed });
  return changed;
}

/** Certificates with what re-signing them needs (brief title, organisation name and standing), where `condition` holds. */
function signedRows(db: Database, condition: SQL | undefined) {
  return db
    .select({
      certificate: certificates,
      briefTitle: briefs.title,
      organisationName: organisations.name,
      verification: organisations.verification,
    })
    .from(certificates)
    .innerJoin(briefs, eq(briefs.id, certificates.briefId))
    .innerJoin(organisations, eq(organisations.id, certificates.organisationId))
    .where(condition);
}
