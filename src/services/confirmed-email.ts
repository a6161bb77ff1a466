/**
 * Whether an account's address is confirmed, for the services that refuse an unconfirmed one
 * (guardians, organisations, correction). Kept apart from the links themselves
 * (src/services/email-confirmations.ts), which re-sign credentials when a new address is confirmed:
 * the guardian module reading this must not depend on issuance.
 */
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { users } from '../db/schema';
import { ProblemError } from '../lib/problem';

/**
 * 403 `email-unconfirmed` unless the account's current address is confirmed. `what` says what the
 * person tried ("approve a guardian request").
 */
export async function requireConfirmedEmail(db: Database, userId: string, what: string): Promise<void> {
  const [row] = await db
    .select({ confirmedAt: users.emailConfirmedAt })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (row?.confirmedAt) return;
  throw new ProblemError(
    'email-unconfirmed',
    `Confirm your email address before you ${what}: open the link we sent at signup, or ask for a new one (POST /api/me/email-confirmation).`,
  );
}
