/**
 * Personal data breaches (DPDP Act 2023 §8(6), Rules 2025 Rule 7). An admin records a breach;
 * in the same D1 batch every affected person gets an in-app notice (`GET /api/me/notices`) and
 * the audit log an entry. The Board's intimation is due at once (Rule 7(2)(a)) and the detailed
 * report 72 hours after the breach was found (Rule 7(2)(b)); the admin queue shows what is
 * overdue, and an admin marks each as sent. Each notice is also emailed through the outbox (an
 * `email` job per person, src/services/mail.ts).
 */
import { and, desc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { type Database, getDb } from '../db/client';
import { breaches, userNotices, users } from '../db/schema';
import { ProblemError } from '../lib/problem';
import { auditInsert } from './audit';
import { dispatchJobs, jobInsert } from './jobs/jobs';

/** The outbox job kind: one email per notice (src/services/jobs/kinds.ts, src/services/mail.ts). */
export const EMAIL_JOB = 'email';

export const REPORT_WITHIN_MS = 72 * 3600_000;
/** user_notices rows per insert: 6 bound columns each, within D1's 100 parameters. */
const NOTICE_CHUNK = 16;

export type BreachInput = {
  description: string;
  occurredAt?: string | undefined;
  foundAt: string;
  categories: string[];
  measures: string;
  affectedUserIds: string[];
};

type Row = typeof breaches.$inferSelect;

export const breachView = (r: Row, now = new Date()) => ({
  id: r.id,
  description: r.description,
  occurredAt: r.occurredAt?.toISOString() ?? null,
  foundAt: r.foundAt.toISOString(),
  categories: r.categories,
  measures: r.measures,
  affectedCount: r.affectedCount,
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
  env: Pick<Env, 'DB' | 'ERASURE_QUEUE'>,
  adminId: string,
  input: BreachInput,
  now = new Date(),
) {
  const db = getDb(env.DB);
  const ids = [...new Set(input.affectedUserIds)];
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
  const title = 'A personal data breach affected your data';
  const body =
    `On ${foundAt.toISOString()} we found a personal data breach: ${input.description} The data concerned: ` +
    `${input.categories.join(', ')}. What we have done: ${input.measures} What you can do: change your password ` +
    'and watch for messages that pretend to be from us. Our Data Protection Officer answers questions (GET /api/dpo).';
  const people = ids.map((userId) => ({ userId, noticeId: crypto.randomUUID(), jobId: crypto.randomUUID() }));
  const notices = [];
  for (let i = 0; i < people.length; i += NOTICE_CHUNK)
    notices.push(
      db.insert(userNotices).values(
        people.slice(i, i + NOTICE_CHUNK).map((p) => ({
          id: p.noticeId,
          userId: p.userId,
          kind: 'breach' as const,
          ref: id,
          title,
          body,
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
    env,
    people.map((p) => p.jobId),
    now,
  );
  return breachView(row!, now);
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
