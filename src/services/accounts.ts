import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { type Role, users } from '../db/schema';
import { hashPassword, secretsEqual, UNMATCHABLE_PASSWORD, verifyPassword } from '../domain/secrets';
import { ProblemError } from '../lib/problem';
import { recordAudit } from './audit';
import { purgeLeaderboards } from './cache-keys';

export type Profile = {
  id: string;
  email: string;
  name: string;
  role: Role;
  publicAlias: string | null;
  createdAt: string;
};

type UserRow = typeof users.$inferSelect;

export const toProfile = (u: UserRow): Profile => ({
  id: u.id,
  email: u.email,
  name: u.name,
  role: u.role,
  publicAlias: u.publicAlias,
  createdAt: u.createdAt.toISOString(),
});

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

const emailTaken = () => new ProblemError('conflict', 'An account with this email already exists.');

/** Signup. Only candidate and employer accounts can be created this way, never admin. */
export async function registerAccount(
  db: Database,
  input: { email: string; password: string; name: string; role: 'candidate' | 'employer' },
  reservedEmails: string[] = [],
): Promise<UserRow> {
  const email = normaliseEmail(input.email);
  if (reservedEmails.map(normaliseEmail).includes(email)) throw emailTaken();
  const existing = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  if (existing.length > 0) throw emailTaken();
  try {
    const [row] = await db
      .insert(users)
      .values({ email, name: input.name.trim(), role: input.role, ...(await hashPassword(input.password)) })
      .returning();
    return row as UserRow;
  } catch (err) {
    // Two signups racing for one email: the unique index decides.
    if (isUniqueViolation(err)) throw emailTaken();
    throw err;
  }
}

/**
 * Checks credentials. Unknown email and wrong password do the same work (one PBKDF2
 * derivation) and give the same answer, so neither time nor body tells them apart.
 */
export async function authenticate(db: Database, email: string, password: string): Promise<UserRow | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(users.email, normaliseEmail(email)))
    .limit(1);
  const ok = await verifyPassword(password, row ?? UNMATCHABLE_PASSWORD);
  return ok && row && !row.disabledAt ? row : null;
}

/**
 * The first admin: a login with exactly `ADMIN_EMAIL` / `ADMIN_PASSWORD` creates the admin
 * account, or re-enables it and resets its password to the secret. No other path grants admin.
 * Returns null when the credentials are not the admin secrets.
 */
export async function bootstrapAdmin(
  db: Database,
  env: Pick<Env, 'ADMIN_EMAIL' | 'ADMIN_PASSWORD'>,
  email: string,
  password: string,
): Promise<UserRow | null> {
  if (!env.ADMIN_EMAIL || !env.ADMIN_PASSWORD) return null;
  const [emailOk, passwordOk] = await Promise.all([
    secretsEqual(normaliseEmail(email), normaliseEmail(env.ADMIN_EMAIL)),
    secretsEqual(password, env.ADMIN_PASSWORD),
  ]);
  if (!emailOk || !passwordOk) return null;
  const adminEmail = normaliseEmail(env.ADMIN_EMAIL);
  const credentials = await hashPassword(password);
  const [row] = await db
    .insert(users)
    .values({ email: adminEmail, name: 'Administrator', role: 'admin', ...credentials })
    .onConflictDoUpdate({
      target: users.email,
      set: { role: 'admin', disabledAt: null, updatedAt: new Date(), ...credentials },
    })
    .returning();
  return row ?? null;
}

/** The person's own account row, or null once it is gone (erased). */
export async function profileOf(db: Database, userId: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  return row ?? null;
}

/** Sets (or, with null, clears) the leaderboard alias; audited, and every board is purged. */
export async function setPublicAlias(
  env: Pick<Env, 'CACHE'>,
  db: Database,
  userId: string,
  publicAlias: string | null,
): Promise<UserRow | null> {
  const [row] = await db
    .update(users)
    .set({ publicAlias, updatedAt: new Date() })
    .where(eq(users.id, userId))
    .returning();
  if (!row) return null;
  await Promise.all([
    recordAudit(db, {
      actorId: userId,
      action: 'profile.alias_changed',
      targetType: 'user',
      targetId: userId,
    }),
    purgeLeaderboards(env.CACHE),
  ]);
  return row;
}
