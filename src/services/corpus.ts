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
import type { Fingerprint } from '../domain/integrity/winnowing';
import { deleteFingerprintStatements, MAX_SHARED_BY, storeFingerprintRows } from './integrity';

/** A stored fingerprint that a check may match (its hash is held by ≤ MAX_SHARED_BY submissions). */
export type CorpusRow = { hash: number; submissionId: string; candidateId: string; position: number };

export interface FingerprintCorpus {
  /** Stores a submission's fingerprints and bumps their frequencies. */
  store(submissionId: string, candidateId: string, prints: Fingerprint[]): Promise<number>;
  /** The stored rows for `hashes`, skipping hashes held by more than MAX_SHARED_BY submissions. */
  lookup(hashes: number[]): Promise<{ rows: CorpusRow[]; rowsRead: number }>;
  /** Removes submissions' fingerprints and lowers their frequencies (erasure, deletion). */
  deleteSubmissions(submissionIds: string[]): Promise<void>;
}

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

/** Today's corpus: `fingerprints` and `fingerprint_frequencies` in the main database. */
export class D1Corpus implements FingerprintCorpus {
  constructor(private readonly d1: D1Database) {}

  store(submissionId: string, _candidateId: string, prints: Fingerprint[]): Promise<number> {
    return storeFingerprintRows(this.d1, submissionId, prints);
  }

  lookup(hashes: number[]) {
    return runLookup(this.d1, [...new Set(hashes)], true);
  }

  async deleteSubmissions(submissionIds: string[]): Promise<void> {
    const statements = deleteFingerprintStatements(this.d1, submissionIds);
    if (statements.length > 0) await this.d1.batch(statements);
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
        const rows = chunks(part, Math.floor(PARAMS_PER_STATEMENT / 4)).map((chunk) =>
          d1
            .prepare(
              `INSERT INTO fingerprints (hash, submission_id, candidate_id, position) VALUES ${chunk.map(() => '(?, ?, ?, ?)').join(', ')}`,
            )
            .bind(...chunk.flatMap((p) => [p.hash, submissionId, candidateId, p.position])),
        );
        const distinct = [...new Set(part.map((p) => p.hash))];
        const frequencies = chunks(distinct, PARAMS_PER_STATEMENT).map((chunk) =>
          d1
            .prepare(
              `INSERT INTO fingerprint_frequencies (hash, submissions) VALUES ${chunk.map(() => '(?, 1)').join(', ')}
               ON CONFLICT (hash) DO UPDATE SET submissions = submissions + 1`,
            )
            .bind(...chunk),
        );
        await d1.batch([...rows, ...frequencies]);
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
  async deleteSubmissions(submissionIds: string[]): Promise<void> {
    if (submissionIds.length === 0) return;
    await bounded(
      this.shards.map((d1) => async () => {
        await d1.batch(deleteFingerprintStatements(d1, submissionIds));
      }),
      this.maxParallel,
    );
  }
}

/** Most shards a deployment may configure (bindings FINGERPRINTS_0..63). */
export const MAX_FINGERPRINT_SHARDS = 64;

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
