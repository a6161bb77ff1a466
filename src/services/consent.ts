/**
 * The consent ledger (DPDP Act 2023 §6). `consent_events` is append-only: a grant or a
 * withdrawal is a new row, never an update, so the full history is the record of what the
 * person agreed to, when, and under which notice.
 *
 * **The current state of a purpose is its latest event**, ordered by
 * `created_at DESC, rowid DESC` and taking the first row. `created_at` is assigned by D1 itself
 * (one clock, the database's), so it does not go backwards between inserts from different Worker
 * instances; `rowid` breaks ties between events written in the same millisecond, because SQLite
 * hands out rowids in insert order (max(rowid) + 1) for a table that is never updated. The index
 * `(user_id, purpose, created_at)` carries the rowid implicitly, so this ordering is read straight
 * from the index: one index probe per purpose, no sort.
 */
import { and, desc, eq, isNotNull, lt, notExists, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { CONSENT_PURPOSES, type ConsentPurpose, consentEvents, jobs, users } from '../db/schema';
import { isChild } from '../domain/age';
import { CURRENT_NOTICE_VERSION, noticeFor, noticeLanguages } from '../domain/consent-notices';
import { DEFAULT_NOTICE_LANGUAGE, type NoticeLanguage } from '../domain/notice-languages';
import { clock } from '../lib/clock';
import { invalidCursor, type Position } from '../lib/paging';
import { ProblemError } from '../lib/problem';
import { afterCommit } from './after-commit';
import { auditInsert } from './audit';
import {
  corpusFor,
  deleteFingerprintStatements,
  type FingerprintCorpus,
  forgetCandidate,
  ShardedCorpus,
} from './corpus';
import { guardianLink } from './guardians';
import { jobInsert, runJobNow } from './jobs/jobs';

/**
 * The job a `public_verification` grant or withdrawal writes for a holder who asked for a credential
 * `identifier` (src/services/jobs/kinds.ts → `resignForPublicVerification`): their credentials are
 * signed again, without the identifier while the consent is withdrawn and with it once it is granted.
 */
export const CREDENTIAL_RESIGN_JOB = 'credential_resign';
export type CredentialResignPayload = { holderId: string };

export type ConsentAction = 'grant' | 'revoke';
export type ConsentState = 'granted' | 'revoked' | 'never';

export type ConsentReceipt = {
  id: string;
  purpose: ConsentPurpose;
  action: ConsentAction;
  noticeVersion: string;
  /** The language of the notice the person read. */
  language: string;
  createdAt: Date;
};
export type Receipt = ConsentReceipt;

export type PurposeState = { state: ConsentState; since: Date | null; noticeVersion: string | null };

/** Newest first, ties in the same millisecond broken by insert order (see the module comment). */
const LATEST_FIRST = [desc(consentEvents.createdAt), desc(sql`${consentEvents}.rowid`)] as const;

const receiptColumns = {
  id: consentEvents.id,
  purpose: consentEvents.purpose,
  action: consentEvents.action,
  noticeVersion: consentEvents.noticeVersion,
  language: consentEvents.language,
  createdAt: consentEvents.createdAt,
};

function latestEvent(db: Database, userId: string, purpose: ConsentPurpose) {
  return db
    .select(receiptColumns)
    .from(consentEvents)
    .where(and(eq(consentEvents.userId, userId), eq(consentEvents.purpose, purpose)))
    .orderBy(...LATEST_FIRST)
    .limit(1);
}

const toState = (latest: ConsentReceipt | undefined): PurposeState =>
  latest
    ? {
        state: latest.action === 'grant' ? 'granted' : 'revoked',
        since: latest.createdAt,
        noticeVersion: latest.noticeVersion,
      }
    : { state: 'never', since: null, noticeVersion: null };

/** Purposes a child may have at all (DPDP §9(3): no tracking, behavioural monitoring or public profile). */
export const CHILD_PURPOSES: readonly ConsentPurpose[] = ['ai_evaluation'];

/**
 * Whether the person's latest event for `purpose` is a grant that counts. No event means no
 * consent. For a child (§9): only the purposes in `CHILD_PURPOSES`, and only when the grant was
 * given by their current guardian. For an adult: only their own grant (a guardian's lapses at 18).
 */
export async function hasConsent(
  db: Database,
  userId: string,
  purpose: ConsentPurpose,
  now: Date = clock.now(),
): Promise<boolean> {
  const [[latest], [person]] = await db.batch([
    db
      .select({ action: consentEvents.action, grantedBy: consentEvents.grantedBy })
      .from(consentEvents)
      .where(and(eq(consentEvents.userId, userId), eq(consentEvents.purpose, purpose)))
      .orderBy(...LATEST_FIRST)
      .limit(1),
    db.select({ dateOfBirth: users.dateOfBirth }).from(users).where(eq(users.id, userId)).limit(1),
  ]);
  if (latest?.action !== 'grant') return false;
  if (!isChild(person?.dateOfBirth, now)) return latest.grantedBy === null;
  if (!CHILD_PURPOSES.includes(purpose) || latest.grantedBy === null) return false;
  const link = await guardianLink(db, userId);
  return link?.guardianId === latest.grantedBy;
}

/** The current state of every purpose: one batched round trip, one index probe per purpose. */
export async function consentStates(
  db: Database,
  userId: string,
): Promise<Record<ConsentPurpose, PurposeState>> {
  const [first, ...rest] = CONSENT_PURPOSES.map((p) => latestEvent(db, userId, p));
  const results = await db.batch([first!, ...rest]);
  return Object.fromEntries(
    CONSENT_PURPOSES.map((purpose, i) => [purpose, toState(results[i]?.[0])]),
  ) as Record<ConsentPurpose, PurposeState>;
}

/** Every consent event of the person, newest first (the data export takes them all). */
export async function consentHistory(db: Database, userId: string): Promise<ConsentReceipt[]> {
  return db
    .select(receiptColumns)
    .from(consentEvents)
    .where(eq(consentEvents.userId, userId))
    .orderBy(...LATEST_FIRST);
}

/** A history row with its place in the `LATEST_FIRST` order; `id` of the position is the rowid. */
export const historyPosition = (r: { createdAt: Date; rowid: number }): Position => ({
  createdAt: r.createdAt,
  id: String(r.rowid),
});

/**
 * One page of the person's consent events, newest first: `limit + 1` rows (for `toPage`) after
 * `after`, a position from `historyPosition`. Ordered like the state (time, then insert order).
 */
export async function consentHistoryPage(
  db: Database,
  userId: string,
  limit: number,
  after?: Position,
): Promise<(ConsentReceipt & { rowid: number })[]> {
  const rowid = sql<number>`${consentEvents}.rowid`;
  const afterRowid = after ? Number(after.id) : Number.NaN;
  if (after && !Number.isSafeInteger(afterRowid)) throw invalidCursor();
  const older = after
    ? or(
        lt(consentEvents.createdAt, after.createdAt),
        and(eq(consentEvents.createdAt, after.createdAt), sql`${rowid} < ${afterRowid}`),
      )
    : undefined;
  return db
    .select({ ...receiptColumns, rowid })
    .from(consentEvents)
    .where(and(eq(consentEvents.userId, userId), older))
    .orderBy(...LATEST_FIRST)
    .limit(limit + 1);
}

/**
 * Appends a grant or withdrawal (with its audit entry, in one transaction) and makes it take
 * effect at once: the cached leaderboards and the verification entries of the person's
 * certificates are dropped, so the next public read is rebuilt from the ledger. A change of
 * `public_verification` by a holder with a credential `identifier` also re-signs their credentials
 * (with or without it): a `credential_resign` job in the same transaction, run here and now, left to
 * the queue and the sweeper if that fails (the consent is recorded either way).
 *
 * A grant must cite the current notice; a withdrawal may cite any published one that describes
 * the purpose. An unknown or superseded version, or one without the purpose, is a
 * `validation-failed` problem pointing at `#/noticeVersion`.
 */
export async function recordConsent(
  db: Database,
  env: Env,
  userId: string,
  input: { purpose: ConsentPurpose; action: ConsentAction; noticeVersion: string; language?: NoticeLanguage },
  /** A guardian acting for their ward (src/services/guardians.ts): recorded as who gave it. */
  guardianId: string | null = null,
  now: Date = clock.now(),
): Promise<Receipt> {
  const language = input.language ?? DEFAULT_NOTICE_LANGUAGE;
  if (input.action === 'grant') {
    const [person] = await db
      .select({ dateOfBirth: users.dateOfBirth })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    if (isChild(person?.dateOfBirth, now)) {
      if (guardianId === null)
        throw new ProblemError(
          'guardian-consent-required',
          "A child's consent is given by their parent or lawful guardian (POST /api/guardian/wards/{id}/consents); " +
            'a withdrawal is yours to make.',
        );
      if (!CHILD_PURPOSES.includes(input.purpose))
        throw new ProblemError('validation-failed', 'The request body does not match the schema.', {
          errors: [
            {
              pointer: '#/purpose',
              detail: `Not offered to children (DPDP §9(3)); a guardian may grant ${CHILD_PURPOSES.join(', ')}`,
            },
          ],
        });
    }
  }
  const notice = noticeFor(input.noticeVersion);
  const superseded = input.action === 'grant' && input.noticeVersion !== CURRENT_NOTICE_VERSION;
  if (!notice || superseded) {
    throw new ProblemError('validation-failed', 'The request body does not match the schema.', {
      errors: [
        {
          pointer: '#/noticeVersion',
          detail: notice
            ? `Notice ${input.noticeVersion} is superseded; grants must cite ${CURRENT_NOTICE_VERSION}`
            : `Unknown notice version (current: ${CURRENT_NOTICE_VERSION})`,
        },
      ],
    });
  }
  // A receipt is read against the notice it cites: one that never described the purpose says
  // nothing about it. The current notice describes every purpose, so withdrawing stays as easy as granting.
  if (!notice.purposes.some((p) => p.purpose === input.purpose)) {
    throw new ProblemError('validation-failed', 'The request body does not match the schema.', {
      errors: [
        {
          pointer: '#/noticeVersion',
          detail: `Notice ${input.noticeVersion} does not describe ${input.purpose}; cite one that does (current: ${CURRENT_NOTICE_VERSION})`,
        },
      ],
    });
  }
  if (!noticeLanguages(notice).includes(language)) {
    throw new ProblemError('validation-failed', 'The request body does not match the schema.', {
      errors: [
        {
          pointer: '#/language',
          detail: `Notice ${input.noticeVersion} is available in ${noticeLanguages(notice).join(', ')}`,
        },
      ],
    });
  }
  // A withdrawal must be able to reach the corpus: a misconfigured one refuses (503) before anything is recorded.
  const corpus = input.purpose === 'integrity_corpus' && input.action === 'revoke' ? corpusFor(env) : null;
  const id = crypto.randomUUID();
  const resignJobId = input.purpose === 'public_verification' ? crypto.randomUUID() : null;
  const [inserted, ...rest] = await db.batch([
    db
      .insert(consentEvents)
      .values({
        id,
        userId,
        purpose: input.purpose,
        action: input.action,
        noticeVersion: input.noticeVersion,
        language,
        grantedBy: input.action === 'grant' ? guardianId : null,
      })
      .returning(receiptColumns),
    auditInsert(db, {
      actorId: guardianId ?? userId,
      action: `consent.${input.action}`,
      targetType: 'consent_event',
      targetId: id,
      details: {
        purpose: input.purpose,
        noticeVersion: input.noticeVersion,
        language,
        ...(guardianId ? { forWard: userId } : {}),
      },
    }),
    ...(resignJobId ? resignJobStatements(db, resignJobId, userId, id, now) : []),
  ]);
  // The job stays only if the holder had an identifier when the consent was written (same transaction).
  const resignJob = resignJobId && (rest.at(-1) as { id: string }[] | undefined)?.length === 0;
  if (corpus) await leaveCorpus(db, corpus, userId);
  if (resignJob) await runJobNow(db, env, resignJobId);
  await afterCommit(db, env, { person: { id: userId, change: 'shown' } });
  return inserted[0] as ConsentReceipt;
}

/**
 * The `credential_resign` job for a `public_verification` change, for the consent's own batch:
 * inserted, then deleted again in the same transaction unless the holder has asked for an
 * identifier (a salt). Deciding inside the transaction rather than on an earlier read means a
 * holder turning the identifier on at the same moment cannot slip between the two (their own
 * re-signing reads the ledger after setting the salt). The delete returns the job when it went.
 */
function resignJobStatements(db: Database, jobId: string, userId: string, consentEventId: string, now: Date) {
  return [
    jobInsert(
      db,
      {
        id: jobId,
        kind: CREDENTIAL_RESIGN_JOB,
        payload: { holderId: userId } satisfies CredentialResignPayload,
        ref: consentEventId,
        subjectId: userId,
      },
      now,
    ),
    db
      .delete(jobs)
      .where(
        and(
          eq(jobs.id, jobId),
          notExists(
            db
              .select({ one: sql`1` })
              .from(users)
              .where(and(eq(users.id, userId), isNotNull(users.credentialIdentitySalt))),
          ),
        ),
      )
      .returning({ id: jobs.id }),
  ] as const;
}

/** Submissions whose fingerprints go per batch (each id is bound twice: D1's 100 parameters). */
const CORPUS_CHUNK = 50;

/**
 * Takes the person's work out of the integrity corpus (their `integrity_corpus` withdrawal):
 * deletes the fingerprints of each of their submissions and lowers the document frequencies, a
 * chunk of submissions per transaction, from the single store in the main database and, when the
 * corpus is sharded, from every shard (`forgetCandidate`). Idempotent: a retried withdrawal finds
 * what is left. Returns the submissions (single store) plus fingerprint rows (shards) removed.
 */
export async function leaveCorpus(db: Database, corpus: FingerprintCorpus, userId: string): Promise<number> {
  const fromShards = corpus instanceof ShardedCorpus ? await forgetCandidate(db, corpus, userId) : 0;
  return fromShards + (await leaveSingleStore(db, userId));
}

/** The single store's part of leaveCorpus (also rows written before the corpus was sharded). */
async function leaveSingleStore(db: Database, userId: string): Promise<number> {
  const d1 = db.$client;
  let removed = 0;
  for (;;) {
    const { results } = await d1
      .prepare(
        `SELECT s.id FROM submissions s WHERE s.candidate_id = ?
           AND EXISTS (SELECT 1 FROM fingerprints f WHERE f.submission_id = s.id) LIMIT ${CORPUS_CHUNK}`,
      )
      .bind(userId)
      .all<{ id: string }>();
    if (results.length === 0) return removed;
    await d1.batch(
      deleteFingerprintStatements(
        d1,
        results.map((r) => r.id),
      ),
    );
    removed += results.length;
    if (results.length < CORPUS_CHUNK) return removed;
  }
}

/** A consent receipt as the person sees it. */
export const consentReceiptView = (r: ConsentReceipt) => ({
  id: r.id,
  purpose: r.purpose,
  action: r.action,
  noticeVersion: r.noticeVersion,
  language: r.language,
  createdAt: r.createdAt.toISOString(),
});

/** A purpose's current state as the person sees it. */
export const consentStateView = (s: PurposeState) => ({ ...s, since: s.since?.toISOString() ?? null });
