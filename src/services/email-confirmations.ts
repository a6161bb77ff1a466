/**
 * Confirmed email addresses. A signup sends a link to the address given; opening it proves the
 * person receives mail there (`users.email_confirmed_at`). Until then the account may use the
 * service for itself (sign in, submit, create briefs, rate), but nothing that acts for someone else
 * or changes who it is: approving (or even seeing) a guardian request, getting a ward's notices,
 * joining an organisation by invitation, proving a domain by DNS, changing its email. A new email
 * address takes effect only once confirmed at that address.
 *
 * Links: `GET /api/auth/email-confirmation?token=…` opens a page and changes nothing; its button
 * (or a JSON client) POSTs the token, which confirms, once, within 24 hours. The token is never
 * stored: it is `vpc_` + HMAC-SHA256(key, confirmation id), the key derived by HKDF from the
 * links' own random secret (`confirmationKey`, never the certificate signing key); the row keeps
 * its SHA-256 and the mail job only the id, so neither D1 nor a job payload holds a usable link.
 * A signup left unconfirmed for `UNCONFIRMED_SIGNUP_DAYS` is closed (its erasure requested), so
 * nobody can hold an address they do not receive mail at (`expireUnconfirmedSignups`). Delivery is the mail outbox
 * (an `email_confirmation` job, src/services/mail.ts); resending is limited to 3 an hour.
 */
import { and, desc, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { insertIfChanged, statement } from '../db/conditional';
import { isUniqueViolation } from '../db/errors';
import { dsrRequests, emailConfirmations, organisationInvitations, organisations, users } from '../db/schema';
import { sha256Hex, toBase64Url } from '../domain/secrets';
import { clock } from '../lib/clock';
import { ProblemError } from '../lib/problem';
import { afterCommit } from './after-commit';
import { auditInsert } from './audit';
import { resignHolderCredentials } from './issuance/resign';
import { dispatchJobs, jobInsert } from './jobs/jobs';
import { registerJobKind } from './jobs/registry';
import { sendMail } from './mail';

/** How long a confirmation link works. */
export const CONFIRMATION_TTL_MS = 24 * 60 * 60 * 1000;
/** Links a person may ask for per hour (the signup's own counts). */
export const CONFIRMATIONS_PER_HOUR = { limit: 3, windowSeconds: 60 * 60 } as const;
export const EMAIL_CONFIRMATION_JOB = 'email_confirmation';

const encoder = new TextEncoder();

/**
 * The confirmation links' own secret: 32 random bytes the service makes the first time it needs
 * them and keeps in KV (`CACHE`, never expiring), not derived from any other secret. So a service
 * without a certificate signing key still lets people sign up, and rotating that key changes
 * nothing here. Only a link not yet mailed depends on it: the token is recomputed when the mail is
 * sent, and should the secret have changed meanwhile (two isolates making it at once before KV
 * converged, or the key deleted), the row is re-hashed before the mail goes out. A mailed link
 * is checked by its hash alone, so nothing can break it (docs/decisions/0312).
 */
export const CONFIRMATION_SECRET_KEY = 'secret:email-confirmation-links:v1';
let secretOfIsolate: { kv: KVNamespace; key: Promise<CryptoKey> } | undefined;

async function loadConfirmationKey(kv: KVNamespace): Promise<CryptoKey> {
  let secret = await kv.get(CONFIRMATION_SECRET_KEY);
  if (!secret) {
    secret = toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
    await kv.put(CONFIRMATION_SECRET_KEY, secret);
  }
  const base = await crypto.subtle.importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: encoder.encode('email-confirmation-v2') },
    base,
    { name: 'HMAC', hash: 'SHA-256', length: 256 },
    false,
    ['sign'],
  );
}

function confirmationKey(kv: KVNamespace): Promise<CryptoKey> {
  if (secretOfIsolate?.kv !== kv) {
    const key = loadConfirmationKey(kv);
    secretOfIsolate = { kv, key };
    // A failed read is not remembered: the next call tries again.
    key.catch(() => {
      if (secretOfIsolate?.key === key) secretOfIsolate = undefined;
    });
  }
  return secretOfIsolate.key;
}

/** Forgets the isolate's copy of the links' secret (tests that delete or replace it). */
export function forgetConfirmationSecret(): void {
  secretOfIsolate = undefined;
}

/** The token of confirmation `id` (recomputed, never stored). */
export async function confirmationToken(env: Pick<Env, 'CACHE'>, id: string): Promise<string> {
  const key = await confirmationKey(env.CACHE);
  return `vpc_${toBase64Url(new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(id))))}`;
}

export const confirmationLink = (env: Pick<Env, 'PUBLIC_BASE_URL'>, token: string) =>
  `${(env.PUBLIC_BASE_URL ?? '').replace(/\/+$/, '')}/api/auth/email-confirmation?token=${token}`;

export type ConfirmationInput = {
  userId: string;
  email: string;
  purpose: 'signup' | 'change';
  invitationId?: string | null;
  requestId?: string | null;
};

/**
 * A new link, for the batch of the change that owes it: the confirmation row and its mail job.
 * `jobId` is to be dispatched once the batch has committed.
 */
export async function confirmationStatements(
  db: Database,
  env: Pick<Env, 'CACHE'>,
  input: ConfirmationInput,
  now: Date,
) {
  const id = crypto.randomUUID();
  const jobId = crypto.randomUUID();
  const tokenHash = await sha256Hex(await confirmationToken(env, id));
  return {
    id,
    jobId,
    statements: [
      db.insert(emailConfirmations).values({
        id,
        userId: input.userId,
        email: input.email,
        purpose: input.purpose,
        tokenHash,
        invitationId: input.invitationId ?? null,
        requestId: input.requestId ?? null,
        createdAt: now,
        expiresAt: new Date(now.getTime() + CONFIRMATION_TTL_MS),
      }),
      jobInsert(
        db,
        { id: jobId, kind: EMAIL_CONFIRMATION_JOB, payload: { confirmationId: id }, subjectId: input.userId },
        now,
      ),
    ] as const,
  };
}

/** The mail: sent while the link is unused and unexpired (a link used or expired meanwhile sends nothing). */
export const emailConfirmationJob = registerJobKind<{ confirmationId: string }>({
  kind: EMAIL_CONFIRMATION_JOB,
  parse: (payload) => {
    const id = (payload as { confirmationId?: unknown } | null)?.confirmationId;
    return typeof id === 'string' ? { confirmationId: id } : null;
  },
  run: async ({ confirmationId }, { env, db, now }) => {
    const [row] = await db
      .select()
      .from(emailConfirmations)
      .where(
        and(
          eq(emailConfirmations.id, confirmationId),
          isNull(emailConfirmations.usedAt),
          gt(emailConfirmations.expiresAt, now),
        ),
      )
      .limit(1);
    if (!row) return;
    const token = await confirmationToken(env, row.id);
    const tokenHash = await sha256Hex(token);
    // The links' secret changed since the row was written (see confirmationKey): the row follows
    // the token mailed now, so the link works.
    if (tokenHash !== row.tokenHash)
      await db
        .update(emailConfirmations)
        .set({ tokenHash })
        .where(and(eq(emailConfirmations.id, row.id), isNull(emailConfirmations.usedAt)));
    const link = confirmationLink(env, token);
    const change = row.purpose === 'change';
    await sendMail(
      env,
      {
        to: row.email,
        subject: change ? 'Confirm your new email address' : 'Confirm your email address',
        text:
          (change
            ? 'Someone asked to make this address the sign-in address of their account. If it was you, open this link to confirm it; until then the account keeps its old address:\n\n'
            : 'Welcome. Open this link and press Confirm to confirm your email address; until you do, your account cannot approve a guardian request, join an organisation or change its address, and an account left unconfirmed for 7 days is closed:\n\n') +
          `${link}\n\nThe link works once, for 24 hours. If you did not ask for it, ignore this message: nothing changes unless the button on that page is pressed.`,
      },
      { link },
    );
  },
  maxAgeSeconds: 24 * 60 * 60,
});

/** 429 when the person has had `CONFIRMATIONS_PER_HOUR` links in the last hour. */
async function countLinks(db: Database, userId: string, now: Date): Promise<void> {
  const { limit, windowSeconds } = CONFIRMATIONS_PER_HOUR;
  const since = new Date(now.getTime() - windowSeconds * 1000);
  const recent = await db
    .select({ createdAt: emailConfirmations.createdAt })
    .from(emailConfirmations)
    .where(and(eq(emailConfirmations.userId, userId), gt(emailConfirmations.createdAt, since)))
    .orderBy(emailConfirmations.createdAt)
    .limit(limit);
  if (recent.length < limit) return;
  const oldest = recent[0]!.createdAt.getTime();
  const resetSeconds = Math.max(1, Math.ceil((oldest + windowSeconds * 1000 - now.getTime()) / 1000));
  throw new ProblemError(
    'quota-exceeded',
    `Too many confirmation links: ${limit} per hour. The newest one is on its way; try again later.`,
    {
      headers: {
        'RateLimit-Policy': `"email-confirmation";q=${limit};w=${windowSeconds}`,
        RateLimit: `"email-confirmation";r=0;t=${resetSeconds}`,
        'Retry-After': String(resetSeconds),
      },
    },
  );
}

export type ConfirmationStatus = {
  email: string;
  confirmed: boolean;
  confirmedAt: string | null;
  /** A new address waiting for its confirmation (an email correction), or null. */
  pendingEmail: string | null;
};

/** The account's confirmation state. */
export async function confirmationStatus(
  db: Database,
  userId: string,
  now = clock.now(),
): Promise<ConfirmationStatus> {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw new ProblemError('unauthenticated', 'The account no longer exists.');
  const [change] = await db
    .select({ email: emailConfirmations.email })
    .from(emailConfirmations)
    .where(
      and(
        eq(emailConfirmations.userId, userId),
        eq(emailConfirmations.purpose, 'change'),
        isNull(emailConfirmations.usedAt),
        gt(emailConfirmations.expiresAt, now),
      ),
    )
    .orderBy(desc(emailConfirmations.createdAt))
    .limit(1);
  return {
    email: user.email,
    confirmed: user.emailConfirmedAt !== null,
    confirmedAt: user.emailConfirmedAt?.toISOString() ?? null,
    pendingEmail: change?.email ?? null,
  };
}

/**
 * A new link for the account's own address (`POST /api/me/email-confirmation`); 409 when it is
 * confirmed already, 429 past 3 links an hour. A link to an invited address carries the invitation.
 */
export async function resendConfirmation(
  db: Database,
  env: Pick<Env, 'JOBS_QUEUE' | 'CACHE'>,
  userId: string,
  now = clock.now(),
): Promise<{ email: string; expiresAt: Date }> {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw new ProblemError('unauthenticated', 'The account no longer exists.');
  if (user.emailConfirmedAt) throw new ProblemError('conflict', `${user.email} is confirmed already.`);
  await countLinks(db, userId, now);
  const [invited] = await db
    .select({ invitationId: emailConfirmations.invitationId })
    .from(emailConfirmations)
    .where(
      and(
        eq(emailConfirmations.userId, userId),
        eq(emailConfirmations.purpose, 'signup'),
        isNotNull(emailConfirmations.invitationId),
      ),
    )
    .orderBy(desc(emailConfirmations.createdAt))
    .limit(1);
  const link = await confirmationStatements(
    db,
    env,
    { userId, email: user.email, purpose: 'signup', invitationId: invited?.invitationId ?? null },
    now,
  );
  await db.batch([...link.statements]);
  await dispatchJobs(db, env, [link.jobId], now);
  return { email: user.email, expiresAt: new Date(now.getTime() + CONFIRMATION_TTL_MS) };
}

export type ConfirmationResult = {
  email: string;
  purpose: 'signup' | 'change';
  confirmedAt: string;
  /** The organisation joined by the invitation this signup carried, if any. */
  joinedOrganisationId: string | null;
};

/**
 * What a link would confirm, read only (`GET` of the mailed link changes nothing): the address and
 * purpose, or null when the link is unknown, used, expired or its account is gone.
 */
export async function peekConfirmation(
  db: Database,
  token: string,
  now = clock.now(),
): Promise<{ email: string; purpose: 'signup' | 'change'; expiresAt: Date } | null> {
  const [row] = await db
    .select({
      email: emailConfirmations.email,
      purpose: emailConfirmations.purpose,
      usedAt: emailConfirmations.usedAt,
      expiresAt: emailConfirmations.expiresAt,
      disabledAt: users.disabledAt,
    })
    .from(emailConfirmations)
    .innerJoin(users, eq(users.id, emailConfirmations.userId))
    .where(eq(emailConfirmations.tokenHash, await sha256Hex(token)))
    .limit(1);
  if (!row || row.usedAt || row.disabledAt || row.expiresAt.getTime() <= now.getTime()) return null;
  return { email: row.email, purpose: row.purpose, expiresAt: row.expiresAt };
}

const unusable = () =>
  new ProblemError(
    'not-found',
    'This confirmation link is unknown, was used already or has expired (links work once, for 24 hours). Sign in and ask for a new one: POST /api/me/email-confirmation.',
  );

/**
 * Opens a link: the address is confirmed (a `change` makes it the account's address), once. In one
 * batch: the link is claimed (`used_at`, only if unused and unexpired), and everything else is
 * conditional on that claim (a second request with the same token changes nothing), with the
 * audit entry written only if the account changed.
 */
export async function confirmEmail(
  db: Database,
  env: Pick<Env, 'CACHE' | 'CERT_SIGNING_KEY' | 'PUBLIC_BASE_URL'>,
  token: string,
  now = clock.now(),
): Promise<ConfirmationResult> {
  const [row] = await db
    .select()
    .from(emailConfirmations)
    .where(eq(emailConfirmations.tokenHash, await sha256Hex(token)))
    .limit(1);
  if (!row || row.usedAt || row.expiresAt.getTime() <= now.getTime()) throw unusable();
  const [user] = await db.select().from(users).where(eq(users.id, row.userId)).limit(1);
  if (!user || user.disabledAt) throw unusable();
  if (row.purpose === 'signup' && row.email !== user.email)
    throw new ProblemError(
      'conflict',
      'This link confirms an address the account no longer has; sign in and ask for a new link.',
    );

  const claimed = and(
    sql`exists (select 1 from ${emailConfirmations} where ${emailConfirmations.id} = ${row.id} and ${emailConfirmations.usedAt} = ${now.getTime()})`,
  );
  const [invitation] = row.invitationId
    ? await db
        .select()
        .from(organisationInvitations)
        .where(
          and(
            eq(organisationInvitations.id, row.invitationId),
            isNull(organisationInvitations.acceptedAt),
            gt(organisationInvitations.expiresAt, now),
            eq(organisationInvitations.email, user.email),
            // A suspended organisation takes no new members (its invitations wait unused).
            sql`not exists (select 1 from ${organisations} where ${organisations.id} = ${organisationInvitations.organisationId} and ${organisations.verification} = 'suspended')`,
          ),
        )
        .limit(1)
    : [];
  const joins = invitation && user.role === 'employer' && user.organisationId === null ? invitation : null;

  const d1 = db.$client;
  const claim = db
    .update(emailConfirmations)
    .set({ usedAt: now })
    .where(
      and(
        eq(emailConfirmations.id, row.id),
        isNull(emailConfirmations.usedAt),
        gt(emailConfirmations.expiresAt, now),
      ),
    );
  const joinStatements = joins
    ? [
        db
          .update(organisationInvitations)
          .set({ acceptedAt: now })
          .where(
            and(
              eq(organisationInvitations.id, joins.id),
              isNull(organisationInvitations.acceptedAt),
              claimed,
            ),
          ),
      ]
    : [];
  const accountUpdate = db
    .update(users)
    .set({
      emailConfirmedAt: now,
      ...(row.purpose === 'change' ? { email: row.email } : {}),
      ...(joins ? { organisationId: joins.organisationId } : {}),
      updatedAt: now,
    })
    .where(
      and(
        eq(users.id, user.id),
        eq(users.email, user.email),
        joins ? isNull(users.organisationId) : undefined,
        claimed,
      ),
    );
  const requestUpdate =
    row.purpose === 'change' && row.requestId
      ? [
          db
            .update(dsrRequests)
            .set({ state: 'completed', completedAt: now, updatedAt: now })
            .where(and(eq(dsrRequests.id, row.requestId), eq(dsrRequests.state, 'in_progress'), claimed)),
        ]
      : [];
  const audits = [
    auditInsert(db, {
      actorId: user.id,
      action: row.purpose === 'change' ? 'dsr.correction' : 'account.email_confirmed',
      targetType: 'user',
      targetId: user.id,
      details:
        row.purpose === 'change'
          ? { before: { email: user.email }, after: { email: row.email }, confirmed: true }
          : { email: row.email },
    }),
    ...(joins
      ? [
          auditInsert(db, {
            actorId: user.id,
            action: 'organisation.member_joined',
            targetType: 'organisation',
            targetId: joins.organisationId,
          }),
        ]
      : []),
  ];
  let results: D1Result[];
  try {
    results = await d1.batch([
      statement(d1, claim),
      ...requestUpdate.map((q) => statement(d1, q)),
      ...joinStatements.map((q) => statement(d1, q)),
      // Last before the audit entries, which are written only if it changed the account.
      statement(d1, accountUpdate),
      ...audits.map((q) => insertIfChanged(d1, q)),
    ]);
  } catch (err) {
    if (isUniqueViolation(err))
      throw new ProblemError(
        'conflict',
        `${row.email} has become another account's address; choose another.`,
      );
    throw err;
  }
  const account = results[results.length - audits.length - 1];
  if ((results[0]?.meta.changes ?? 0) === 0 || (account?.meta.changes ?? 0) === 0) throw unusable();
  // The holder identifier is a hash of the confirmed email: a first confirmation lets credentials
  // carry it (decision 0250), a confirmed change makes it follow the new address. Sign them again.
  if (user.credentialIdentitySalt)
    await resignHolderCredentials(
      db,
      env,
      user.id,
      row.purpose === 'change' ? 'holder identifier changed' : 'email address confirmed',
    );
  if (row.purpose === 'change') await afterCommit(db, env, { person: { id: user.id, change: 'shown' } });
  return {
    email: row.email,
    purpose: row.purpose,
    confirmedAt: now.toISOString(),
    joinedOrganisationId: joins?.organisationId ?? null,
  };
}
