/**
 * The fingerprint index behind one interface (issue 18): the single-store corpus in the main D1
 * database (`D1Corpus`, today's tables) and a sharded one (`ShardedCorpus`) over N D1 databases
 * bound as `FINGERPRINTS_0..N-1` (schema src/db/fingerprint-schema.ts, migrations in
 * migrations-fingerprints/). A fingerprint lives in the shard its hash maps to, with its document
 * frequency, so one hash is always answered by one shard and frequencies stay exact; a check fans
 * out one query batch per shard it needs, at most `maxParallel` at a time. Rebalancing
 * (docs/scaling.md): shards are addressed by `shardOf(hash, n)`; to grow from n to m, copy each
 * shard's rows to `shardOf(hash, m)` while writes go to both, then switch the count.
 */
import type { Database } from '../db/client';
import type { Fingerprint } from '../domain/integrity/winnowing';
import { ProblemError } from '../lib/problem';

/** A stored fingerprint that a check may match (its hash is held by ≤ MAX_SHARED_BY submissions). */
export type CorpusRow = { hash: number; submissionId: string; candidateId: string; position: number };

export interface FingerprintCorpus {
  /** Stores a submission's fingerprints and bumps their frequencies. */
  store(submissionId: string, candidateId: string, prints: Fingerprint[]): Promise<number>;
  /** The stored rows for `hashes`, skipping hashes held by more than MAX_SHARED_BY submissions. */
  lookup(hashes: number[]): Promise<{ rows: CorpusRow[]; rowsRead: number }>;
  /** Removes submissions' fingerprints and lowers their frequencies (erasure, deletion); returns the rows removed. */
  deleteSubmissions(submissionIds: string[]): Promise<number>;
}

/** A fingerprint in more stored submissions than this is boilerplate, not evidence. */
export const MAX_SHARED_BY = 20;
/** D1 allows 100 bound parameters per statement. */
const PARAMS_PER_STATEMENT = 100;
const chunks = <T>(items: T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};

type RawRow = { hash: number; submission_id: string; candidate_id: string; position: number };
const toRow = (r: RawRow): CorpusRow => ({
  hash: r.hash,
  submissionId: r.submission_id,
  candidateId: r.candidate_id,
  position: r.position,
});

/**
 * One statement per chunk of hashes: the rows of the hashes whose frequency is within
 * MAX_SHARED_BY. `candidateJoin` adds the candidate from `submissions` (the main database).
 */
function lookupStatements(d1: D1Database, hashes: number[], candidateJoin: boolean): D1PreparedStatement[] {
  return chunks(hashes, PARAMS_PER_STATEMENT - 1).map((chunk) =>
    d1
      .prepare(
        `SELECT f.hash, f.submission_id, f.position, ${candidateJoin ? 's.candidate_id' : 'f.candidate_id'} AS candidate_id
         FROM fingerprint_frequencies q JOIN fingerprints f ON f.hash = q.hash
         ${candidateJoin ? 'JOIN submissions s ON s.id = f.submission_id' : ''}
         WHERE q.submissions <= ? AND q.hash IN (${chunk.map(() => '?').join(', ')})`,
      )
      .bind(MAX_SHARED_BY, ...chunk),
  );
}

async function runLookup(d1: D1Database, hashes: number[], candidateJoin: boolean) {
  if (hashes.length === 0) return { rows: [], rowsRead: 0 };
  const results = await d1.batch<RawRow>(lookupStatements(d1, hashes, candidateJoin));
  return {
    rows: results.flatMap((r) => r.results.map(toRow)),
    rowsRead: results.reduce((n, r) => n + (r.meta.rows_read ?? 0), 0),
  };
}

/**
 * The statements that store a submission's fingerprints and bump their frequencies, for one
 * batch. A shard keeps the candidate on each row (it has no `submissions` table to join).
 */
function insertStatements(
  d1: D1Database,
  submissionId: string,
  prints: Fingerprint[],
  candidateId?: string,
): D1PreparedStatement[] {
  const columns = candidateId === undefined ? 3 : 4;
  const rows = chunks(prints, Math.floor(PARAMS_PER_STATEMENT / columns)).map((chunk) =>
    d1
      .prepare(
        candidateId === undefined
          ? `INSERT INTO fingerprints (hash, submission_id, position) VALUES ${chunk.map(() => '(?, ?, ?)').join(', ')}`
          : `INSERT INTO fingerprints (hash, submission_id, candidate_id, position) VALUES ${chunk.map(() => '(?, ?, ?, ?)').join(', ')}`,
      )
      .bind(
        ...chunk.flatMap((p) =>
          candidateId === undefined
            ? [p.hash, submissionId, p.position]
            : [p.hash, submissionId, candidateId, p.position],
        ),
      ),
  );
  const distinct = [...new Set(prints.map((p) => p.hash))];
  const frequencies = chunks(distinct, PARAMS_PER_STATEMENT).map((chunk) =>
    d1
      .prepare(
        `INSERT INTO fingerprint_frequencies (hash, submissions) VALUES ${chunk.map(() => '(?, 1)').join(', ')}
         ON CONFLICT (hash) DO UPDATE SET submissions = submissions + 1`,
      )
      .bind(...chunk),
  );
  return [...rows, ...frequencies];
}

/** Removes submissions' fingerprints and lowers their frequencies (erasure, deletion). */
export function deleteFingerprintStatements(d1: D1Database, submissionIds: string[]): D1PreparedStatement[] {
  // Each id is bound twice in the first statement, so 50 ids keep it within D1's 100 parameters.
  return chunks(submissionIds, PARAMS_PER_STATEMENT / 2).flatMap((ids) => {
    const marks = ids.map(() => '?').join(', ');
    const theirHashes = `SELECT hash FROM fingerprints WHERE submission_id IN (${marks})`;
    return [
      d1
        .prepare(
          `UPDATE fingerprint_frequencies SET submissions = submissions - (
             SELECT count(DISTINCT f.submission_id) FROM fingerprints f
             WHERE f.hash = fingerprint_frequencies.hash AND f.submission_id IN (${marks}))
           WHERE hash IN (${theirHashes})`,
        )
        .bind(...ids, ...ids),
      d1
        .prepare(`DELETE FROM fingerprint_frequencies WHERE submissions <= 0 AND hash IN (${theirHashes})`)
        .bind(...ids),
      d1.prepare(`DELETE FROM fingerprints WHERE submission_id IN (${marks})`).bind(...ids),
    ];
  });
}

/** Rows removed by deleteFingerprintStatements batches: every third statement deletes the fingerprints. */
const deletedRows = (results: D1Result[]) =>
  results.reduce((n, r, i) => n + (i % 3 === 2 ? (r.meta.changes ?? 0) : 0), 0);

/** Today's corpus: `fingerprints` and `fingerprint_frequencies` in the main database. */
export class D1Corpus implements FingerprintCorpus {
  constructor(private readonly d1: D1Database) {}

  async store(submissionId: string, _candidateId: string, prints: Fingerprint[]): Promise<number> {
    if (prints.length === 0) return 0;
    await this.d1.batch(insertStatements(this.d1, submissionId, prints));
    return prints.length;
  }

  lookup(hashes: number[]) {
    return runLookup(this.d1, [...new Set(hashes)], true);
  }

  async deleteSubmissions(submissionIds: string[]): Promise<number> {
    const statements = deleteFingerprintStatements(this.d1, submissionIds);
    if (statements.length === 0) return 0;
    return deletedRows(await this.d1.batch(statements));
  }
}

/** The shard (0..n-1) that owns `hash`: a multiplicative mix, so neighbouring hashes spread. */
export function shardOf(hash: number, n: number): number {
  let h = hash | 0;
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  return ((h ^ (h >>> 16)) >>> 0) % n;
}

/** Runs `tasks` with at most `limit` in flight. */
async function bounded<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const out: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await (tasks[i] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return out;
}

/** Most shard queries one check has in flight at once (a Worker allows 6 open connections). */
export const DEFAULT_MAX_PARALLEL_SHARDS = 6;

export class ShardedCorpus implements FingerprintCorpus {
  constructor(
    readonly shards: readonly D1Database[],
    private readonly maxParallel: number = DEFAULT_MAX_PARALLEL_SHARDS,
  ) {
    if (shards.length === 0) throw new Error('ShardedCorpus needs at least one shard');
  }

  private byShard<T>(items: T[], hashOf: (item: T) => number): Map<number, T[]> {
    const out = new Map<number, T[]>();
    for (const item of items) {
      const n = shardOf(hashOf(item), this.shards.length);
      const list = out.get(n);
      if (list) list.push(item);
      else out.set(n, [item]);
    }
    return out;
  }

  /**
   * Each shard's part commits atomically (one batch); the parts are independent. A failure
   * part-way leaves some shards written: the caller retries the whole store after
   * `deleteSubmissions([submissionId])`, which is idempotent.
   */
  async store(submissionId: string, candidateId: string, prints: Fingerprint[]): Promise<number> {
    const parts = [...this.byShard(prints, (p) => p.hash)];
    await bounded(
      parts.map(([n, part]) => async () => {
        const d1 = this.shards[n] as D1Database;
        await d1.batch(insertStatements(d1, submissionId, part, candidateId));
      }),
      this.maxParallel,
    );
    return prints.length;
  }

  async lookup(hashes: number[]) {
    const parts = [...this.byShard([...new Set(hashes)], (h) => h)];
    const results = await bounded(
      parts.map(
        ([n, part]) =>
          () =>
            runLookup(this.shards[n] as D1Database, part, false),
      ),
      this.maxParallel,
    );
    return {
      rows: results.flatMap((r) => r.rows),
      rowsRead: results.reduce((sum, r) => sum + r.rowsRead, 0),
    };
  }

  /** Every shard may hold some of a submission's fingerprints: all are asked, bounded. */
  async deleteSubmissions(submissionIds: string[]): Promise<number> {
    if (submissionIds.length === 0) return 0;
    const removed = await bounded(
      this.shards.map(
        (d1) => async () => deletedRows(await d1.batch(deleteFingerprintStatements(d1, submissionIds))),
      ),
      this.maxParallel,
    );
    return removed.reduce((a, b) => a + b, 0);
  }
}

/** Most shards a deployment may configure (bindings FINGERPRINTS_0..63). */
export const MAX_FINGERPRINT_SHARDS = 64;

/** What the live paths need to find the corpus: the main database and, when sharded, the shard count and bindings. */
export type CorpusEnv = { DB: D1Database; FINGERPRINT_SHARDS?: string };

/**
 * The corpus the live paths use (submission fingerprinting, checks, consent withdrawal, erasure):
 * the sharded one when `FINGERPRINT_SHARDS` is a count ≥ 1, the single store in the main database
 * when it is unset, empty or "0". A count that is not a whole number in 0..64, or a missing
 * `FINGERPRINTS_<n>` binding, is a configuration error (503 not-configured), never a silent
 * fallback that would write the corpus into the wrong place.
 */
export function corpusFor(env: CorpusEnv): FingerprintCorpus {
  const raw = env.FINGERPRINT_SHARDS?.trim() ?? '';
  if (raw === '' || raw === '0') return new D1Corpus(env.DB);
  const sharded = shardedCorpusFromEnv(env as unknown as Record<string, unknown>);
  if (!sharded)
    throw new ProblemError(
      'not-configured',
      `FINGERPRINT_SHARDS is "${raw}": it must be a whole number from 0 to ${MAX_FINGERPRINT_SHARDS}, with a D1 binding FINGERPRINTS_<n> for each shard.`,
    );
  return sharded;
}

/** Submissions per page when a person's work leaves the corpus (one id list per shard batch). */
const FORGET_PAGE = 50;

/**
 * Takes every submission of `candidateId` out of `corpus` (consent withdrawal, erasure): pages
 * through the person's submissions in the main database by id and deletes their fingerprints
 * from every shard, lowering the frequencies. Idempotent, so a retry after a failure part-way
 * finds what is left. Returns the fingerprint rows deleted.
 */
export async function forgetCandidate(
  db: Database,
  corpus: FingerprintCorpus,
  candidateId: string,
): Promise<number> {
  let removed = 0;
  let after = '';
  for (;;) {
    const { results } = await db.$client
      .prepare(
        `SELECT id FROM submissions WHERE candidate_id = ? AND id > ? ORDER BY id LIMIT ${FORGET_PAGE}`,
      )
      .bind(candidateId, after)
      .all<{ id: string }>();
    if (results.length === 0) return removed;
    removed += await corpus.deleteSubmissions(results.map((r) => r.id));
    after = results[results.length - 1]!.id;
    if (results.length < FORGET_PAGE) return removed;
  }
}

/**
 * The sharded corpus from `FINGERPRINT_SHARDS` (a count) and the bindings `FINGERPRINTS_<n>`;
 * null when the count is 0 or unset (the single store in the main database is used) or a
 * binding is missing (configuration error, reported by the caller as not-configured).
 */
export function shardedCorpusFromEnv(env: Record<string, unknown>): ShardedCorpus | null {
  const count = Number(env.FINGERPRINT_SHARDS ?? 0);
  if (!Number.isInteger(count) || count < 1 || count > MAX_FINGERPRINT_SHARDS) return null;
  const shards: D1Database[] = [];
  for (let i = 0; i < count; i++) {
    const binding = env[`FINGERPRINTS_${i}`] as D1Database | undefined;
    if (!binding || typeof binding.prepare !== 'function') return null;
    shards.push(binding);
  }
  return new ShardedCorpus(shards);
}
