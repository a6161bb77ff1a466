import { and, eq, ne } from 'drizzle-orm';
import { getDb } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { users } from '../../db/schema';
import { ProblemError } from '../../lib/problem';
import { assertRecentSignIn } from '../../middleware/auth';
import { countEmailChange } from '../../middleware/rate-limit';
import { normaliseEmail, type Profile, profileWithOrganisation } from '../accounts';
import { afterCommit } from '../after-commit';
import { auditInsert } from '../audit';
import { resignCredentialsRatedBy, resignHolderCredentials } from '../issuance';
import { type DsrRequestView, requestInsert, toRequestView } from './requests';

export type Correction = { name?: string | undefined; email?: string | undefined };

const emailTaken = () => new ProblemError('conflict', 'An account with this email already exists.');

/**
 * The right to correction (DPDP Act 2023 §12): name and email, the two facts the person gave
 * us. The change, a completed `correction` request and an audit entry holding the values
 * before and after are written in one transaction. A changed name is visible at once on
 * public views (leaderboards, verification), so those caches are dropped. When the values
 * given are the ones on record, nothing is written and `request` is null.
 */
export async function correctPersonalData(
  env: Pick<Env, 'DB' | 'CACHE' | 'ADMIN_EMAIL' | 'CERT_SIGNING_KEY' | 'PUBLIC_BASE_URL' | 'RATE_LIMITER'>,
  userId: string,
  input: Correction,
  /** Who asked when not the person: their guardian (src/services/guardians.ts). */
  actorId: string,
  /** The asking session: a new email address needs a recent sign-in (it decides who can sign in). */
  session: { signedInAt: Date },
): Promise<{ profile: Profile; request: DsrRequestView | null }> {
  const db = getDb(env.DB);
  const [current] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!current) throw new ProblemError('unauthenticated', 'The account no longer exists.');

  const next = {
    name: input.name === undefined ? current.name : input.name.trim(),
    email: input.email === undefined ? current.email : normaliseEmail(input.email),
  };
  const fields = (['name', 'email'] as const).filter((f) => next[f] !== current[f]);
  // Nothing to correct: no request, no audit entry (they would fill the person's and the DPO's
  // lists, and the DPO's records after erasure, with corrections that never happened).
  if (fields.length === 0) return { profile: await profileWithOrganisation(db, current), request: null };

  if (fields.includes('email')) {
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
  const before = Object.fromEntries(fields.map((f) => [f, current[f]]));
  const after = Object.fromEntries(fields.map((f) => [f, next[f]]));
  try {
    const [updated, request] = await db.batch([
      db
        .update(users)
        .set({ ...next, updatedAt: now })
        .where(eq(users.id, userId))
        .returning(),
      requestInsert(
        db,
        {
          userId,
          kind: 'correction',
          state: 'completed',
          details: { fields, ...(actorId !== userId ? { byGuardian: true } : {}) },
        },
        now,
      ),
      auditInsert(db, {
        actorId,
        action: 'dsr.correction',
        targetType: 'user',
        targetId: userId,
        details: { before, after },
      }),
    ]);
    if (fields.includes('name') && current.role === 'employer') {
      // Credentials from before organisations named the rating person: none may keep the old name.
      await resignCredentialsRatedBy(env, db, userId);
    }
    // A credential identifier is a hash of the email: a new email means signing them again.
    if (fields.includes('email') && updated[0]?.credentialIdentitySalt)
      await resignHolderCredentials(env, db, userId);
    await afterCommit(env, { person: { id: userId, change: 'shown' } });
    return { profile: await profileWithOrganisation(db, updated[0]!), request: toRequestView(request[0]!) };
  } catch (err) {
    // Two accounts racing for one address: the unique index decides.
    if (isUniqueViolation(err)) throw emailTaken();
    throw err;
  }
}
