/**
 * Unconfirmed signups expire (issue 51): an account whose address was never confirmed within
 * `UNCONFIRMED_SIGNUP_DAYS` of signing up is closed through the ordinary erasure request and
 * cascade, which frees its address. Otherwise anyone could sign up with someone else's address
 * and hold it for ever: the owner's own signup would answer 409. The confirmation mail says so.
 *
 * Only accounts that signed up under confirmation are concerned: those whose first signup link
 * was made with the account (within a minute of its creation). Accounts from before confirmed
 * addresses existed have no such link and are left alone; so are admins and accounts already
 * disabled (an erasure under way, a tombstone). Each closure is audited (`signup.expired`).
 * Decision 0313.
 */
import { and, eq, isNull, lte, ne, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { emailConfirmations, users } from '../db/schema';
import { auditInsert } from './audit';
import { requestErasure } from './dsr/erasure';

/** How long a new account has to confirm its address before it is closed. */
export const UNCONFIRMED_SIGNUP_DAYS = 7;
/** Accounts closed per cron run (a bounded batch; the next run takes the rest). */
const PER_RUN = 50;
const DAY_MS = 86_400_000;

export async function expireUnconfirmedSignups(
  db: Database,
  env: Pick<Env, 'JOBS_QUEUE' | 'CACHE'>,
  now = new Date(),
): Promise<number> {
  const before = new Date(now.getTime() - UNCONFIRMED_SIGNUP_DAYS * DAY_MS);
  const expired = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        isNull(users.emailConfirmedAt),
        isNull(users.disabledAt),
        ne(users.role, 'admin'),
        lte(users.createdAt, before),
        sql`exists (select 1 from ${emailConfirmations} where ${emailConfirmations.userId} = ${users.id} and ${emailConfirmations.purpose} = 'signup' and ${emailConfirmations.createdAt} <= ${users.createdAt} + 60000)`,
      ),
    )
    .limit(PER_RUN);
  for (const u of expired) {
    await db.batch([
      auditInsert(db, {
        actorId: null,
        action: 'signup.expired',
        targetType: 'user',
        targetId: u.id,
        details: { unconfirmedDays: UNCONFIRMED_SIGNUP_DAYS },
      }),
      // Marks it disabled at once (requestErasure does too): a second run does not pick it again.
      db.update(users).set({ disabledAt: now, updatedAt: now }).where(eq(users.id, u.id)),
    ]);
    await requestErasure(db, env, u.id, now, u.id);
  }
  return expired.length;
}
