import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import {
  type OrganisationVerification,
  organisationInvitations,
  organisations,
  type Role,
  users,
} from '../db/schema';
import { hashPassword, secretsEqual, UNMATCHABLE_PASSWORD, verifyPassword } from '../domain/secrets';
import { ProblemError } from '../lib/problem';
import { auditInsert, recordAudit } from './audit';
import { purgeLeaderboards } from './cache-keys';
import {
  invitationFor,
  loadOrganisation,
  newOrganisation,
  type OrganisationRow,
  organisationSummary,
} from './organisations';

export type Profile = {
  id: string;
  email: string;
  name: string;
  role: Role;
  publicAlias: string | null;
  organisation: { id: string; name: string; verification: OrganisationVerification } | null;
  createdAt: string;
};

type UserRow = typeof users.$inferSelect;

/** The profile; an employer's shows their organisation (pass it when the caller has it). */
export const toProfile = (u: UserRow, organisation: OrganisationRow | null = null): Profile => ({
  id: u.id,
  email: u.email,
  name: u.name,
  role: u.role,
  publicAlias: u.publicAlias,
  organisation: organisation ? organisationSummary(organisation) : null,
  createdAt: u.createdAt.toISOString(),
});

/** The profile with the person's organisation loaded. */
export async function profileWithOrganisation(db: Database, u: UserRow): Promise<Profile> {
  const organisation = u.organisationId ? await loadOrganisation(db, u.organisationId) : null;
  return toProfile(u, organisation);
}

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

const emailTaken = () => new ProblemError('conflict', 'An account with this email already exists.');

export type SignupInput = {
  email: string;
  password: string;
  name: string;
  role: 'candidate' | 'employer';
  /** Employers: the organisation to create (its name; the email's domain when absent). */
  organisation?: { name?: string | undefined; websiteUrl?: string | undefined } | undefined;
  /** Employers: join an existing organisation by a member's invitation instead. */
  invitationToken?: string | undefined;
};

/**
 * Signup. Only candidate and employer accounts can be created this way, never admin. An employer
 * creates an organisation, or joins one with an invitation made for their address; the account,
 * the organisation (or the used invitation) and the audit entry commit together.
 */
export async function registerAccount(
  db: Database,
  input: SignupInput,
  reservedEmails: (string | undefined)[] = [],
): Promise<{ user: UserRow; organisation: OrganisationRow | null }> {
  const email = normaliseEmail(input.email);
  if (input.role === 'candidate' && (input.organisation || input.invitationToken)) {
    throw new ProblemError('validation-failed', 'The request body does not match the schema.', {
      errors: [
        {
          pointer: input.organisation ? '#/organisation' : '#/invitationToken',
          detail: 'Only employers belong to an organisation',
        },
      ],
    });
  }
  const reserved = reservedEmails.filter((e): e is string => typeof e === 'string' && e.trim() !== '');
  if (reserved.map(normaliseEmail).includes(email)) throw emailTaken();
  const existing = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  if (existing.length > 0) throw emailTaken();
  const id = crypto.randomUUID();
  const person = {
    id,
    email,
    name: input.name.trim(),
    role: input.role,
    ...(await hashPassword(input.password)),
  };
  try {
    if (input.role === 'candidate') {
      const [row] = await db.insert(users).values(person).returning();
      return { user: row as UserRow, organisation: null };
    }
    if (input.invitationToken) {
      const invitation = await invitationFor(db, input.invitationToken, email);
      const [[row]] = await db.batch([
        db
          .insert(users)
          .values({ ...person, organisationId: invitation.organisationId })
          .returning(),
        db
          .update(organisationInvitations)
          .set({ acceptedAt: new Date() })
          .where(
            and(eq(organisationInvitations.id, invitation.id), isNull(organisationInvitations.acceptedAt)),
          ),
        auditInsert(db, {
          actorId: id,
          action: 'organisation.member_joined',
          targetType: 'organisation',
          targetId: invitation.organisationId,
        }),
      ]);
      return { user: row as UserRow, organisation: await loadOrganisation(db, invitation.organisationId) };
    }
    const organisation = newOrganisation(email, input.organisation);
    const [[created], [row]] = await db.batch([
      db.insert(organisations).values(organisation).returning(),
      db
        .insert(users)
        .values({ ...person, organisationId: organisation.id })
        .returning(),
      auditInsert(db, {
        actorId: id,
        action: 'organisation.created',
        targetType: 'organisation',
        targetId: organisation.id,
      }),
    ]);
    return { user: row as UserRow, organisation: created ?? null };
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
