import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { type OrganisationVerification, organisations, type Role, sessions, users } from '../db/schema';
import { isChild } from '../domain/age';
import { normaliseAlias } from '../domain/alias';
import { checkPassword } from '../domain/password-policy';
import { hashPassword, secretsEqual, UNMATCHABLE_PASSWORD, verifyPassword } from '../domain/secrets';
import { clock } from '../lib/clock';

type BatchItem = Parameters<Database['batch']>[0][number];

import { log } from '../lib/log';
import { ProblemError } from '../lib/problem';
import { afterCommit, type EffectsEnv } from './after-commit';
import { auditInsert, auditPower, auditPowerInsert, recordAudit } from './audit';
import { confirmationStatements } from './email-confirmations';
import { guardianRequestInsert, sameEmail } from './guardians';
import { invitationFor, newOrganisation } from './organisations/membership';
import {
  assertNameFree,
  loadOrganisation,
  type OrganisationRow,
  organisationSummary,
} from './organisations/organisation';

export type Profile = {
  id: string;
  email: string;
  name: string;
  role: Role;
  publicAlias: string | null;
  organisation: { id: string; name: string; verification: OrganisationVerification } | null;
  dateOfBirth: string | null;
  /** Whether the person proved they receive mail at `email` (src/services/email-confirmations.ts). */
  emailConfirmed: boolean;
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
  dateOfBirth: u.dateOfBirth,
  emailConfirmed: u.emailConfirmedAt !== null,
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
  /** ISO date (`YYYY-MM-DD`), checked by the schema. */
  dateOfBirth: string;
  /** A child (under 18): the email of the parent or lawful guardian who is to consent (§9). */
  guardianEmail?: string | undefined;
  /** Employers: the organisation to create (its name; the email's domain when absent). */
  organisation?: { name?: string | undefined; websiteUrl?: string | undefined } | undefined;
  /** Employers: join an existing organisation by a member's invitation instead. */
  invitationCode?: string | undefined;
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
  now: Date = clock.now(),
  /**
   * What else the signup's batch writes: the confirmation link of the address
   * (src/services/email-confirmations.ts), which carries the invitation to accept once confirmed.
   */
  alsoInBatch: (account: {
    userId: string;
    email: string;
    invitationId: string | null;
  }) => Promise<readonly BatchItem[]> = async () => [],
): Promise<{ user: UserRow; organisation: OrganisationRow | null; invitationId: string | null }> {
  const email = normaliseEmail(input.email);
  if (input.role === 'candidate' && (input.organisation || input.invitationCode)) {
    throw new ProblemError('validation-failed', 'The request body does not match the schema.', {
      errors: [
        {
          pointer: input.organisation ? '#/organisation' : '#/invitationCode',
          detail: 'Only employers belong to an organisation',
        },
      ],
    });
  }
  const child = isChild(input.dateOfBirth, now);
  const guardianEmail = input.guardianEmail ? normaliseEmail(input.guardianEmail) : null;
  const refuse = (pointer: string, detail: string) =>
    new ProblemError('validation-failed', 'The request body does not match the schema.', {
      errors: [{ pointer, detail }],
    });
  if (child && input.role !== 'candidate')
    throw refuse('#/dateOfBirth', 'Employer accounts are for adults (18 or over)');
  if (child && !guardianEmail)
    throw refuse(
      '#/guardianEmail',
      'Under 18: name the parent or lawful guardian who is to consent (DPDP §9); they approve with their own account',
    );
  if (!child && guardianEmail) throw refuse('#/guardianEmail', 'Only a child (under 18) names a guardian');
  if (guardianEmail === email) throw sameEmail();
  const reserved = reservedEmails.filter((e): e is string => typeof e === 'string' && e.trim() !== '');
  if (reserved.map(normaliseEmail).includes(email)) throw emailTaken();
  requireStrongPassword(input.password, [email, input.name]);
  const existing = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  if (existing.length > 0) throw emailTaken();
  if (input.role === 'employer' && !input.invitationCode) {
    // The organisation it creates is shown with what it issues (waiting certificates too): never
    // under a verified organisation's name.
    await assertNameFree(db, newOrganisation(email, input.organisation).name);
  }
  const id = crypto.randomUUID();
  const person = {
    id,
    email,
    name: input.name.trim(),
    role: input.role,
    dateOfBirth: input.dateOfBirth,
    ...(await hashPassword(input.password)),
  };
  try {
    if (input.role === 'candidate' && guardianEmail) {
      // A child: the account and the guardian's request commit together (nothing else happens until approval).
      const [[row]] = await db.batch([
        db.insert(users).values(person).returning(),
        guardianRequestInsert(db, id, guardianEmail, now),
        auditInsert(db, { actorId: id, action: 'guardian.requested', targetType: 'user', targetId: id }),
        ...(await alsoInBatch({ userId: id, email, invitationId: null })),
      ]);
      return { user: row as UserRow, organisation: null, invitationId: null };
    }
    if (input.role === 'candidate') {
      const [[row]] = await db.batch([
        db.insert(users).values(person).returning(),
        ...(await alsoInBatch({ userId: id, email, invitationId: null })),
      ]);
      return { user: row as UserRow, organisation: null, invitationId: null };
    }
    if (input.invitationCode) {
      // Checked now (a wrong code is a 422 at once), accepted when the address is confirmed: only
      // the person who receives mail at the invited address joins (email-confirmations.ts).
      const invitation = await invitationFor(db, input.invitationCode, email);
      const [[row]] = await db.batch([
        db.insert(users).values(person).returning(),
        ...(await alsoInBatch({ userId: id, email, invitationId: invitation.id })),
      ]);
      return { user: row as UserRow, organisation: null, invitationId: invitation.id };
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
      ...(await alsoInBatch({ userId: id, email, invitationId: null })),
    ]);
    return { user: row as UserRow, organisation: created ?? null, invitationId: null };
  } catch (err) {
    // Two signups racing for one email: the unique index decides.
    if (isUniqueViolation(err)) throw emailTaken();
    throw err;
  }
}

/**
 * `POST /api/auth/signup`: the account (and its organisation, or the invitation it accepts), with
 * the confirmation link of its address in the same batch; the link's mail job is then handed to
 * the queue (the sweeper sends it if this fails).
 */
export async function signUp(
  db: Database,
  env: Pick<Env, 'ADMIN_EMAIL'> & EffectsEnv,
  input: SignupInput,
  now: Date = clock.now(),
): Promise<{ user: UserRow; organisation: OrganisationRow | null; invitationId: string | null }> {
  let jobId: string | null = null;
  const registered = await registerAccount(
    db,
    input,
    [env.ADMIN_EMAIL],
    now,
    async ({ userId, email, invitationId }) => {
      const link = await confirmationStatements(
        db,
        env,
        { userId, email, purpose: 'signup', invitationId },
        now,
      );
      jobId = link.jobId;
      return link.statements;
    },
  );
  if (jobId) await afterCommit(db, env, { jobs: [jobId] }, { now });
  return registered;
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

/** Refuses (422, with the estimator's reason) a password that breaks the policy. */
export function requireStrongPassword(password: string, context: readonly string[]): void {
  const verdict = checkPassword(password, context);
  if (!verdict.ok)
    throw new ProblemError('validation-failed', verdict.reason, {
      errors: [{ pointer: '#/password', detail: verdict.reason }],
    });
}

/** `ADMIN_PASSWORD` values already found to meet the policy (one check per isolate, not per login). */
const adminPasswordChecked = new Set<string>();

/**
 * The first admin: a login with exactly `ADMIN_EMAIL` / `ADMIN_PASSWORD` creates the admin
 * account, or re-enables an account that is already the admin and resets its password to the
 * secret. It never promotes: when the address belongs to a candidate or employer (someone
 * signed up with it before it became `ADMIN_EMAIL`) it refuses with 409 and changes nothing,
 * so that person's sessions never become admin sessions. `ADMIN_PASSWORD` must meet the same
 * policy as every password, or bootstrap refuses with 503. Every bootstrap and every refusal
 * is audited with the caller's address. No other path grants admin.
 * Returns null when the credentials are not the admin secrets.
 */
export async function bootstrapAdmin(
  db: Database,
  env: Pick<Env, 'ADMIN_EMAIL' | 'ADMIN_PASSWORD'>,
  email: string,
  password: string,
  ip: string | null = null,
): Promise<UserRow | null> {
  if (!env.ADMIN_EMAIL || !env.ADMIN_PASSWORD) return null;
  const [emailOk, passwordOk] = await Promise.all([
    secretsEqual(normaliseEmail(email), normaliseEmail(env.ADMIN_EMAIL)),
    secretsEqual(password, env.ADMIN_PASSWORD),
  ]);
  if (!emailOk || !passwordOk) return null;
  const adminEmail = normaliseEmail(env.ADMIN_EMAIL);
  const refuse = async (problem: ProblemError, targetId: string | null, reason: string) => {
    log('warn', 'admin bootstrap refused', { event: 'admin.bootstrap_refused', reason, ip });
    await auditPower(db, {
      actor: null,
      action: 'admin.bootstrap_refused',
      target: { type: 'user', id: targetId },
      ip,
      details: { reason },
    });
    return problem;
  };
  if (!adminPasswordChecked.has(password)) {
    const verdict = checkPassword(password, [adminEmail, 'Administrator']);
    if (!verdict.ok)
      throw await refuse(
        new ProblemError(
          'not-configured',
          `ADMIN_PASSWORD does not meet the password policy, so the admin account is not bootstrapped: ${verdict.reason} Set a stronger secret (wrangler secret put ADMIN_PASSWORD).`,
        ),
        null,
        'weak_admin_password',
      );
    adminPasswordChecked.add(password);
  }
  const credentials = await hashPassword(password);
  // Insert, or refresh the row only when it already is the admin: one statement, so a signup
  // racing for the address cannot slip in between a check and the write.
  const [row] = await db
    .insert(users)
    .values({ email: adminEmail, name: 'Administrator', role: 'admin', ...credentials })
    .onConflictDoUpdate({
      target: users.email,
      set: { disabledAt: null, updatedAt: new Date(), ...credentials },
      setWhere: eq(users.role, 'admin'),
    })
    .returning();
  if (!row) {
    const [holder] = await db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, adminEmail))
      .limit(1);
    throw await refuse(
      new ProblemError(
        'conflict',
        'ADMIN_EMAIL belongs to an existing account that is not the admin, and bootstrap never promotes an account. Nothing was changed. Set ADMIN_EMAIL to an address with no account, or have that account erased first.',
      ),
      holder?.id ?? null,
      'email_held_by_non_admin',
    );
  }
  await auditPower(db, {
    actor: row.id,
    action: 'admin.bootstrapped',
    target: { type: 'user', id: row.id },
    ip,
  });
  return row;
}

/**
 * Changes a person's role: the only path that does. Every session of that person ends in the
 * same batch (a session keeps the powers it was started with otherwise), and the change is
 * audited with the actor and address. Null when there is no such person.
 */
export async function changeRole(
  db: Database,
  input: { userId: string; role: Role; actor: string | null; ip: string | null },
): Promise<UserRow | null> {
  const [current] = await db.select().from(users).where(eq(users.id, input.userId)).limit(1);
  if (!current) return null;
  if (current.role === input.role) return current;
  const [updated] = await db.batch([
    db
      .update(users)
      .set({ role: input.role, updatedAt: new Date() })
      .where(and(eq(users.id, input.userId), eq(users.role, current.role)))
      .returning(),
    db.delete(sessions).where(eq(sessions.userId, input.userId)),
    auditPowerInsert(db, {
      actor: input.actor,
      action: 'user.role_changed',
      target: { type: 'user', id: input.userId },
      ip: input.ip,
      details: { from: current.role, to: input.role },
    }),
  ]);
  return updated[0] ?? null;
}

/** The person's own account row, or null once it is gone (erased). */
export async function profileOf(db: Database, userId: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  return row ?? null;
}

/**
 * Sets (or, with null, clears) the leaderboard alias, NFKC-normalised and refused (422) with
 * control, bidirectional or invisible characters; audited, and the boards the person can
 * appear on are purged.
 */
export async function setPublicAlias(
  db: Database,
  env: Pick<Env, 'CACHE'>,
  userId: string,
  requested: string | null,
): Promise<UserRow | null> {
  let publicAlias: string | null = null;
  if (requested !== null) {
    const verdict = normaliseAlias(requested);
    if (!verdict.ok)
      throw new ProblemError('validation-failed', verdict.reason, {
        errors: [{ pointer: '#/publicAlias', detail: verdict.reason }],
      });
    publicAlias = verdict.alias;
  }
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
    afterCommit(db, env, { person: { id: userId, change: 'alias' } }),
  ]);
  return row;
}
