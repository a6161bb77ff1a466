import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { getDb } from '../src/db/client';
import { briefs, milestones, submissions, users } from '../src/db/schema';
import { fingerprintSubmission } from '../src/domain/integrity/winnowing';
import {
  D1Corpus,
  type FingerprintCorpus,
  MAX_SHARED_BY,
  ShardedCorpus,
  shardedCorpusFromEnv,
  shardOf,
} from '../src/services/corpus';
import { findMatches } from '../src/services/integrity';

/** A deterministic word stream (mulberry32), so the corpus is the same on every run. */
function words(seed: number, count: number): string {
  let a = seed >>> 0;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const r = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    out.push(`w${Math.floor(r * 5000).toString(36)}`);
  }
  return out.join(' ');
}

const BOILERPLATE = words(7, 120); // in every submission: more than MAX_SHARED_BY hold it
const SHARED = words(11, 150); // copied into a handful of submissions

async function seed() {
  const db = getDb(env.DB);
  const account = { passwordHash: 'x', passwordSalt: 'x', passwordIterations: 100_000 };
  const employerId = crypto.randomUUID();
  const candidates = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
  await db.insert(users).values([
    { id: employerId, email: `${employerId}@e.test`, name: 'E', role: 'employer', ...account },
    ...candidates.map((id) => ({
      id,
      email: `${id}@c.test`,
      name: 'C',
      role: 'candidate' as const,
      ...account,
    })),
  ]);
  const briefId = crypto.randomUUID();
  const milestoneId = crypto.randomUUID();
  await db.insert(briefs).values({
    id: briefId,
    employerId,
    title: 'Brief',
    domain: 'web',
    description: 'd',
    deliverables: ['a'],
    successCriteria: ['b'],
    durationDays: 7,
    state: 'published',
  });
  await db.insert(milestones).values({
    id: milestoneId,
    briefId,
    position: 1,
    day: 7,
    title: 'M',
    tasks: [],
    tutorialLinks: [],
    isFinal: true,
  });
  const single = new D1Corpus(env.DB);
  const sharded = new ShardedCorpus([env.FINGERPRINTS_0, env.FINGERPRINTS_1]);
  const stored: { id: string; candidateId: string }[] = [];
  for (let i = 0; i < MAX_SHARED_BY + 6; i++) {
    const id = crypto.randomUUID();
    const candidateId = candidates[i % 3] as string;
    await db.insert(submissions).values({ id, candidateId, briefId, milestoneId, state: 'rated' });
    const text = [words(100 + i, 200), BOILERPLATE, i % 5 === 0 ? SHARED : ''].join('\n\n');
    const prints = fingerprintSubmission({ text });
    await single.store(id, candidateId, prints);
    await sharded.store(id, candidateId, prints);
    stored.push({ id, candidateId });
  }
  return { single, sharded, stored, candidates };
}

const sortRows = (rows: { hash: number; submissionId: string; position: number; candidateId: string }[]) =>
  [...rows].sort(
    (a, b) => a.hash - b.hash || a.submissionId.localeCompare(b.submissionId) || a.position - b.position,
  );

describe('the fingerprint corpus: sharded equals single-store', () => {
  it('answers every lookup and match with the same results as the single store, before and after a deletion', async () => {
    const { single, sharded, stored, candidates } = await seed();
    const queries = [
      { text: `${words(100, 200)}\n\n${SHARED}` }, // a stored submission plus the shared passage
      { text: `${BOILERPLATE} ${words(999, 100)}` }, // boilerplate only: nothing may match
      { text: words(104, 60) }, // part of one stored submission
      { text: words(5555, 300) }, // nothing stored
    ];
    const compare = async () => {
      for (const q of queries) {
        const hashes = fingerprintSubmission(q).map((f) => f.hash);
        const [a, b] = [await single.lookup(hashes), await sharded.lookup(hashes)];
        expect(sortRows(b.rows)).toEqual(sortRows(a.rows));
        for (const options of [{}, { excludeCandidateId: candidates[0] as string }]) {
          const ma = await findMatches(single, hashes, options);
          const mb = await findMatches(sharded as FingerprintCorpus, hashes, options);
          expect([...mb.entries()].sort(([x], [y]) => x - y)).toEqual(
            [...ma.entries()].sort(([x], [y]) => x - y),
          );
        }
      }
    };
    await compare();
    // The shared passage matches; the boilerplate (in every submission) never does.
    const sharedHashes = fingerprintSubmission({ text: SHARED }).map((f) => f.hash);
    expect((await sharded.lookup(sharedHashes)).rows.length).toBeGreaterThan(0);
    const boilerplateHashes = fingerprintSubmission({ text: BOILERPLATE }).map((f) => f.hash);
    const boilerplateOnly = boilerplateHashes.filter((h) => !sharedHashes.includes(h));
    expect((await sharded.lookup(boilerplateOnly)).rows).toEqual([]);
    // Both shards hold part of the corpus, each hash only in the shard that owns it.
    for (const [n, d1] of [env.FINGERPRINTS_0, env.FINGERPRINTS_1].entries()) {
      const { results } = await d1.prepare('SELECT DISTINCT hash FROM fingerprints').all<{ hash: number }>();
      expect(results.length).toBeGreaterThan(100);
      expect(results.every((r) => shardOf(r.hash, 2) === n)).toBe(true);
    }

    // Erasure: deleting submissions removes them from every shard and lowers the frequencies alike.
    const gone = stored.filter((_, i) => i % 5 === 0).map((s) => s.id);
    await single.deleteSubmissions(gone);
    await sharded.deleteSubmissions(gone);
    await compare();
    for (const d1 of [env.FINGERPRINTS_0, env.FINGERPRINTS_1]) {
      const left = await d1
        .prepare(
          `SELECT count(*) AS n FROM fingerprints WHERE submission_id IN (${gone.map(() => '?').join(',')})`,
        )
        .bind(...gone)
        .first<{ n: number }>();
      expect(left?.n).toBe(0);
    }
    expect((await sharded.lookup(sharedHashes)).rows).toEqual([]);
  }, 60_000);

  it('builds the sharded corpus from FINGERPRINT_SHARDS and its bindings, or none', () => {
    const bindings = { FINGERPRINTS_0: env.FINGERPRINTS_0, FINGERPRINTS_1: env.FINGERPRINTS_1 };
    expect(shardedCorpusFromEnv({ ...bindings, FINGERPRINT_SHARDS: '2' })?.shards).toHaveLength(2);
    expect(shardedCorpusFromEnv({ ...bindings, FINGERPRINT_SHARDS: '0' })).toBeNull();
    expect(shardedCorpusFromEnv({ ...bindings })).toBeNull();
    expect(shardedCorpusFromEnv({ ...bindings, FINGERPRINT_SHARDS: '3' })).toBeNull(); // FINGERPRINTS_2 missing
  });

  it('spreads hashes evenly over the shards', () => {
    const counts = new Array(8).fill(0);
    for (let h = 0; h < 80_000; h++) counts[shardOf(h * 31 + 7, 8)]++;
    for (const c of counts) expect(Math.abs(c - 10_000)).toBeLessThan(500);
  });
});
