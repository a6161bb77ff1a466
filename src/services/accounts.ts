import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { type Role, users } from '../db/schema';
import { hashPassword, secretsEqual, UNMATCHABLE_PASSWORD, verifyPassword } from '../domain/secrets';

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

export class EmailTakenError extends Error {}

/** Signup. Only candidate and employer accounts can be created this way, never admin. */
export async function registerAccount(
  db: Database,
  input: { email: string; password: string; name: string; role: 'candidate' | 'employer' },
  reservedEmails: string[] = [],
): Promise<UserRow> {
  const email = normaliseEmail(input.email);
  if (reservedEmails.map(normaliseEmail).includes(email)) throw new EmailTakenError();
  const existing = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  if (existing.length > 0) throw new EmailTakenError();
  try {
    const [row] = await db
      .insert(users)
      .values({ email, name: input.name.trim(), role: input.role, ...(await hashPassword(input.password)) })
      .returning();
    return row as UserRow;
  } catch (err) {
    // Two signups racing for one email: the unique index decides.
    if (String(err).includes('UNIQUE')) throw new EmailTakenError();
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
