/**
 * Children and their parents or lawful guardians (DPDP Act 2023 §9, DPDP Rules 2025 Rule 10).
 *
 * A person under 18 (src/domain/age.ts, on the service's clock) names a guardian's email at
 * signup. That creates a `guardian_requests` row (`pending`). The guardian, an adult already
 * known to the service (Rule 10(1)(a): their own account, whose recorded date of birth is at
 * least 18 years ago, signed in with their own credentials), sees the request and approves it
 * (declaring whether they are the parent or the lawful guardian) or refuses it. Until a request
 * is approved the child's account can do nothing beyond its signup (the session middleware
 * refuses every other route with `guardian-consent-required`).
 *
 * After approval the guardian acts for the child: grants or withdraws the consents a child may
 * give (AI evaluation only), and exercises the child's rights (access, correction, erasure,
 * grievance) through `/api/guardian/wards/{id}/…`. A guardian reaches only their own wards
 * (anything else is a 404). The link ends when the guardian withdraws, when a new guardian is
 * named, when the guardian's account is erased, or when the child turns 18 (the cron records it,
 * revokes the consents the guardian gave and tells the person to give their own).
 */
import { and, desc, eq, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';
import {
  consentEvents,
  type GuardianRequestState,
  guardianRequests,
  type NOTICE_KINDS,
  userNotices,
  users,
} from '../db/schema';
import { birthCutoff, isChild, majorityAt } from '../domain/age';
import { CURRENT_NOTICE_VERSION } from '../domain/consent-notices';
import type { SessionUser } from '../lib/principals';
import { ProblemError } from '../lib/problem';
import { auditInsert } from './audit';
import { requireConfirmedEmail } from './confirmed-email';

type RequestRow = typeof guardianRequests.$inferSelect;
type UserRow = typeof users.$inferSelect;

const notFound = () => new ProblemError('not-found', 'No such guardian request or ward.');

/**
 * An approval counts only from an account whose confirmed address is the one the child named
 * (src/services/email-confirmations.ts): a stranger who signs up with that address, or a guardian
 * whose address is no longer (or not yet) confirmed, stands for nobody. For the WHERE of a query
 * on `guardian_requests`.
 */
export const guardianConfirmed = () =>
  sql`exists (select 1 from users g where g.id = guardian_requests.guardian_id and g.email = guardian_requests.guardian_email and g.email_confirmed_at is not null)`;

/** The child's standing link: an approved request whose guardian still has an account at the confirmed address named. */
export async function guardianLink(db: Database, childId: string): Promise<RequestRow | null> {
  const [row] = await db
    .select()
    .from(guardianRequests)
    .where(
      and(
        eq(guardianRequests.childId, childId),
        eq(guardianRequests.state, 'approved'),
        isNotNull(guardianRequests.guardianId),
        guardianConfirmed(),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Whether the person is a child without a guardian's consent: then nothing beyond signup. */
export async function needsGuardianConsent(
  db: Database,
  user: Pick<SessionUser, 'id' | 'dateOfBirth'>,
  now: Date,
): Promise<boolean> {
  if (!isChild(user.dateOfBirth, now)) return false;
  return (await guardianLink(db, user.id)) === null;
}

/** The insert of a child's pending request, for the batch of their signup (or a new request). */
export function guardianRequestInsert(db: Database, childId: string, guardianEmail: string, now: Date) {
  return db.insert(guardianRequests).values({ childId, guardianEmail, state: 'pending', createdAt: now });
}

export type GuardianStatus = {
  child: boolean;
  dateOfBirth: string | null;
  /** When the person turns 18 (null without a date of birth). */
  adultFrom: string | null;
  /** `not_needed`: an adult (or no date of birth). `none`: a child with no request standing. */
  consent: 'not_needed' | 'pending' | 'approved' | 'refused' | 'none';
  request: {
    id: string;
    guardianEmail: string;
    state: GuardianRequestState;
    createdAt: string;
    decidedAt: string | null;
  } | null;
};

/** The person's own view: are they a child, and where is their guardian's consent. */
export async function guardianStatus(
  db: Database,
  user: Pick<SessionUser, 'id' | 'dateOfBirth'>,
  now: Date,
): Promise<GuardianStatus> {
  const child = isChild(user.dateOfBirth, now);
  const [latest] = await db
    .select()
    .from(guardianRequests)
    .where(eq(guardianRequests.childId, user.id))
    .orderBy(desc(guardianRequests.createdAt))
    .limit(1);
  const link = await guardianLink(db, user.id);
  const shown = link ?? latest ?? null;
  const consent: GuardianStatus['consent'] = !child
    ? 'not_needed'
    : link
      ? 'approved'
      : latest?.state === 'pending'
        ? 'pending'
        : latest?.state === 'refused'
          ? 'refused'
          : 'none';
  return {
    child,
    dateOfBirth: user.dateOfBirth,
    adultFrom: user.dateOfBirth ? majorityAt(user.dateOfBirth).toISOString() : null,
    consent,
    request: shown
      ? {
          id: shown.id,
          guardianEmail: shown.guardianEmail,
          state: shown.guardianId === null && shown.state === 'approved' ? 'ended' : shown.state,
          createdAt: shown.createdAt.toISOString(),
          decidedAt: shown.decidedAt?.toISOString() ?? null,
        }
      : null,
  };
}

/**
 * A child names a (new) guardian: any pending request ends, a new one is pending. Refused (409)
 * while a guardian's approval stands (that guardian withdraws first) and for an adult (no
 * guardian needed). The guardian's email must not be the child's own (422).
 */
export async function nameGuardian(
  db: Database,
  user: Pick<SessionUser, 'id' | 'email' | 'dateOfBirth'>,
  guardianEmail: string,
  now: Date,
): Promise<GuardianStatus> {
  if (!isChild(user.dateOfBirth, now))
    throw new ProblemError('conflict', 'Only a child (under 18) needs a guardian’s consent.');
  if (await guardianLink(db, user.id))
    throw new ProblemError('conflict', 'A guardian has already approved this account.');
  const email = guardianEmail.trim().toLowerCase();
  if (email === user.email) throw sameEmail();
  await db.batch([
    db
      .update(guardianRequests)
      .set({ state: 'ended', endedAt: now })
      .where(and(eq(guardianRequests.childId, user.id), eq(guardianRequests.state, 'pending'))),
    guardianRequestInsert(db, user.id, email, now),
    auditInsert(db, {
      actorId: user.id,
      action: 'guardian.requested',
      targetType: 'user',
      targetId: user.id,
    }),
  ]);
  return guardianStatus(db, user, now);
}

export const sameEmail = () =>
  new ProblemError('validation-failed', 'The request body does not match the schema.', {
    errors: [{ pointer: '#/guardianEmail', detail: 'The guardian must be someone other than the child' }],
  });

/** Refuses (403) a caller who is not an identifiable adult: no date of birth on record, or under 18. */
function requireAdult(guardian: Pick<SessionUser, 'dateOfBirth'>, now: Date) {
  if (!guardian.dateOfBirth || isChild(guardian.dateOfBirth, now))
    throw new ProblemError(
      'guardian-not-eligible',
      guardian.dateOfBirth
        ? 'A child cannot give consent for another child.'
        : 'Your account has no date of birth on record, so it cannot vouch for a child (Rule 10(1)(a)).',
    );
}

const requestView = (r: RequestRow, child: Pick<UserRow, 'name' | 'email' | 'dateOfBirth'>) => ({
  id: r.id,
  state: r.state,
  relationship: r.relationship,
  child: { name: child.name, email: child.email, dateOfBirth: child.dateOfBirth },
  createdAt: r.createdAt.toISOString(),
  decidedAt: r.decidedAt?.toISOString() ?? null,
});

/** Pending requests naming the caller's email (children still under 18), newest first. */
export async function pendingRequestsFor(
  db: Database,
  guardian: Pick<SessionUser, 'id' | 'email'>,
  now: Date,
) {
  // A request shows the child's name, email and date of birth: only to the confirmed owner of the address.
  await requireConfirmedEmail(db, guardian.id, 'see the guardian requests naming your address');
  const rows = await db
    .select({ r: guardianRequests, name: users.name, email: users.email, dateOfBirth: users.dateOfBirth })
    .from(guardianRequests)
    .innerJoin(users, eq(users.id, guardianRequests.childId))
    .where(and(eq(guardianRequests.guardianEmail, guardian.email), eq(guardianRequests.state, 'pending')))
    .orderBy(desc(guardianRequests.createdAt))
    .limit(100);
  return rows.filter((row) => isChild(row.dateOfBirth, now)).map((row) => requestView(row.r, row));
}

/**
 * The guardian's decision on a pending request naming their email. Another person's request,
 * or one already decided, is a 404 (existence is not disclosed); a caller who is not an adult on
 * record is a 403; a child who turned 18 meanwhile needs no consent (409). Audited; conditional
 * on the request still pending, so two decisions cannot both win.
 */
export async function decideRequest(
  db: Database,
  guardian: Pick<SessionUser, 'id' | 'email' | 'dateOfBirth'>,
  requestId: string,
  decision: { approve: true; relationship: 'parent' | 'lawful_guardian' } | { approve: false },
  now: Date,
) {
  // Only the confirmed owner of the address the child named acts for the child (Rule 10(1)(a):
  // "already known to the service" means this, not anyone who signed up with the address). Before
  // the lookup, so an unconfirmed account learns nothing about which requests exist.
  await requireConfirmedEmail(db, guardian.id, 'approve or refuse a guardian request');
  const [found] = await db
    .select({ r: guardianRequests, name: users.name, email: users.email, dateOfBirth: users.dateOfBirth })
    .from(guardianRequests)
    .innerJoin(users, eq(users.id, guardianRequests.childId))
    .where(
      and(
        eq(guardianRequests.id, requestId),
        eq(guardianRequests.guardianEmail, guardian.email),
        eq(guardianRequests.state, 'pending'),
      ),
    )
    .limit(1);
  if (!found || found.r.childId === guardian.id) throw notFound();
  requireAdult(guardian, now);
  if (!isChild(found.dateOfBirth, now))
    throw new ProblemError('conflict', 'This person is 18 or over: they give their own consent.');
  const state = decision.approve ? ('approved' as const) : ('refused' as const);
  const [[row]] = await db.batch([
    db
      .update(guardianRequests)
      .set({
        state,
        guardianId: guardian.id,
        relationship: decision.approve ? decision.relationship : null,
        decidedAt: now,
      })
      .where(and(eq(guardianRequests.id, requestId), eq(guardianRequests.state, 'pending')))
      .returning(),
    auditInsert(db, {
      actorId: guardian.id,
      action: `guardian.${decision.approve ? 'approved' : 'refused'}`,
      targetType: 'user',
      targetId: found.r.childId,
      details: { requestId },
    }),
  ]);
  if (!row) throw notFound();
  return requestView(row, found);
}

/**
 * The guardian's ward: a child whose approved request names this guardian. Anyone else (not a
 * child of theirs, a child who turned 18, an erased account) is a 404.
 */
export async function wardOf(db: Database, guardianId: string, childId: string, now: Date): Promise<UserRow> {
  const [row] = await db
    .select({ u: users })
    .from(guardianRequests)
    .innerJoin(users, eq(users.id, guardianRequests.childId))
    .where(
      and(
        eq(guardianRequests.childId, childId),
        eq(guardianRequests.guardianId, guardianId),
        eq(guardianRequests.state, 'approved'),
        guardianConfirmed(),
      ),
    )
    .limit(1);
  if (!row || row.u.disabledAt || !isChild(row.u.dateOfBirth, now)) throw notFound();
  return row.u;
}

/** The ward as a session user, for the rights services that act for a person. */
export const wardAsUser = (u: UserRow): SessionUser => ({
  id: u.id,
  email: u.email,
  name: u.name,
  role: u.role,
  organisationId: u.organisationId,
  dateOfBirth: u.dateOfBirth,
  sessionId: '',
  // Not signed in: the guardian acts, and their own session is what a recent sign-in is asked of.
  signedInAt: new Date(0),
});

export const wardView = (u: UserRow) => ({
  id: u.id,
  name: u.name,
  email: u.email,
  dateOfBirth: u.dateOfBirth,
  adultFrom: u.dateOfBirth ? majorityAt(u.dateOfBirth).toISOString() : null,
});

/** The guardian's wards (children under 18 whose request they approved). */
export async function listWards(db: Database, guardianId: string, now: Date) {
  const rows = await db
    .select({ u: users })
    .from(guardianRequests)
    .innerJoin(users, eq(users.id, guardianRequests.childId))
    .where(
      and(
        eq(guardianRequests.guardianId, guardianId),
        eq(guardianRequests.state, 'approved'),
        guardianConfirmed(),
      ),
    )
    .limit(100);
  return rows.filter((r) => !r.u.disabledAt && isChild(r.u.dateOfBirth, now)).map((r) => wardView(r.u));
}

/**
 * The guardian withdraws their consent altogether: the link ends, the consents they gave are
 * withdrawn in the same batch, and the child's account is back to signup-only until another
 * guardian approves.
 */
export async function withdrawGuardianship(db: Database, guardianId: string, childId: string, now: Date) {
  await wardOf(db, guardianId, childId, now);
  await db.batch([
    db
      .update(guardianRequests)
      .set({ state: 'ended', endedAt: now })
      .where(
        and(
          eq(guardianRequests.childId, childId),
          eq(guardianRequests.guardianId, guardianId),
          eq(guardianRequests.state, 'approved'),
        ),
      ),
    ...(await revokeGuardianGrants(db, childId)),
    auditInsert(db, {
      actorId: guardianId,
      action: 'guardian.withdrawn',
      targetType: 'user',
      targetId: childId,
    }),
  ]);
}

/** Revocations of every purpose whose latest event is a grant a guardian gave, unexecuted. */
async function revokeGuardianGrants(db: Database, childId: string) {
  const events = await db
    .select({
      purpose: consentEvents.purpose,
      action: consentEvents.action,
      grantedBy: consentEvents.grantedBy,
    })
    .from(consentEvents)
    .where(eq(consentEvents.userId, childId))
    .orderBy(desc(consentEvents.createdAt), desc(sql`${consentEvents}.rowid`));
  const latest = new Map<string, (typeof events)[number]>();
  for (const e of events) if (!latest.has(e.purpose)) latest.set(e.purpose, e);
  return [...latest.values()]
    .filter((e) => e.action === 'grant' && e.grantedBy !== null)
    .map((e) =>
      db.insert(consentEvents).values({
        userId: childId,
        purpose: e.purpose,
        action: 'revoke',
        noticeVersion: CURRENT_NOTICE_VERSION,
        // created_at from D1 itself, like every ledger event (one clock orders the ledger).
      }),
    );
}

/** Adults whose guardian link still stands, per cron run. */
const MAJORITY_BATCH = 50;

/**
 * Cron: children who turned 18. Their guardian's link ends, the consents the guardian gave are
 * withdrawn (a guardian's consent lapses at 18: `hasConsent` already stops counting it), and the
 * person gets a notice asking them to give their own consents. Idempotent: each person's change
 * is one batch, and an ended link is not found again.
 */
export async function endGuardianshipsAtMajority(db: Database, now = new Date()): Promise<number> {
  const rows = await db
    .select({ id: guardianRequests.id, childId: guardianRequests.childId })
    .from(guardianRequests)
    .innerJoin(users, eq(users.id, guardianRequests.childId))
    .where(
      and(
        or(eq(guardianRequests.state, 'approved'), eq(guardianRequests.state, 'pending')),
        lte(users.dateOfBirth, birthCutoff(now)),
      ),
    )
    .limit(MAJORITY_BATCH);
  for (const row of rows) {
    await db.batch([
      db
        .update(guardianRequests)
        .set({ state: 'ended', endedAt: now })
        .where(
          and(eq(guardianRequests.id, row.id), inArray(guardianRequests.state, ['approved', 'pending'])),
        ),
      ...(await revokeGuardianGrants(db, row.childId)),
      db
        .insert(userNotices)
        .values({
          userId: row.childId,
          kind: 'majority',
          ref: row.id,
          title: 'You are 18: your consents are now yours to give',
          body:
            'Your parent or guardian no longer acts for you. The consents they gave for you have ended; ' +
            'review and give your own at POST /api/consent (GET /api/me/consents shows them).',
          createdAt: now,
        })
        .onConflictDoNothing(),
      auditInsert(db, {
        actorId: null,
        action: 'guardian.majority',
        targetType: 'user',
        targetId: row.childId,
      }),
    ]);
  }
  return rows.length;
}

/**
 * Where the copy of a ward's notice given to their guardian keeps the child: its `ref` starts with
 * this, so the child's erasure finds and deletes the copies (they name the child).
 */
export const wardNoticePrefix = (childId: string) => `ward:${childId}:`;

/** A notice about to be written to a person (`user_notices`). */
export type NoticeDraft = {
  userId: string;
  kind: (typeof NOTICE_KINDS)[number];
  ref: string;
  title: string;
  body: string;
};

/** Children looked up per statement (D1 binds at most 100 parameters). */
const COPY_LOOKUP_CHUNK = 90;

/**
 * The copies owed to guardians of the notices in `drafts` that are addressed to children: for
 * each person still under 18 at `now` whose guardian's approval stands (and whose guardian's
 * account is not disabled), the same notice, addressed to the guardian and naming the child.
 * The Data Principal of a child includes their parent or lawful guardian (DPDP §2(j)), who
 * exercises the child's rights, so a breach intimation (Rule 7(1)) or a notice of erasure
 * (Rule 8(2)) has to reach them. The child keeps their own notice. `ref` is the child's
 * (`wardNoticePrefix`) followed by the original's, so a re-run writes nothing twice.
 */
export async function guardianCopies(db: Database, drafts: NoticeDraft[], now: Date): Promise<NoticeDraft[]> {
  const ids = [...new Set(drafts.map((d) => d.userId))];
  const child = alias(users, 'child');
  const guardian = alias(users, 'guardian');
  const links: { childId: string; guardianId: string; name: string; dateOfBirth: string | null }[] = [];
  for (let i = 0; i < ids.length; i += COPY_LOOKUP_CHUNK)
    links.push(
      ...(await db
        .select({
          childId: guardianRequests.childId,
          guardianId: sql<string>`${guardianRequests.guardianId}`,
          name: child.name,
          dateOfBirth: child.dateOfBirth,
        })
        .from(guardianRequests)
        .innerJoin(child, eq(child.id, guardianRequests.childId))
        .innerJoin(guardian, eq(guardian.id, guardianRequests.guardianId))
        .where(
          and(
            inArray(guardianRequests.childId, ids.slice(i, i + COPY_LOOKUP_CHUNK)),
            eq(guardianRequests.state, 'approved'),
            isNull(guardian.disabledAt),
            // Copies go only to a guardian whose approval counts (their confirmed address, the one named).
            eq(guardian.email, guardianRequests.guardianEmail),
            isNotNull(guardian.emailConfirmedAt),
          ),
        )),
    );
  const byChild = new Map(links.filter((l) => isChild(l.dateOfBirth, now)).map((l) => [l.childId, l]));
  return drafts.flatMap((d) => {
    const link = byChild.get(d.userId);
    if (!link) return [];
    return [
      {
        userId: link.guardianId,
        kind: d.kind,
        ref: `${wardNoticePrefix(link.childId)}${d.ref}`,
        title: `For your ward ${link.name}: ${d.title}`,
        body:
          `You receive this copy as the parent or lawful guardian of ${link.name}, who received the notice ` +
          'below; you exercise their rights for them (all their notices are in their data export, ' +
          `GET /api/guardian/wards/${link.childId}/access). ` +
          d.body,
      },
    ];
  });
}
