/** The cascade's steps, in dependency order (see index.ts). New steps are appended: in-flight cascades resume by key. */
import { and, eq, exists, inArray, isNotNull, ne, notExists, or, type SQL, sql } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Database } from '../../../db/client';
import {
  apiKeys,
  briefs,
  type ConsentPurpose,
  certificates,
  consentEvents,
  dpoRecords,
  dsrRequests,
  ERASED_GUARDIAN,
  emailConfirmations,
  employerRatings,
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
} from '../../../db/schema';
import { CURRENT_NOTICE_VERSION } from '../../../domain/consent-notices';
import { pseudonym, pseudonymKey } from '../../../domain/pseudonym';
import { afterCommit } from '../../after-commit';
import { corpusFor, deleteFingerprintStatements, forgetCandidate, ShardedCorpus } from '../../corpus';
import { wardNoticePrefix } from '../../guardians';
import { resignCredentialsRatedBy } from '../../issuance/resign';
import { oauthGrantsErasureStep } from '../../portability/erasure-step';
import { deleteExports } from '../export-job';
import {
  addToCount,
  any,
  type BatchStatement,
  CERTIFICATE_CHUNK,
  CHUNK,
  emailsOf,
  FINGERPRINT_SUBMISSION_CHUNK,
  ownEvaluations,
  ownSubmissions,
  type Person,
  type Step,
  type StepContext,
  type Where,
} from './context';
import { AUDIT_CHUNK, pseudonymiseChunk } from './pseudonymise';
import { ERASURE_JOB } from './request';

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
      await afterCommit(ctx.db, ctx.env, { certificates: numbers });
      await ctx.chunk(
        key,
        build(
          ctx.db,
          rows.map((r) => r.id),
          to,
        ),
      );
      await afterCommit(ctx.db, ctx.env, { certificates: numbers });
      if (rows.length < CERTIFICATE_CHUNK) return;
    }
  },
});

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
    run: async ({ db, person, chunk }) => {
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
            db.$client,
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
    run: async ({ db, env, person, count }) => {
      const corpus = corpusFor(env);
      const removed = corpus instanceof ShardedCorpus ? await forgetCandidate(db, corpus, person.userId) : 0;
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
    run: async ({ db, person, chunk }) => {
      for (;;) {
        const { results } = await db.$client
          .prepare(STANDING_GRANTS_BY)
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
      await resignCredentialsRatedBy(db, env, person.userId, new Date(), () => [
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
    run: async ({ db, person, chunk }) => {
      const raw = (q: { toSQL(): { sql: string; params: unknown[] } }) => {
        const { sql: text, params } = q.toSQL();
        return db.$client.prepare(text).bind(...params);
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
