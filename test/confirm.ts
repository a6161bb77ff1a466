/**
 * Confirmed email addresses for fixtures (issue 41). `markConfirmed` writes the confirmation
 * straight into D1 (for fixtures whose behaviour under test is not the confirmation);
 * `confirmEmail` confirms with the token the outbox would mail, through the API, as the person would.
 */
import { env } from 'cloudflare:test';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { getDb } from '../src/db/client';
import { emailConfirmations, users } from '../src/db/schema';
import { confirmationToken } from '../src/services/email-confirmations';
import { call, jsonInit } from './helpers';

/** The account's address as confirmed (D1 only, no link used). */
export async function markConfirmed(userId: string): Promise<void> {
  await getDb(env.DB).update(users).set({ emailConfirmedAt: new Date() }).where(eq(users.id, userId));
}

/** The token of the newest unused link sent to the account (of `purpose`), as the mail carries it. */
export async function latestConfirmationToken(
  userId: string,
  purpose: 'signup' | 'change' = 'signup',
): Promise<string> {
  const [row] = await getDb(env.DB)
    .select({ id: emailConfirmations.id })
    .from(emailConfirmations)
    .where(
      and(
        eq(emailConfirmations.userId, userId),
        eq(emailConfirmations.purpose, purpose),
        isNull(emailConfirmations.usedAt),
      ),
    )
    .orderBy(desc(emailConfirmations.createdAt))
    .limit(1);
  if (!row) throw new Error(`no unused ${purpose} confirmation link for ${userId}`);
  return confirmationToken(env, row.id);
}

/**
 * Confirms with the newest link sent to the account, as a JSON client does (`POST
 * /api/auth/email-confirmation` with the token; opening the link itself only shows a page).
 */
export async function openConfirmationLink(userId: string, purpose: 'signup' | 'change' = 'signup') {
  return call(
    '/api/auth/email-confirmation',
    jsonInit('POST', { token: await latestConfirmationToken(userId, purpose) }),
  );
}

/** Confirms the account's address through its link; throws unless it answers 200. */
export async function confirmEmail(account: { id: string }): Promise<void> {
  const res = await openConfirmationLink(account.id);
  if (res.status !== 200) throw new Error(`confirmation failed: ${res.status} ${await res.text()}`);
}
