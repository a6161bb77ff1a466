/**
 * What a certificate's credential needs beyond the certificate row: the holder's per-person
 * subject id, a bit in the revocation status list, the brief's rubric and validity, and the
 * final submission's results. Shared by issuance (rating, verification, the sweep) and re-signing.
 */

import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import {
  briefs,
  credentialStatuses,
  employerRatings,
  evaluations,
  organisations,
  rubrics,
  users,
} from '../db/schema';
import type { CredentialInput } from '../domain/certificates/credential';
import { publishedWebsite } from '../domain/organisations';
import { hasConsent } from './consent';

/**
 * The holder's `credentialSubject` id (a UUID), created at their first certificate. The update
 * only fills an empty column, so two issues racing for the same holder agree on one id.
 */
export async function holderSubjectId(db: Database, holderId: string): Promise<string> {
  await db
    .update(users)
    .set({ credentialSubjectId: crypto.randomUUID() })
    .where(and(eq(users.id, holderId), isNull(users.credentialSubjectId)));
  const [row] = await db
    .select({ id: users.credentialSubjectId })
    .from(users)
    .where(eq(users.id, holderId))
    .limit(1);
  if (!row?.id) throw new Error(`holder ${holderId} has no credential subject id`);
  return row.id;
}

/** `sha256$<hex>` of the email followed by the salt, as OB 3.0's IdentityObject states it. */
export async function identityHash(email: string, salt: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${email}${salt}`));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `sha256$${hex}`;
}

/**
 * The holder's identity for their credentials' `identifier`: only while they ask for it, only while
 * their address is confirmed (the hash names an email; an address nobody has shown to be theirs
 * would tie the credential to whoever owns it, PRODUCT.md "Accounts and issuers", decision 0250),
 * and only while their `public_verification` consent stands. Public verification serves the credential, and
 * a salted hash of the email lets anyone who knows (or guesses) the email confirm whose certificate
 * it is, which the notice promises a verification without that consent does not say. A withdrawal
 * (or a grant) re-signs the holder's credentials (`CREDENTIAL_RESIGN_JOB`, src/services/consent.ts).
 * For a child the consent never counts (§9(3)), so their credentials never carry it.
 */
export async function holderIdentity(
  db: Database,
  holderId: string,
): Promise<{ identityHash: string; salt: string } | null> {
  const [row] = await db
    .select({ email: users.email, salt: users.credentialIdentitySalt, confirmedAt: users.emailConfirmedAt })
    .from(users)
    .where(eq(users.id, holderId))
    .limit(1);
  if (!row?.salt || !row.confirmedAt) return null;
  if (!(await hasConsent(db, holderId, 'public_verification'))) return null;
  return { identityHash: await identityHash(row.email.toLowerCase(), row.salt), salt: row.salt };
}

/**
 * Whether the holder's credentials carry the `identifier` now (asked for, the address confirmed and
 * `public_verification` standing) and, when asked for but left out, why (`unconfirmed` first).
 */
export async function identifierIncluded(
  db: Database,
  holderId: string,
): Promise<{ enabled: boolean; included: boolean; leftOut: 'unconfirmed' | 'consent' | null }> {
  const [row] = await db
    .select({ salt: users.credentialIdentitySalt, confirmedAt: users.emailConfirmedAt })
    .from(users)
    .where(eq(users.id, holderId))
    .limit(1);
  const enabled = Boolean(row?.salt);
  if (!enabled) return { enabled, included: false, leftOut: null };
  if (!row?.confirmedAt) return { enabled, included: false, leftOut: 'unconfirmed' };
  const consented = await hasConsent(db, holderId, 'public_verification');
  return { enabled, included: consented, leftOut: consented ? null : 'consent' };
}

/**
 * Reserves the next free status list index. One statement (read the maximum and insert after
 * it), which SQLite runs atomically, so concurrent issues never share an index; rows are never
 * deleted, so an index is never reused. The index is reserved before the credential is signed
 * (the credential contains it) and bound to the certificate in the issue's own batch; a failed
 * issue leaves it reserved, its bit 0, naming nothing.
 */
export async function reserveStatusIndex(db: Database, now = new Date()): Promise<number> {
  const rows = await db.all<{ status_index: number }>(
    sql`INSERT INTO credential_statuses (status_index, state, created_at)
        SELECT coalesce(max(status_index), -1) + 1, 'reserved', ${now.getTime()} FROM credential_statuses
        RETURNING status_index`,
  );
  const index = rows[0]?.status_index;
  if (typeof index !== 'number') throw new Error('no status index was reserved');
  return index;
}

/** For the batch: the reserved index now belongs to the certificate. */
export function bindStatusIndex(db: Database, statusIndex: number, certificateId: string) {
  return db
    .update(credentialStatuses)
    .set({ state: 'bound', certificateId })
    .where(eq(credentialStatuses.statusIndex, statusIndex));
}

/** The status index a certificate's credential already carries (re-signing keeps it). */
export async function statusIndexOf(db: Database, certificateId: string): Promise<number | null> {
  const [row] = await db
    .select({ index: credentialStatuses.statusIndex })
    .from(credentialStatuses)
    .where(eq(credentialStatuses.certificateId, certificateId))
    .limit(1);
  return row?.index ?? null;
}

/** `date` plus whole calendar months (the day clamped to the target month's last day). */
export function addMonths(date: Date, months: number): Date {
  const result = new Date(date.getTime());
  const day = result.getUTCDate();
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const last = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
  result.setUTCDate(Math.min(day, last));
  return result;
}

/** The brief's rubric and validity, and the organisation's website: what every credential of it says. */
export async function briefCredentialFacts(db: Database, briefId: string) {
  const [row] = await db
    .select({
      validForMonths: briefs.validForMonths,
      criteria: rubrics.criteria,
      websiteUrl: organisations.websiteUrl,
      verification: organisations.verification,
      verificationMethod: organisations.verificationMethod,
      verifiedDomain: organisations.verifiedDomain,
    })
    .from(briefs)
    .leftJoin(rubrics, eq(rubrics.briefId, briefs.id))
    .leftJoin(organisations, eq(organisations.id, briefs.organisationId))
    .where(eq(briefs.id, briefId))
    .limit(1);
  return {
    validForMonths: row?.validForMonths ?? null,
    rubric: (row?.criteria ?? []).map((c) => ({
      id: c.id,
      name: c.name,
      description: c.description,
      levels: c.levels.map((l) => ({ score: l.score, descriptor: l.descriptor })),
    })),
    // Only a website on the organisation's verified domain is signed in (`publishedWebsite`).
    websiteUrl:
      row?.verification && row.websiteUrl
        ? publishedWebsite({
            websiteUrl: row.websiteUrl,
            verification: row.verification,
            verificationMethod: row.verificationMethod,
            verifiedDomain: row.verifiedDomain,
          })
        : null,
  };
}

/**
 * The final submission's results: the AI's per-criterion scores (only when it was evaluated with
 * the candidate's consent, and only when its verdict agrees with the organisation's: the
 * organisation signs the credential, and must not sign levels its own decision overruled) and the
 * organisation's rating. Scores only, never the work itself.
 */
export async function submissionResults(
  db: Database,
  submissionId: string | null,
  /** The organisation's verdict when its rating is in the caller's batch (not readable yet). */
  verdict?: 'pass' | 'fail',
): Promise<NonNullable<CredentialInput['results']>> {
  if (!submissionId) return { criteria: [], overall: null };
  const [row] = await db
    .select({
      aiEvaluated: evaluations.aiEvaluated,
      state: evaluations.state,
      scores: evaluations.criterionScores,
      aiVerdict: evaluations.verdict,
      rating: employerRatings.score,
      verdict: employerRatings.verdict,
    })
    .from(evaluations)
    .leftJoin(employerRatings, eq(employerRatings.evaluationId, evaluations.id))
    .where(eq(evaluations.submissionId, submissionId))
    .orderBy(desc(evaluations.createdAt))
    .limit(1);
  const decided = verdict ?? row?.verdict ?? null;
  const agreed = decided === null || row?.aiVerdict === decided;
  const ai = row?.aiEvaluated && row.state === 'completed' && agreed ? (row.scores ?? []) : [];
  return {
    criteria: ai
      .filter((s) => Number.isInteger(s.score) && s.score >= 1 && s.score <= 5)
      .map((s) => ({ criterionId: s.criterionId, score: s.score })),
    overall: row?.rating ?? null,
  };
}
