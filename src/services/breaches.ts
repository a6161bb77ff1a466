/**
 * Personal data breaches (DPDP Act 2023 §8(6), Rules 2025 Rule 7). An admin records a breach;
 * in the same D1 batch every affected person gets an in-app notice (`GET /api/me/notices`) and
 * the audit log an entry. The Board's intimation is due at once (Rule 7(2)(a)) and the detailed
 * report 72 hours after the breach was found (Rule 7(2)(b)); the admin queue shows what is
 * overdue, and an admin marks each as sent. Each notice is also emailed through the outbox (an
 * `email` job per person, src/services/mail.ts). An affected child's guardian gets a copy naming
 * the child, by email too (`guardianCopies`, src/services/guardians.ts).
 */
import { and, asc, desc, eq, gt, gte, inArray, isNull, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { breaches, submissions, userNotices, users } from '../db/schema';
import { type BreachSelector, canonicalSelector, selectorProblem } from '../domain/breach-selector';
import { ProblemError } from '../lib/problem';
import { auditInsert } from './audit';
import { guardianCopies } from './guardians';
import { dispatchJobs, jobInsert } from './jobs/jobs';

/** The outbox job kind: one email per notice (src/services/jobs/kinds.ts, src/services/mail.ts). */
export const EMAIL_JOB = 'email';

export const REPORT_WITHIN_MS = 72 * 3600_000;
/** user_notices rows per insert: 6 bound columns each, within D1's 100 parameters. */
const NOTICE_CHUNK = 16;
/** The same with `created_at` bound too (7 columns, and D1 binds every column of a multi-row insert). */
const PAGE_NOTICE_CHUNK = 10;

export type BreachInput = {
  description: string;
  occurredAt?: string | undefined;
  foundAt: string;
  categories: string[];
  measures: string;
  /** The consequences likely to arise for the people affected (Rule 7(1)(b)), told in each notice. */
  consequences: string;
  /** Either the accounts by id (at most 500)… */
  affectedUserIds?: string[] | undefined;
  /** …or a selector, notified in pages by `breach_notification` jobs, for any number of people. */
  affected?: { query: BreachSelector } | undefined;
};

/** The job kind that notifies one page of a selector's people and chains the next page. */
export const BREACH_NOTIFICATION_JOB = 'breach_notification';
export type BreachNotificationPayload = { breachId: string; after: string | null };
/**
 * People per page: one batch of 10 notice inserts, 100 email jobs and 3 statements, plus at most
 * as many again for the copies owed to the guardians of children among them.
 */
export const BREACH_PAGE = 100;

type Row = typeof breaches.$inferSelect;

export const breachView = (r: Row, now = new Date()) => ({
  id: r.id,
  description: r.description,
  occurredAt: r.occurredAt?.toISOString() ?? null,
  foundAt: r.foundAt.toISOString(),
  categories: r.categories,
  measures: r.measures,
  consequences: r.consequences,
  affectedCount: r.affectedCount,
  affectedQuery: (r.affectedQuery as BreachSelector | null) ?? null,
  notification: r.notification,
  boardIntimation: {
    dueAt: r.boardIntimationDueAt.toISOString(),
    doneAt: r.boardIntimatedAt?.toISOString() ?? null,
    overdue: !r.boardIntimatedAt && r.boardIntimationDueAt <= now,
  },
  boardReport: {
    dueAt: r.boardReportDueAt.toISOString(),
    doneAt: r.boardReportedAt?.toISOString() ?? null,
    overdue: !r.boardReportedAt && r.boardReportDueAt <= now,
  },
  createdAt: r.createdAt.toISOString(),
});

export async function recordBreach(
  db: Database,
  env: Pick<Env, 'JOBS_QUEUE'>,
  adminId: string,
  input: BreachInput,
  now = new Date(),
) {
  const times = timeProblems(input, now);
  if (times.length > 0)
    throw new ProblemError('validation-failed', 'The request body does not match the schema.', {
      errors: times,
    });
  if (input.affected) return recordSelectedBreach(db, env, adminId, input, input.affected.query, now);
  const ids = [...new Set(input.affectedUserIds ?? [])];
  // Checked in chunks: D1 binds at most 100 parameters per statement.
  const found: { id: string }[] = [];
  for (let i = 0; i < ids.length; i += 90)
    found.push(
      ...(await db
        .select({ id: users.id })
        .from(users)
        .where(inArray(users.id, ids.slice(i, i + 90)))),
    );
  if (found.length !== ids.length)
    throw new ProblemError('validation-failed', 'The request body does not match the schema.', {
      errors: [{ pointer: '#/affectedUserIds', detail: 'Every affected person must be an existing account' }],
    });
  const foundAt = new Date(input.foundAt);
  const id = crypto.randomUUID();
  const { title, body } = noticeText(input);
  const drafts = ids.map((userId) => ({ userId, kind: 'breach' as const, ref: id, title, body }));
  // Each affected child's guardian gets a copy naming the child (src/services/guardians.ts).
  const people = [...drafts, ...(await guardianCopies(db, drafts, now))].map((d) => ({
    ...d,
    noticeId: crypto.randomUUID(),
    jobId: crypto.randomUUID(),
  }));
  const notices = [];
  for (let i = 0; i < people.length; i += NOTICE_CHUNK)
    notices.push(
      db.insert(userNotices).values(
        people.slice(i, i + NOTICE_CHUNK).map((p) => ({
          id: p.noticeId,
          userId: p.userId,
          kind: p.kind,
          ref: p.ref,
          title: p.title,
          body: p.body,
        })),
      ),
    );
  // The outbox: one `email` job per person, in the same transaction as their notice.
  const outbox = people.map((p) =>
    jobInsert(
      db,
      {
        id: p.jobId,
        kind: EMAIL_JOB,
        payload: { noticeId: p.noticeId },
        ref: p.noticeId,
        subjectId: p.userId,
      },
      now,
    ),
  );
  const [[row]] = await db.batch([
    db
      .insert(breaches)
      .values({
        id,
        description: input.description,
        occurredAt: input.occurredAt ? new Date(input.occurredAt) : null,
        foundAt,
        categories: input.categories,
        measures: input.measures,
        consequences: input.consequences,
        affectedCount: ids.length,
        recordedBy: adminId,
        boardIntimationDueAt: now,
        boardReportDueAt: new Date(foundAt.getTime() + REPORT_WITHIN_MS),
        createdAt: now,
      })
      .returning(),
    auditInsert(db, {
      actorId: adminId,
      action: 'breach.recorded',
      targetType: 'breach',
      targetId: id,
      details: { affected: ids.length, categories: input.categories },
    }),
    ...notices,
    ...outbox,
  ]);
  await dispatchJobs(
    db,
    env,
    people.map((p) => p.jobId),
    now,
  );
  return breachView(row!, now);
}

const NOTICE_TITLE = 'A personal data breach affected your data';

/** How far ahead of the server's clock a time may be (the recording admin's clock may run fast). */
const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * The breach's times must be possible: found and occurred not in the future (a future `foundAt`
 * would push the Board's 72-hour report deadline out, Rule 7(2)(b), and tell people of a discovery
 * that has not happened), and not occurred after it was found.
 */
function timeProblems(input: Pick<BreachInput, 'foundAt' | 'occurredAt'>, now: Date) {
  const errors: { pointer: string; detail: string }[] = [];
  const latest = now.getTime() + CLOCK_SKEW_MS;
  const foundAt = Date.parse(input.foundAt);
  const occurredAt = input.occurredAt ? Date.parse(input.occurredAt) : null;
  if (foundAt > latest)
    errors.push({ pointer: '#/foundAt', detail: 'When the breach was found cannot be in the future' });
  if (occurredAt !== null && occurredAt > latest)
    errors.push({ pointer: '#/occurredAt', detail: 'When the breach happened cannot be in the future' });
  else if (occurredAt !== null && occurredAt > foundAt)
    errors.push({
      pointer: '#/occurredAt',
      detail: 'A breach cannot have happened after it was found (foundAt)',
    });
  return errors;
}

/**
 * The notice every affected person gets (in-app and by email): what happened and when (Rule
 * 7(1)(a): its nature and the timing of its occurrence, when known), the data concerned, the
 * consequences likely for them (Rule 7(1)(b); left out for a breach recorded before it was asked,
 * whose `consequences` is ''), what we did, what they can do, and whom to ask.
 */
function noticeText(
  b: Pick<BreachInput, 'description' | 'foundAt' | 'categories' | 'measures'> & {
    occurredAt?: string | Date | null | undefined;
    consequences?: string | null | undefined;
  },
) {
  const occurred = b.occurredAt ? ` It happened on ${new Date(b.occurredAt).toISOString()}.` : '';
  const consequences = b.consequences?.trim();
  const mayMean = consequences ? ` What it may mean for you: ${consequences}` : '';
  const body =
    `On ${new Date(b.foundAt).toISOString()} we found a personal data breach: ${b.description}${occurred} The data concerned: ` +
    `${b.categories.join(', ')}.${mayMean} What we have done: ${b.measures} What you can do: change your password ` +
    'and watch for messages that pretend to be from us. Our Data Protection Officer answers questions (GET /api/dpo).';
  return { title: NOTICE_TITLE, body };
}

/**
 * A breach whose affected people are chosen by a selector. The request writes the breach (with
 * the selector, `notification: notifying`), its audit entry and the first page's job in one batch
 * (so a breach never exists without the work that notifies its people), then enqueues the job.
 * The people are counted as they are notified (`affectedCount`).
 */
async function recordSelectedBreach(
  db: Database,
  env: Pick<Env, 'JOBS_QUEUE'>,
  adminId: string,
  input: BreachInput,
  selector: BreachSelector,
  now: Date,
) {
  const problem = selectorProblem(selector);
  if (problem)
    throw new ProblemError('validation-failed', 'The request body does not match the schema.', {
      errors: [problem],
    });
  const id = crypto.randomUUID();
  const foundAt = new Date(input.foundAt);
  const query = canonicalSelector(selector);
  const jobId = crypto.randomUUID();
  const [[row]] = await db.batch([
    db
      .insert(breaches)
      .values({
        id,
        description: input.description,
        occurredAt: input.occurredAt ? new Date(input.occurredAt) : null,
        foundAt,
        categories: input.categories,
        measures: input.measures,
        consequences: input.consequences,
        affectedCount: 0,
        affectedQuery: query,
        notification: 'notifying',
        recordedBy: adminId,
        boardIntimationDueAt: now,
        boardReportDueAt: new Date(foundAt.getTime() + REPORT_WITHIN_MS),
        createdAt: now,
      })
      .returning(),
    auditInsert(db, {
      actorId: adminId,
      action: 'breach.recorded',
      targetType: 'breach',
      targetId: id,
      details: { query, categories: input.categories },
    }),
    pageJob(db, { breachId: id, after: null }, jobId, now),
  ]);
  await dispatchJobs(db, env, [jobId], now);
  return breachView(row!, now);
}

/** The job of one page (unique per breach and position, so writing it twice is a no-op). */
function pageJob(db: Database, payload: BreachNotificationPayload, id: string, now: Date) {
  return jobInsert(
    db,
    { id, kind: BREACH_NOTIFICATION_JOB, payload, ref: `${payload.breachId}:${payload.after ?? ''}` },
    now,
  ).onConflictDoNothing();
}

/** The fixed SQL condition of each criterion: nothing else reaches the query. */
function selectorWhere(s: BreachSelector, recordedAt: Date): SQL {
  return and(
    isNull(users.disabledAt),
    lte(users.createdAt, recordedAt),
    s.role ? eq(users.role, s.role) : undefined,
    s.organisationId ? eq(users.organisationId, s.organisationId) : undefined,
    s.briefId
      ? sql`exists (select 1 from ${submissions} where ${submissions.candidateId} = ${users.id} and ${submissions.briefId} = ${s.briefId})`
      : undefined,
    s.signedUpBefore ? lt(users.createdAt, new Date(s.signedUpBefore)) : undefined,
    s.signedUpAfter ? gte(users.createdAt, new Date(s.signedUpAfter)) : undefined,
  )!;
}

/** A notice's id for one person and breach: the same on a re-run, so nothing is written twice. */
const pageNoticeId = (breachId: string, userId: string) => `breach-${breachId}-${userId}`;

/**
 * One page of a selector's people (the `breach_notification` job): the next `BREACH_PAGE`
 * accounts after `after` (by id), each with a notice and an email job, the breach's count, and
 * the next page's job when the page was full, all in one batch. A re-run (a redelivery after a
 * crash) writes nothing twice: notices, email jobs and the next job are unique and inserted with
 * ON CONFLICT DO NOTHING, and the count is recomputed from the notices.
 */
export async function notifyBreachPage(
  db: Database,
  env: Pick<Env, 'JOBS_QUEUE'>,
  payload: BreachNotificationPayload,
  now: Date,
): Promise<{ notified: number; next: string | null }> {
  const [breach] = await db.select().from(breaches).where(eq(breaches.id, payload.breachId)).limit(1);
  if (!breach?.affectedQuery) return { notified: 0, next: null };
  const selector = breach.affectedQuery as BreachSelector;
  const page = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(selectorWhere(selector, breach.createdAt), payload.after ? gt(users.id, payload.after) : undefined),
    )
    .orderBy(asc(users.id))
    .limit(BREACH_PAGE);
  const { title, body } = noticeText({ ...breach, foundAt: breach.foundAt.toISOString() });
  const drafts = page.map((p) => ({ userId: p.id, kind: 'breach' as const, ref: breach.id, title, body }));
  // Each affected child's guardian gets a copy naming the child, with an id of its own (no duplicates on a re-run).
  const people = [...drafts, ...(await guardianCopies(db, drafts, now))].map((d) => ({
    ...d,
    noticeId:
      d.ref === breach.id
        ? pageNoticeId(breach.id, d.userId)
        : `${pageNoticeId(breach.id, d.userId)}-${d.ref}`,
    jobId: crypto.randomUUID(),
  }));
  const full = page.length === BREACH_PAGE;
  const next = full ? page[page.length - 1]!.id : null;
  const nextJobId = crypto.randomUUID();
  const notices = [];
  for (let i = 0; i < people.length; i += PAGE_NOTICE_CHUNK)
    notices.push(
      db
        .insert(userNotices)
        .values(
          people.slice(i, i + PAGE_NOTICE_CHUNK).map((p) => ({
            id: p.noticeId,
            userId: p.userId,
            kind: p.kind,
            ref: p.ref,
            title: p.title,
            body: p.body,
            createdAt: now,
          })),
        )
        .onConflictDoNothing(),
    );
  const outbox = people.map((p) =>
    jobInsert(
      db,
      {
        id: p.jobId,
        kind: EMAIL_JOB,
        payload: { noticeId: p.noticeId },
        ref: p.noticeId,
        subjectId: p.userId,
      },
      now,
    ).onConflictDoNothing(),
  );
  const [first, ...rest] = [
    ...notices,
    ...outbox,
    ...(next ? [pageJob(db, { breachId: breach.id, after: next }, nextJobId, now)] : []),
    // Last: the count includes this page's notices.
    db
      .update(breaches)
      .set({
        affectedCount: sql`(select count(*) from ${userNotices} where ${userNotices.kind} = 'breach' and ${userNotices.ref} = ${breach.id})`,
        notification: full ? 'notifying' : 'done',
      })
      .where(eq(breaches.id, breach.id)),
  ];
  await db.batch([first!, ...rest]);
  await dispatchJobs(db, env, [...people.map((p) => p.jobId), ...(next ? [nextJobId] : [])], now);
  return { notified: drafts.length, next };
}

export async function listBreaches(db: Database, overdueOnly: boolean, now = new Date()) {
  const overdue = or(
    and(isNull(breaches.boardIntimatedAt), lte(breaches.boardIntimationDueAt, now)),
    and(isNull(breaches.boardReportedAt), lte(breaches.boardReportDueAt, now)),
  );
  const rows = await db
    .select()
    .from(breaches)
    .where(overdueOnly ? overdue : undefined)
    .orderBy(desc(breaches.createdAt), desc(sql`${breaches}.rowid`))
    .limit(100);
  return rows.map((r) => breachView(r, now));
}

/** Marks the Board's intimation or detailed report as sent (once), with an audit entry. */
export async function markBoardStep(
  db: Database,
  adminId: string,
  id: string,
  step: 'intimation' | 'report',
  now = new Date(),
) {
  const column = step === 'intimation' ? breaches.boardIntimatedAt : breaches.boardReportedAt;
  const set = step === 'intimation' ? { boardIntimatedAt: now } : { boardReportedAt: now };
  // Refusals write nothing: check first, then the update and its audit entry together.
  const [current] = await db.select().from(breaches).where(eq(breaches.id, id)).limit(1);
  if (!current) throw new ProblemError('not-found', 'No breach with this id.');
  const done = step === 'intimation' ? current.boardIntimatedAt : current.boardReportedAt;
  const conflict = () =>
    new ProblemError('conflict', `The Board ${step} of this breach is already recorded.`);
  if (done) throw conflict();
  const [[row]] = await db.batch([
    db
      .update(breaches)
      .set(set)
      .where(and(eq(breaches.id, id), isNull(column)))
      .returning(),
    auditInsert(db, { actorId: adminId, action: `breach.board_${step}`, targetType: 'breach', targetId: id }),
  ]);
  // Two admins at once: the second update matched nothing (its audit entry records the attempt).
  if (!row) throw conflict();
  return breachView(row, now);
}
