import { and, eq, ne } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { users } from '../../db/schema';
import { isChild } from '../../domain/age';
import { ProblemError } from '../../lib/problem';
import { countEmailChange } from '../account-throttles';
import { normaliseEmail, type Profile, profileWithOrganisation } from '../accounts';
import { afterCommit } from '../after-commit';
import { auditInsert } from '../audit';
import { requireConfirmedEmail } from '../confirmed-email';
import { confirmationStatements } from '../email-confirmations';
import { resignCredentialsRatedBy } from '../issuance/resign';
import { dispatchJobs } from '../jobs/jobs';
import { assertRecentSignIn } from '../recent-sign-in';
import { type DsrRequestView, requestInsert, toRequestView } from './requests';

export type Correction = {
  name?: string | undefined;
  email?: string | undefined;
  /** ISO date, checked by the schema. */
  dateOfBirth?: string | undefined;
};

const emailTaken = () => new ProblemError('conflict', 'An account with this email already exists.');

/**
 * The right to correction (DPDP Act 2023 §12): name and email, the two facts the person gave
 * us. The change, a `correction` request and an audit entry holding the values before and after
 * are written in one transaction. A changed name is visible at once on public views (leaderboards,
 * verification), so those caches are dropped. A new email address takes effect only once it is
 * confirmed there (src/services/email-confirmations.ts): the same batch writes a confirmation link
 * to it, the request stays `in_progress` until then, and the answer's `pendingEmail` names it; the
 * person's own address must be confirmed to ask (403 `email-unconfirmed`; a guardian correcting a
 * ward acts with their own confirmed address). When the values given are the ones on record,
 * nothing is written and `request` is null.
 */
export async function correctPersonalData(
  db: Database,
  env: Pick<
    Env,
    'CACHE' | 'ADMIN_EMAIL' | 'CERT_SIGNING_KEY' | 'PUBLIC_BASE_URL' | 'RATE_LIMITER' | 'JOBS_QUEUE'
  >,
  userId: string,
  input: Correction,
  /** Who asked when not the person: their guardian (src/services/guardians.ts). */
  actorId: string,
  /** The asking session: a new email address needs a recent sign-in (it decides who can sign in). */
  session: { signedInAt: Date },
): Promise<{ profile: Profile; request: DsrRequestView | null; pendingEmail: string | null }> {
  const [current] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!current) throw new ProblemError('unauthenticated', 'The account no longer exists.');

  const next = {
    name: input.name === undefined ? current.name : input.name.trim(),
    email: input.email === undefined ? current.email : normaliseEmail(input.email),
    dateOfBirth: input.dateOfBirth === undefined ? current.dateOfBirth : input.dateOfBirth,
  };
  const fields = (['name', 'email', 'dateOfBirth'] as const).filter((f) => next[f] !== current[f]);
  // A date of birth that would turn an adult into a child or a child into an adult is not a
  // correction this route makes: a child's consents are their guardian's (DPDP §9).
  const today = new Date();
  if (
    fields.includes('dateOfBirth') &&
    current.dateOfBirth !== null &&
    isChild(current.dateOfBirth, today) !== isChild(next.dateOfBirth, today)
  )
    throw new ProblemError(
      'validation-failed',
      'This date of birth would change whether the account is a child’s; write to the grievance officer instead.',
      { errors: [{ pointer: '#/dateOfBirth', detail: 'Crosses the age of majority' }] },
    );
  // Nothing to correct: no request, no audit entry (they would fill the person's and the DPO's
  // lists, and the DPO's records after erasure, with corrections that never happened).
  if (fields.length === 0)
    return { profile: await profileWithOrganisation(db, current), request: null, pendingEmail: null };

  const emailChange = fields.includes('email');
  if (emailChange) {
    if (actorId === userId) await requireConfirmedEmail(db, userId, 'change your email address');
    assertRecentSignIn(session, "Changing the account's email address");
    // Counted before the lookup: the 409 below says the address has an account (429 when over).
    await countEmailChange(env, userId);
    const reserved = env.ADMIN_EMAIL && normaliseEmail(env.ADMIN_EMAIL) === next.email;
    const [other] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, next.email), ne(users.id, userId)))
      .limit(1);
    if (reserved || other) throw emailTaken();
  }

  const now = new Date();
  const requestId = crypto.randomUUID();
  const nameChange = fields.includes('name');
  const birthChange = fields.includes('dateOfBirth');
  const link = emailChange
    ? await confirmationStatements(db, env, { userId, email: next.email, purpose: 'change', requestId }, now)
    : null;
  const [updated, request] = await db.batch([
    db
      .update(users)
      .set({ name: next.name, dateOfBirth: next.dateOfBirth, updatedAt: now })
      .where(eq(users.id, userId))
      .returning(),
    requestInsert(
      db,
      {
        id: requestId,
        userId,
        kind: 'correction',
        // An email correction completes when the new address is confirmed.
        state: emailChange ? 'in_progress' : 'completed',
        details: {
          fields,
          ...(emailChange ? { pendingEmail: next.email } : {}),
          ...(actorId !== userId ? { byGuardian: true } : {}),
        },
      },
      now,
    ),
    auditInsert(db, {
      actorId,
      action: 'dsr.correction',
      targetType: 'user',
      targetId: userId,
      details: {
        before: {
          ...(nameChange ? { name: current.name } : {}),
          ...(birthChange ? { dateOfBirth: current.dateOfBirth } : {}),
        },
        after: {
          ...(nameChange ? { name: next.name } : {}),
          ...(birthChange ? { dateOfBirth: next.dateOfBirth } : {}),
        },
        ...(emailChange ? { pendingEmail: next.email } : {}),
      },
    }),
    ...(link ? link.statements : []),
  ]);
  if (link) await dispatchJobs(db, env, [link.jobId], now);
  if (nameChange && current.role === 'employer') {
    // Credentials from before organisations named the rating person: none may keep the old name.
    await resignCredentialsRatedBy(db, env, userId);
  }
  if (nameChange) await afterCommit(db, env, { person: { id: userId, change: 'shown' } });
  return {
    profile: await profileWithOrganisation(db, updated[0]!),
    request: toRequestView(request[0]!),
    pendingEmail: emailChange ? next.email : null,
  };
}
