/**
 * The right to erasure (DPDP Act 2023 §12(3)): `DELETE /api/dsr/erasure` records the request
 * with an `erasure` job (src/services/jobs/) and queues it; the job runs `runErasureCascade`,
 * which deletes every row about the person in every table and leaves only the
 * `erasure_receipts` row (request id, state, counts, times: no personal data) and the done job
 * (kind, request id, times). A lost message or a crash mid-cascade is recovered by the sweeper
 * (docs/reliability.md).
 *
 * **Resumable and idempotent.** The cascade is a fixed list of steps, run in dependency order
 * (children before parents, so no foreign-key cascade ever fires on someone else's rows). Each
 * step deletes (or re-links) in chunks, and every chunk is one D1 batch, i.e. one transaction,
 * of two statements: the change, and an update adding SQLite's `changes()` (the rows that
 * change touched) to the step's entry in `erasure_receipts.deleted_counts`. So the counts are
 * exact whatever fails and wherever: a chunk is counted if and only if it happened. A retried or
 * redelivered message starts again at the last step that has an entry (earlier ones are done;
 * that one may be part-done and its predicate simply finds what is left), and a message whose
 * receipt is `completed` is acknowledged without doing anything. Two deliveries running at once
 * are safe for the same reason: each row is deleted, and counted, by exactly one chunk.
 *
 * **Employers.** Briefs, the certificates an employer issued and the ratings they gave are the
 * other people's records too (a candidate's certificate cascades from its brief). They are
 * re-linked to a per-request tombstone account holding no personal data ("Former employer",
 * `erased-<requestId>@invalid`, unusable credentials, disabled), so candidates keep verifiable
 * certificates. Briefs nobody worked on are deleted instead; kept briefs are closed. See
 * docs/data-rights.md.
 */

import {
  and,
  eq,
  exists,
  inArray,
  isNotNull,
  isNull,
  lt,
  ne,
  notExists,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { type Database, getDb } from '../../db/client';
import {
  apiKeys,
  auditLog,
  briefs,
  type ConsentPurpose,
  certificates,
  consentEvents,
  dpoRecords,
  dsrRequests,
  ERASED_GUARDIAN,
  emailConfirmations,
  employerRatings,
  erasureReceipts,
  evaluations,
  fingerprints,
  guardianRequests,
  jobs,
  milestones,
  organisationInvitations,
  rubrics,
  sessions,
  submissions,
  userNotices,
  users,
} from '../../db/schema';
import { CURRENT_NOTICE_VERSION } from '../../domain/consent-notices';
import { pseudonym, pseudonymKey } from '../../domain/pseudonym';
import { randomToken } from '../../domain/secrets';
import { afterCommit } from '../after-commit';
import { auditInsert } from '../audit';
import { FORMER_EMPLOYER } from '../certificates';
import {
  type CorpusEnv,
  corpusFor,
  deleteFingerprintStatements,
  forgetCandidate,
  ShardedCorpus,
} from '../corpus';
import { wardNoticePrefix } from '../guardians';
import { resignCredentialsRatedBy } from '../issuance';
import { jobFor, jobInsert } from '../jobs/jobs';
import { oauthGrantsErasureStep } from '../portability/erasure-step';
import { endAllSessionsStatement } from '../sessions';
import { recordErasureEvents, releaseErasureEvents } from '../webhooks/events';
import { deleteExports } from './export-job';
import { dueDate, requestInsert } from './requests';

/** Rows per chunk: each chunk is one transaction, short enough never to hold D1 for long. */
const CHUNK = 500;
/** Certificates go by explicit id lists (their numbers are needed for KV), within D1's 100 bound parameters. */
const CERTIFICATE_CHUNK = 50;
/** Submissions whose fingerprints go per chunk (their statement binds each id twice: 100 parameters). */
const FINGERPRINT_SUBMISSION_CHUNK = 50;

export type ErasureReceiptView = {
  requestId: string;
  state: 'in_progress' | 'completed';
  deletedCounts: Record<string, number>;
  requestedAt: string;
  completedAt: string | null;
};

type ReceiptRow = typeof erasureReceipts.$inferSelect;

export const toReceiptView = (r: ReceiptRow): ErasureReceiptView => ({
  requestId: r.requestId,
  state: r.state,
  deletedCounts: r.deletedCounts,
  requestedAt: r.requestedAt.toISOString(),
  completedAt: r.completedAt?.toISOString() ?? null,
});

export async function erasureReceipt(db: Database, requestId: string): Promise<ErasureReceiptView | null> {
  const [row] = await db
    .select()
    .from(erasureReceipts)
    .where(eq(erasureReceipts.requestId, requestId))
    .limit(1);
  return row ? toReceiptView(row) : null;
}

/**
 * Records the request (receipt, `erasure` request with its due date, audit entry, the `erasure`
 * job), disables the account and ends all its sessions, all in one D1 batch (a transactional
 * outbox: the job exists exactly when the request does). Then drops the cached public views of
 * the person (verification payloads, leaderboards), so from this answer on nothing public shows
 * them even before the cascade runs, and hands the job to the queue. A failed send is not the
 * person's problem: the job is durable and the sweeper enqueues it (docs/reliability.md).
 */
export async function requestErasure(
  env: Pick<Env, 'DB' | 'ERASURE_QUEUE' | 'CACHE'>,
  userId: string,
  now = new Date(),
  /** Who asked when not the person: their guardian (src/services/guardians.ts). */
  actorId: string = userId,
): Promise<ErasureReceiptView> {
  const db = getDb(env.DB);
  const requestId = crypto.randomUUID();
  const jobId = crypto.randomUUID();
  const [[receipt]] = await db.batch([
    db
      .insert(erasureReceipts)
      .values({ requestId, state: 'in_progress', deletedCounts: {}, requestedAt: now })
      .returning(),
    requestInsert(db, { id: requestId, userId, kind: 'erasure', state: 'in_progress' }, now),
    auditInsert(db, {
      actorId,
      action: 'dsr.erasure',
      targetType: 'dsr_request',
      targetId: requestId,
    }),
    jobInsert(
      db,
      {
        id: jobId,
        kind: ERASURE_JOB,
        payload: { requestId, userId } satisfies ErasurePayload,
        ref: requestId,
        subjectId: userId,
        dueAt: dueDate('erasure', now),
      },
      now,
    ),
    db.update(users).set({ disabledAt: now, updatedAt: now }).where(eq(users.id, userId)),
    endAllSessionsStatement(db, userId),
  ]);
  await afterCommit(env, { person: { id: userId, change: 'leaving' }, jobs: [jobId] }, { now });
  return toReceiptView(receipt!);
}

/** The payload of an `erasure` job; only `requestId` is kept once it is done. */
export type ErasurePayload = { requestId: string; userId: string };

export const ERASURE_JOB = 'erasure';

/**
 * The job of an erasure request that has none: a message from before jobs existed, or a
 * request recorded before. Finds or creates it (one per request).
 */
export async function ensureErasureJob(
  db: Database,
  payload: ErasurePayload,
  now = new Date(),
  due = dueDate('erasure', now),
): Promise<string> {
  const existing = await jobFor(db, ERASURE_JOB, payload.requestId);
  if (existing) return existing.id;
  await jobInsert(
    db,
    {
      id: crypto.randomUUID(),
      kind: ERASURE_JOB,
      payload,
      ref: payload.requestId,
      subjectId: payload.userId,
      dueAt: due,
    },
    now,
  ).onConflictDoNothing();
  return (await jobFor(db, ERASURE_JOB, payload.requestId))!.id;
}

/**
 * Erasure requests recorded without a job (before jobs existed, with a message since lost):
 * the sweeper gives each one a job, so it is swept like any other. Returns how many.
 */
export async function backfillErasureJobs(db: Database, now = new Date()): Promise<number> {
  const orphans = await db
    .select({ requestId: dsrRequests.id, userId: dsrRequests.userId, dueAt: dsrRequests.dueAt })
    .from(dsrRequests)
    .where(
      and(
        eq(dsrRequests.kind, 'erasure'),
        eq(dsrRequests.state, 'in_progress'),
        notExists(
          db
            .select({ one: sql`1` })
            .from(jobs)
            .where(and(eq(jobs.kind, ERASURE_JOB), eq(jobs.ref, dsrRequests.id))),
        ),
      ),
    )
    .limit(100);
  for (const o of orphans)
    await ensureErasureJob(db, { requestId: o.requestId, userId: o.userId }, now, o.dueAt);
  return orphans.length;
}

type Person = {
  userId: string;
  email: string | null;
  requestId: string;
  /**
   * Addresses the person had before correcting their email (from their `dsr.correction` audit
   * entries), unless another account has taken one since: rows naming those are theirs too.
   */
  formerEmails: string[];
};

/** Every address of the person: the current one and the former ones. */
const emailsOf = (p: Person): string[] => [...(p.email ? [p.email] : []), ...p.formerEmails];

type StepContext = {
  db: Database;
  env: Pick<Env, 'DB' | 'CACHE' | 'CERT_SIGNING_KEY' | 'PUBLIC_BASE_URL' | 'EXPORTS'> & CorpusEnv;
  person: Person;
  /** The tombstone employer, created on first use. */
  tombstone: () => Promise<string>;
  /**
   * Runs one chunk: `change` and the update adding the rows it touched to the step's count, in
   * one batch. With no change, only records that the step ran. Returns the rows touched.
   * `change` is a Drizzle statement, or raw D1 statements whose last one is counted.
   */
  chunk: (key: string, change: BatchStatement | D1PreparedStatement[] | null) => Promise<number>;
  /** Adds `n` rows changed outside the main database (the corpus shards) to the step's count. */
  count: (key: string, n: number) => Promise<void>;
};

type BatchStatement = Parameters<Database['batch']>[0][number];

/**
 * One step of the cascade. Statements are built and handed to `chunk`, never returned from an
 * async function: Drizzle builders are thenables, so returning one from a promise would run it
 * outside the batch.
 */
type Step = { key: string; run: (ctx: StepContext) => Promise<unknown> };

type Where = (p: Person, db: Database) => SQL | undefined;

/** Deletes the rows of `table` matching `where`, `CHUNK` at a time, until none is left. */
const deleting = (key: string, table: SQLiteTable, id: SQLiteColumn, where: Where): Step => ({
  key,
  run: async ({ db, person, chunk }) => {
    const next = () =>
      db
        .delete(table)
        .where(inArray(id, db.select({ id }).from(table).where(where(person, db)).limit(CHUNK)));
    while ((await chunk(key, next())) >= CHUNK) {
      // another chunk
    }
  },
});

/** Re-links every matching row in one statement (one row write each, no cascade). */
const relinking = (key: string, build: (ctx: StepContext) => BatchStatement): Step => ({
  key,
  run: (ctx) => ctx.chunk(key, build(ctx)),
});

/** Moves the person's rows in `table` (where `column` is them) to the tombstone employer. */
const reassigning = (
  key: string,
  table: SQLiteTable,
  column: SQLiteColumn,
  build: (db: Database, person: Person, to: string) => BatchStatement,
): Step => ({
  key,
  run: async (ctx) => {
    const owned = await any(ctx.db, table, eq(column, ctx.person.userId));
    await ctx.chunk(key, owned ? build(ctx.db, ctx.person, await ctx.tombstone()) : null);
  },
});

/**
 * Changes certificates in id-listed chunks: their verification entries are dropped from KV
 * before each chunk (so a retry after a crash still knows their numbers) and again after (in
 * case a verification read re-cached one in between).
 */
const certificateChunks = (
  key: string,
  where: (p: Person) => SQL,
  build: (db: Database, ids: string[], to: string | null) => BatchStatement,
  toTombstone = false,
): Step => ({
  key,
  run: async (ctx) => {
    for (;;) {
      const rows = await ctx.db
        .select({ id: certificates.id, no: certificates.certificateNo })
        .from(certificates)
        .where(where(ctx.person))
        .limit(CERTIFICATE_CHUNK);
      if (rows.length === 0) return ctx.chunk(key, null);
      const to = toTombstone ? await ctx.tombstone() : null;
      const numbers = rows.map((r) => r.no);
      await afterCommit(ctx.env, { certificates: numbers });
      await ctx.chunk(
        key,
        build(
          ctx.db,
          rows.map((r) => r.id),
          to,
        ),
      );
      await afterCommit(ctx.env, { certificates: numbers });
      if (rows.length < CERTIFICATE_CHUNK) return;
    }
  },
});

const ownSubmissions = (p: Person, db: Database) =>
  db.select({ id: submissions.id }).from(submissions).where(eq(submissions.candidateId, p.userId));

const ownEvaluations = (p: Person, db: Database) =>
  db
    .select({ id: evaluations.id })
    .from(evaluations)
    .where(inArray(evaluations.submissionId, ownSubmissions(p, db)));

/** The person's briefs that nobody else's record depends on: deleted rather than kept. */
const unusedBriefs = (p: Person, db: Database) =>
  db
    .select({ id: briefs.id })
    .from(briefs)
    .where(
      and(
        eq(briefs.employerId, p.userId),
        notExists(db.select({ one: sql`1` }).from(submissions).where(eq(submissions.briefId, briefs.id))),
        notExists(db.select({ one: sql`1` }).from(certificates).where(eq(certificates.briefId, briefs.id))),
      ),
    );

/** Audit entries by or about the person, or about any record of theirs. */
const aboutThePerson: Where = (p, db) =>
  or(
    eq(auditLog.actorId, p.userId),
    eq(auditLog.targetId, p.userId),
    inArray(
      auditLog.targetId,
      db.select({ id: dsrRequests.id }).from(dsrRequests).where(eq(dsrRequests.userId, p.userId)),
    ),
    inArray(
      auditLog.targetId,
      db.select({ id: consentEvents.id }).from(consentEvents).where(eq(consentEvents.userId, p.userId)),
    ),
    inArray(auditLog.targetId, ownSubmissions(p, db)),
    inArray(auditLog.targetId, ownEvaluations(p, db)),
    inArray(
      auditLog.targetId,
      db.select({ id: certificates.id }).from(certificates).where(eq(certificates.holderId, p.userId)),
    ),
    inArray(
      auditLog.targetId,
      db
        .select({ no: certificates.certificateNo })
        .from(certificates)
        .where(eq(certificates.holderId, p.userId)),
    ),
    // Entries written elsewhere that name the person only in their details.
    sql`instr(${auditLog.details}, ${p.userId}) > 0`,
    ...emailsOf(p).map((email) => sql`instr(${auditLog.details}, ${email}) > 0`),
  );

/**
 * The cascade, in dependency order. The `key` of each step is its entry in
 * `deleted_counts`: a table name for deletions, `<table>_<verb>` for re-linked rows.
 */
export const ERASURE_STEPS: readonly Step[] = [
  // Invitations addressed to the person, accepted or not, at any address they have had. First,
  // while their correction audit entries still say which addresses those were.
  deleting('organisation_invitations', organisationInvitations, organisationInvitations.id, (p) => {
    const emails = emailsOf(p);
    return emails.length > 0 ? inArray(organisationInvitations.email, emails) : sql`0`;
  }),
  // Audit entries next, while the records they may point at still exist. Processing logs are
  // kept a year (Rule 8(3)), so they are pseudonymised, not deleted (purgePseudonymisedLogs).
  {
    key: 'audit_log_pseudonymised',
    run: async (ctx) => {
      const key = await pseudonymKey(ctx.env.CERT_SIGNING_KEY);
      while ((await pseudonymiseChunk(ctx, key)) >= AUDIT_CHUNK) {
        // another chunk
      }
    },
  },
  // Through the integrity service, which also lowers the fingerprints' document frequencies.
  {
    key: 'fingerprints',
    run: async ({ db, env, person, chunk }) => {
      for (;;) {
        const batch = await db
          .select({ id: submissions.id })
          .from(submissions)
          .where(
            and(
              eq(submissions.candidateId, person.userId),
              exists(
                db
                  .select({ one: sql`1` })
                  .from(fingerprints)
                  .where(eq(fingerprints.submissionId, submissions.id)),
              ),
            ),
          )
          .limit(FINGERPRINT_SUBMISSION_CHUNK);
        if (batch.length === 0) return chunk('fingerprints', null);
        await chunk(
          'fingerprints',
          deleteFingerprintStatements(
            env.DB,
            batch.map((r) => r.id),
          ),
        );
        if (batch.length < FINGERPRINT_SUBMISSION_CHUNK) return;
      }
    },
  },
  // The sharded corpus (FINGERPRINT_SHARDS): every shard may hold some of each submission's
  // fingerprints, so each page of the person's submission ids is deleted from all of them (in
  // parallel, bounded), frequencies lowered. Before `submissions` goes, which lists the ids.
  {
    key: 'fingerprint_shards',
    run: async ({ env, person, count }) => {
      const corpus = corpusFor(env);
      const removed =
        corpus instanceof ShardedCorpus ? await forgetCandidate(env.DB, corpus, person.userId) : 0;
      await count('fingerprint_shards', removed);
    },
  },
  deleting('employer_ratings', employerRatings, employerRatings.id, (p, db) =>
    inArray(employerRatings.evaluationId, ownEvaluations(p, db)),
  ),
  deleting('evaluations', evaluations, evaluations.id, (p, db) =>
    inArray(evaluations.submissionId, ownSubmissions(p, db)),
  ),
  certificateChunks(
    'certificates',
    (p) => eq(certificates.holderId, p.userId),
    (db, ids) => db.delete(certificates).where(inArray(certificates.id, ids)),
  ),
  deleting('submissions', submissions, submissions.id, (p) => eq(submissions.candidateId, p.userId)),
  deleting('consent_events', consentEvents, consentEvents.id, (p) => eq(consentEvents.userId, p.userId)),
  // Their built data exports in R2 (the `export` job's ZIPs, named by the access request), while
  // the requests that name them still exist. A build still running when this step passes finds
  // its request gone and deletes what it wrote; the cron deletes any export whose request is gone.
  {
    key: 'exports',
    run: async ({ db, env, person, count }) => {
      const rows = await db
        .select({ id: dsrRequests.id })
        .from(dsrRequests)
        .where(and(eq(dsrRequests.userId, person.userId), eq(dsrRequests.kind, 'access')));
      await count(
        'exports',
        env.EXPORTS
          ? await deleteExports(
              env.EXPORTS,
              rows.map((r) => r.id),
            )
          : 0,
      );
    },
  },
  // The DPO's records of grievances, nominations and corrections outlive the requests,
  // pseudonymised (Rule 8(3)); the requests themselves are deleted next.
  {
    key: 'dpo_records_kept',
    run: async ({ db, env, person, chunk }) => {
      const key = await pseudonymKey(env.CERT_SIGNING_KEY);
      const subject = await pseudonym(key, person.userId);
      const rows = await db
        .select()
        .from(dsrRequests)
        .where(and(eq(dsrRequests.userId, person.userId), inArray(dsrRequests.kind, DPO_RECORD_KINDS)));
      if (rows.length === 0) return chunk('dpo_records_kept', null);
      const now = new Date();
      for (let i = 0; i < rows.length; i += DPO_RECORD_CHUNK) {
        const values = await Promise.all(
          rows.slice(i, i + DPO_RECORD_CHUNK).map(async (r) => ({
            id: await pseudonym(key, r.id),
            kind: r.kind,
            state: r.state,
            subjectPseudonym: subject,
            dueAt: r.dueAt,
            requestedAt: r.createdAt,
            completedAt: r.completedAt,
            pseudonymisedAt: now,
          })),
        );
        await chunk('dpo_records_kept', db.insert(dpoRecords).values(values).onConflictDoNothing());
      }
    },
  },
  // Not the erasure request itself: it stays in the DPO's queue, with its due date, until the
  // last step deletes it together with the account.
  deleting('dsr_requests', dsrRequests, dsrRequests.id, (p) =>
    and(eq(dsrRequests.userId, p.userId), ne(dsrRequests.id, p.requestId)),
  ),
  deleting('sessions', sessions, sessions.id, (p) => eq(sessions.userId, p.userId)),
  // Confirmation links sent to them (signup or a pending email change): the addresses they name.
  deleting('email_confirmations', emailConfirmations, emailConfirmations.id, (p) =>
    eq(emailConfirmations.userId, p.userId),
  ),
  // Grants to Open Badges API clients, with their tokens (OAUTH_KV; src/services/portability/).
  oauthGrantsErasureStep,
  // As a child: the copies of their notices given to their guardians name them (`guardianCopies`).
  // Before their guardian requests go, which say who those guardians are.
  deleting('ward_notice_copies', userNotices, userNotices.id, (p, db) =>
    and(
      inArray(
        userNotices.userId,
        db
          .select({ id: sql<string>`${guardianRequests.guardianId}` })
          .from(guardianRequests)
          .where(and(eq(guardianRequests.childId, p.userId), isNotNull(guardianRequests.guardianId))),
      ),
      sql`substr(${userNotices.ref}, 1, ${wardNoticePrefix(p.userId).length}) = ${wardNoticePrefix(p.userId)}`,
    ),
  ),
  // A child's guardian requests go with them; as a guardian, the person's email and id leave the
  // children's requests (the link ends) and the consents they gave keep only that a guardian gave them.
  deleting('guardian_requests', guardianRequests, guardianRequests.id, (p) =>
    eq(guardianRequests.childId, p.userId),
  ),
  // As a guardian: every grant they gave that still stands is withdrawn first (as withdrawing
  // guardianship and majority do), so the ward's ledger, and whoever reads it, says what holds.
  // Before the links end: the wards are found through them.
  {
    key: 'consents_given_withdrawn',
    run: async ({ db, env, person, chunk }) => {
      for (;;) {
        const { results } = await env.DB.prepare(STANDING_GRANTS_BY)
          .bind(person.userId, WITHDRAWAL_CHUNK)
          .all<{ userId: string; purpose: ConsentPurpose }>();
        if (results.length === 0) return chunk('consents_given_withdrawn', null);
        await chunk(
          'consents_given_withdrawn',
          db.insert(consentEvents).values(
            results.map((r) => ({
              userId: r.userId,
              purpose: r.purpose,
              action: 'revoke' as const,
              noticeVersion: CURRENT_NOTICE_VERSION,
              // created_at from D1 itself, like every ledger event (one clock orders the ledger).
            })),
          ),
        );
        if (results.length < WITHDRAWAL_CHUNK) return;
      }
    },
  },
  relinking('guardian_requests_unlinked', ({ db, person }) =>
    db
      .update(guardianRequests)
      .set({
        guardianId: null,
        guardianEmail: 'erased@invalid',
        state: sql`case when ${guardianRequests.state} in ('pending', 'approved') then 'ended' else ${guardianRequests.state} end`,
        endedAt: sql`coalesce(${guardianRequests.endedAt}, ${Date.now()})`,
      })
      .where(
        person.email
          ? or(
              eq(guardianRequests.guardianId, person.userId),
              eq(guardianRequests.guardianEmail, person.email),
            )
          : eq(guardianRequests.guardianId, person.userId),
      ),
  ),
  relinking('consents_given_unlinked', ({ db, person }) =>
    db
      .update(consentEvents)
      .set({ grantedBy: ERASED_GUARDIAN })
      .where(eq(consentEvents.grantedBy, person.userId)),
  ),
  // API keys belong to the platform, not to the administrator who issued them.
  relinking('api_keys_unlinked', ({ db, person }) =>
    db.update(apiKeys).set({ createdBy: null }).where(eq(apiKeys.createdBy, person.userId)),
  ),
  relinking('certificates_revoker_unlinked', ({ db, person }) =>
    db.update(certificates).set({ revokedBy: null }).where(eq(certificates.revokedBy, person.userId)),
  ),
  // As an employer: what other people's records depend on moves to the tombstone.
  reassigning('employer_ratings_reassigned', employerRatings, employerRatings.employerId, (db, p, to) =>
    db.update(employerRatings).set({ employerId: to }).where(eq(employerRatings.employerId, p.userId)),
  ),
  // Credentials signed before organisations existed carry the rating person's own name: they are
  // re-signed under the organisation's name first (each with its count, in one batch), so the
  // certificate keeps verifying and no credential keeps the name. Resumes by finding what is left.
  {
    key: 'credentials_resigned',
    run: async ({ db, env, person, chunk }) => {
      await chunk('credentials_resigned', null);
      await resignCredentialsRatedBy(env, db, person.userId, new Date(), () => [
        addToCount(db, person.requestId, 'credentials_resigned', sql`1`),
      ]);
    },
  },
  certificateChunks(
    'certificates_reassigned',
    (p) => eq(certificates.employerId, p.userId),
    (db, ids, to) => db.update(certificates).set({ employerId: to! }).where(inArray(certificates.id, ids)),
    true,
  ),
  deleting('rubrics', rubrics, rubrics.id, (p, db) => inArray(rubrics.briefId, unusedBriefs(p, db))),
  deleting('milestones', milestones, milestones.id, (p, db) =>
    inArray(milestones.briefId, unusedBriefs(p, db)),
  ),
  deleting('briefs', briefs, briefs.id, (p, db) => inArray(briefs.id, unusedBriefs(p, db))),
  // Kept briefs are closed: nobody should start work for an employer who is gone.
  reassigning('briefs_reassigned', briefs, briefs.employerId, (db, p, to) =>
    db
      .update(briefs)
      .set({ employerId: to, state: 'closed', closedAt: sql`coalesce(${briefs.closedAt}, ${Date.now()})` })
      .where(eq(briefs.employerId, p.userId)),
  ),
  // Other deferred jobs about the person (an evaluation of their work). Erasure jobs are kept:
  // this one is reduced to the request id when it is done, and another erasure request of the
  // same person (two sent at once) still has its own receipt, which only its job completes.
  deleting('jobs', jobs, jobs.id, (p) => and(eq(jobs.subjectId, p.userId), ne(jobs.kind, ERASURE_JOB))),
  // The account, and in the same transaction the erasure request (counted with the others).
  {
    key: 'users',
    run: async ({ db, env, person, chunk }) => {
      const raw = (q: { toSQL(): { sql: string; params: unknown[] } }) => {
        const { sql: text, params } = q.toSQL();
        return env.DB.prepare(text).bind(...params);
      };
      await chunk('users', [
        raw(db.delete(dsrRequests).where(eq(dsrRequests.id, person.requestId))),
        raw(addToCount(db, person.requestId, 'dsr_requests', sql`changes()`)),
        raw(db.delete(users).where(eq(users.id, person.userId))),
      ]);
    },
  },
];

/** Withdrawals per chunk: 6 bound columns each, within D1's 100 parameters. */
const WITHDRAWAL_CHUNK = 15;

/**
 * The (ward, purpose) pairs whose latest event is a grant the guardian `?1` gave: the wards are
 * the children whose requests they decided (through the child index, not a scan of the ledger);
 * "latest" is the ledger's order, `created_at` then rowid.
 */
const STANDING_GRANTS_BY = `
  SELECT e.user_id AS userId, e.purpose AS purpose FROM consent_events e
  WHERE e.user_id IN (SELECT child_id FROM guardian_requests WHERE guardian_id = ?1)
    AND e.granted_by = ?1 AND e.action = 'grant'
    AND NOT EXISTS (
      SELECT 1 FROM consent_events l
      WHERE l.user_id = e.user_id AND l.purpose = e.purpose
        AND (l.created_at > e.created_at OR (l.created_at = e.created_at AND l.rowid > e.rowid)))
  LIMIT ?2`;

/** The requests whose records the DPO keeps after erasure. */
const DPO_RECORD_KINDS = ['grievance', 'nomination', 'correction'] as const;
/** dpo_records rows per insert: 8 columns each, within D1's 100 bound parameters. */
const DPO_RECORD_CHUNK = 10;

/** Audit entries per chunk: each binds its id and at most one target pair, within 100 parameters. */
const AUDIT_CHUNK = 20;

/**
 * Pseudonymises up to `AUDIT_CHUNK` entries about the person in one statement: the person as
 * actor becomes their keyed pseudonym (`actor_id` null), every target id becomes its pseudonym,
 * details and the client address are dropped. A pseudonymised entry no longer matches
 * `aboutThePerson`, so the loop ends; a retried chunk finds what is left.
 */
async function pseudonymiseChunk(ctx: StepContext, key: CryptoKey): Promise<number> {
  const { db, person } = ctx;
  const rows = await db
    .select({ id: auditLog.id, targetId: auditLog.targetId })
    .from(auditLog)
    .where(and(isNull(auditLog.pseudonymisedAt), aboutThePerson(person, db)))
    // Their corrections last: they say which addresses were theirs (formerEmailsOf) should the cascade resume.
    .orderBy(sql`${auditLog.action} = 'dsr.correction'`)
    .limit(AUDIT_CHUNK);
  if (rows.length === 0) return ctx.chunk('audit_log_pseudonymised', null);
  const targets = [...new Set(rows.map((r) => r.targetId).filter((t): t is string => t !== null))];
  const mapped = await Promise.all(targets.map(async (t) => sql`when ${t} then ${await pseudonym(key, t)}`));
  const targetCase = mapped.length
    ? sql`case ${auditLog.targetId} ${sql.join(mapped, sql` `)} else ${auditLog.targetId} end`
    : sql`${auditLog.targetId}`;
  const actor = await pseudonym(key, person.userId);
  const ids = rows.map((r) => r.id);
  return ctx.chunk(
    'audit_log_pseudonymised',
    db
      .update(auditLog)
      .set({
        actorPseudonym: sql`case when ${auditLog.actorId} = ${person.userId} then ${actor} else ${auditLog.actorPseudonym} end`,
        actorId: sql`case when ${auditLog.actorId} = ${person.userId} then null else ${auditLog.actorId} end`,
        targetId: targetCase,
        details: null,
        ip: null,
        pseudonymisedAt: new Date(),
      })
      .where(inArray(auditLog.id, ids)),
  );
}

/** How long pseudonymised processing logs are kept (Rule 8(3): one year). */
export const PSEUDONYMISED_LOG_DAYS = 365;

/**
 * Deletes pseudonymised audit entries and the DPO's pseudonymised records older than a year (the cron; docs/data-rights.md).
 * Returns how many. Entries of people who were not erased follow the audit log's own policy.
 */
export async function purgePseudonymisedLogs(db: Database, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - PSEUDONYMISED_LOG_DAYS * 86_400_000);
  let total = 0;
  for (;;) {
    const deleted = await db
      .delete(auditLog)
      .where(
        inArray(
          auditLog.id,
          db
            .select({ id: auditLog.id })
            .from(auditLog)
            .where(and(isNotNull(auditLog.pseudonymisedAt), lt(auditLog.createdAt, cutoff)))
            .limit(CHUNK),
        ),
      )
      .returning({ id: auditLog.id });
    total += deleted.length;
    if (deleted.length < CHUNK) break;
  }
  const records = await db
    .delete(dpoRecords)
    .where(lt(dpoRecords.requestedAt, cutoff))
    .returning({ id: dpoRecords.id });
  return total + records.length;
}

/**
 * The addresses the person had before correcting their email, from their `dsr.correction` audit
 * entries (`details.before.email`, `details.after.email`), leaving out the current one and any
 * another account has taken since (rows naming it may well be that person's). The audit step
 * pseudonymises these entries last, so a resumed cascade still finds them.
 */
async function formerEmailsOf(db: Database, userId: string, current: string | null): Promise<string[]> {
  const entries = await db
    .select({ details: auditLog.details })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.action, 'dsr.correction'),
        eq(auditLog.targetType, 'user'),
        eq(auditLog.targetId, userId),
        isNull(auditLog.pseudonymisedAt),
      ),
    )
    .limit(100);
  const found = new Set<string>();
  for (const { details } of entries)
    for (const side of [details?.before, details?.after]) {
      const address = (side as { email?: unknown } | null | undefined)?.email;
      if (typeof address === 'string' && address !== current) found.add(address);
    }
  // At most FORMER_EMAILS: each is a bound parameter of the steps' statements.
  const candidates = [...found].slice(0, FORMER_EMAILS);
  if (candidates.length === 0) return [];
  const taken = await db
    .select({ email: users.email })
    .from(users)
    .where(and(inArray(users.email, candidates), ne(users.id, userId)));
  return candidates.filter((c) => !taken.some((t) => t.email === c));
}

/** Former addresses the cascade looks for (nobody corrects their email that often). */
const FORMER_EMAILS = 20;

async function any(db: Database, table: SQLiteTable, where: SQL): Promise<boolean> {
  const [row] = await db.select({ one: sql<number>`1` }).from(table).where(where).limit(1);
  return row !== undefined;
}

export const tombstoneEmail = (requestId: string) => `erased-${requestId}@invalid`;

/** The stand-in employer for one erased employer: no personal data, no way to sign in. */
async function ensureTombstone(db: Database, requestId: string): Promise<string> {
  const email = tombstoneEmail(requestId);
  await db
    .insert(users)
    .values({
      email,
      name: FORMER_EMPLOYER,
      role: 'employer',
      passwordHash: randomToken(32),
      passwordSalt: randomToken(16),
      passwordIterations: 1,
      disabledAt: new Date(),
    })
    .onConflictDoNothing({ target: users.email });
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  return row!.id;
}

/**
 * Adds `delta` to the step's count. With `changes()` as the delta, and run right after the
 * change in the same batch, that is the number of rows the change touched (SQLite's
 * `changes()` is the row count of the most recently completed INSERT, UPDATE or DELETE).
 */
function addToCount(db: Database, requestId: string, key: string, delta: SQL) {
  const path = `$.${key}`;
  const current = sql`coalesce(json_extract(${erasureReceipts.deletedCounts}, ${path}), 0)`;
  return db
    .update(erasureReceipts)
    .set({ deletedCounts: sql`json_set(${erasureReceipts.deletedCounts}, ${path}, ${current} + ${delta})` })
    .where(eq(erasureReceipts.requestId, requestId));
}

/**
 * Runs (or resumes) the cascade of one erasure request. Throws on any failure, leaving the
 * receipt `in_progress` with the counts of every chunk that committed; the consumer then asks
 * the queue to retry the message with backoff.
 */
export async function runErasureCascade(
  message: ErasurePayload,
  env: Pick<Env, 'DB' | 'CACHE' | 'CERT_SIGNING_KEY' | 'PUBLIC_BASE_URL' | 'EXPORTS'> & CorpusEnv,
  now = new Date(),
  /** Called after each step (and after the cache purge); fault-injection tests throw here. */
  onStep: (step: string) => Promise<void> = async () => {},
): Promise<ErasureReceiptView> {
  const db = getDb(env.DB);
  const { requestId, userId } = message;
  // A message without a receipt is still the person's request: the route undoes its records
  // when the send reports failure, but a send that timed out may have been enqueued anyway.
  await db
    .insert(erasureReceipts)
    .values({ requestId, state: 'in_progress', deletedCounts: {}, requestedAt: now })
    .onConflictDoNothing();
  const [receipt] = await db.select().from(erasureReceipts).where(eq(erasureReceipts.requestId, requestId));
  if (!receipt) throw new Error('erasure receipt missing after insert');
  if (receipt.state === 'completed') return toReceiptView(receipt);

  const [account] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  const email = account?.email ?? null;
  let tombstoneId: string | undefined;
  const ctx: StepContext = {
    db,
    env,
    person: { userId, email, requestId, formerEmails: await formerEmailsOf(db, userId, email) },
    tombstone: async () => {
      tombstoneId ??= await ensureTombstone(db, requestId);
      return tombstoneId;
    },
    count: async (key, n) => {
      await addToCount(db, requestId, key, sql`${n}`);
    },
    chunk: async (key, change) => {
      if (!change) {
        await addToCount(db, requestId, key, sql`0`);
        return 0;
      }
      const count = addToCount(db, requestId, key, sql`changes()`);
      if (Array.isArray(change)) {
        const { sql: text, params } = count.toSQL();
        const results = await env.DB.batch([...change, env.DB.prepare(text).bind(...params)]);
        return touched(results[results.length - 2]);
      }
      const [result] = await db.batch([change, count]);
      return touched(result);
    },
  };

  // Resume at the last step with an entry: the ones before it are complete.
  const started = Object.keys(receipt.deletedCounts);
  // Before anything is deleted: which organisations held the person's data (their webhooks).
  if (started.length === 0) await recordErasureEvents(db, requestId, userId, now);
  const resumeAt = Math.max(0, ...ERASURE_STEPS.map((s, i) => (started.includes(s.key) ? i : -1)));
  for (const s of ERASURE_STEPS.slice(resumeAt)) {
    await s.run(ctx);
    await onStep(s.key);
  }

  // Rows are gone; now the caches that were built from them.
  await afterCommit(env, { everyBoard: true, agreement: true }, { now });
  await onStep('caches');
  const hooks = await releaseErasureEvents(db, requestId, now);
  await db.batch([
    db
      .update(erasureReceipts)
      .set({ state: 'completed', completedAt: now })
      .where(and(eq(erasureReceipts.requestId, requestId), isNull(erasureReceipts.completedAt))),
    ...hooks.statements,
  ]);
  await afterCommit(env, { jobs: hooks.jobIds }, { now });
  return (await erasureReceipt(db, requestId))!;
}

/** Rows a batched statement touched: its `changes` (or the rows a `returning` gave back). */
function touched(result: unknown): number {
  if (Array.isArray(result)) return result.length;
  const meta = (result as { meta?: { changes?: number } } | undefined)?.meta;
  return meta?.changes ?? 0;
}
