/** What every step of the erasure cascade works with: the person, the context, the chunk sizes. */

import { eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Database } from '../../../db/client';
import {
  auditLog,
  certificates,
  consentEvents,
  dsrRequests,
  erasureReceipts,
  evaluations,
  submissions,
} from '../../../db/schema';
import type { CorpusEnv } from '../../corpus';
/** Rows per chunk: each chunk is one transaction, short enough never to hold D1 for long. */
export const CHUNK = 500;
/** Certificates go by explicit id lists (their numbers are needed for KV), within D1's 100 bound parameters. */
export const CERTIFICATE_CHUNK = 50;
/** Submissions whose fingerprints go per chunk (their statement binds each id twice: 100 parameters). */
export const FINGERPRINT_SUBMISSION_CHUNK = 50;

export type Person = {
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
export const emailsOf = (p: Person): string[] => [...(p.email ? [p.email] : []), ...p.formerEmails];

export type StepContext = {
  db: Database;
  env: Pick<Env, 'CACHE' | 'CERT_SIGNING_KEY' | 'PUBLIC_BASE_URL' | 'EXPORTS'> & CorpusEnv;
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

export type BatchStatement = Parameters<Database['batch']>[0][number];

/**
 * One step of the cascade. Statements are built and handed to `chunk`, never returned from an
 * async function: Drizzle builders are thenables, so returning one from a promise would run it
 * outside the batch.
 */
export type Step = { key: string; run: (ctx: StepContext) => Promise<unknown> };

export type Where = (p: Person, db: Database) => SQL | undefined;

/** Audit entries by or about the person, or about any record of theirs. */
export const aboutThePerson: Where = (p, db) =>
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

export async function any(db: Database, table: SQLiteTable, where: SQL): Promise<boolean> {
  const [row] = await db.select({ one: sql<number>`1` }).from(table).where(where).limit(1);
  return row !== undefined;
}

/**
 * Adds `delta` to the step's count. With `changes()` as the delta, and run right after the
 * change in the same batch, that is the number of rows the change touched (SQLite's
 * `changes()` is the row count of the most recently completed INSERT, UPDATE or DELETE).
 */
export function addToCount(db: Database, requestId: string, key: string, delta: SQL) {
  const path = `$.${key}`;
  const current = sql`coalesce(json_extract(${erasureReceipts.deletedCounts}, ${path}), 0)`;
  return db
    .update(erasureReceipts)
    .set({ deletedCounts: sql`json_set(${erasureReceipts.deletedCounts}, ${path}, ${current} + ${delta})` })
    .where(eq(erasureReceipts.requestId, requestId));
}

export const ownSubmissions = (p: Person, db: Database) =>
  db.select({ id: submissions.id }).from(submissions).where(eq(submissions.candidateId, p.userId));

export const ownEvaluations = (p: Person, db: Database) =>
  db
    .select({ id: evaluations.id })
    .from(evaluations)
    .where(inArray(evaluations.submissionId, ownSubmissions(p, db)));
