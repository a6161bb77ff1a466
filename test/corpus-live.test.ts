/**
 * The sharded corpus on the live paths (issue 18): what the submission route stores, the v1 check
 * finds, through the shards (FINGERPRINT_SHARDS = 2 in the test Worker); a check asks no more
 * shards at once than the bound; a bad shard count refuses with 503 and changes nothing.
 */
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { app } from '../src/app';
import { fingerprintSubmission } from '../src/domain/integrity/winnowing';
import { corpusFor, D1Corpus, ShardedCorpus } from '../src/services/corpus';
import { consent, issueKey, loginAdmin, publishedBrief, shardPrints, signup, submitAndWait } from './harness';
import { as, BASE, call, expectProblem, jsonInit } from './helpers';
import { assertDocumentedResponse } from './response-validation';

const WORK =
  'Our queue consumer batches the webhook deliveries per tenant, retries each failed delivery with ' +
  'exponential backoff capped at ten minutes, and moves a delivery that failed for a day to a ' +
  'dead-letter table that the tenant can inspect and replay from the dashboard, one delivery at a time.';

/** Runs the app with `overrides` on top of the test Worker's bindings (a deployment misconfigured). */
async function fetchWith(overrides: Record<string, unknown>, path: string, init: RequestInit) {
  const ctx = createExecutionContext();
  const url = `${BASE}${path}`;
  const res = await app.fetch(new Request(url, init), { ...env, ...overrides }, ctx);
  await waitOnExecutionContext(ctx);
  await assertDocumentedResponse(init.method ?? 'GET', url, res.clone());
  return res;
}

describe('the sharded corpus on the live paths', { timeout: 60_000 }, () => {
  it('a submission with corpus consent lands in the shards, and the v1 check matches it from there', async () => {
    const employer = await signup('employer');
    const brief = await publishedBrief(employer);
    const candidate = await signup('candidate');
    await consent(candidate, 'integrity_corpus');
    const stored = await submitAndWait(candidate, brief.playbook.milestones[0]!.id, { text: WORK });
    const perShard = await shardPrints(stored.id);
    expect(perShard.every((n) => n > 0)).toBe(true);

    const admin = await loginAdmin();
    const { key } = await issueKey(admin, ['integrity:check']);
    const res = await call(
      '/api/v1/integrity/check',
      jsonInit('POST', { text: WORK }, { 'X-Service-Key': key }),
    );
    expect(res.status).toBe(200);
    const report = await res.json<{
      signals: { plagiarism: { risk: number; evidence: { matchedSpans: { sourceRef: string }[] } } };
    }>();
    expect(report.signals.plagiarism.risk).toBeGreaterThan(0.5);
    expect(report.signals.plagiarism.evidence.matchedSpans.length).toBeGreaterThan(0);

    // The same text checked against the single store in the main database finds nothing: the
    // live path read the shards.
    const hashes = fingerprintSubmission({ text: WORK }).map((f) => f.hash);
    expect((await new D1Corpus(env.DB).lookup(hashes)).rows).toEqual([]);
    expect((await corpusFor(env).lookup(hashes)).rows.length).toBe(perShard[0]! + perShard[1]!);
  });

  it('a match whose submission is gone from the main database answers 200 and records no disclosure for it', async () => {
    // Shard rows of a submission erased while a check read them (no join to `submissions` in a shard).
    const ghost = { id: crypto.randomUUID(), candidateId: crypto.randomUUID() };
    const text = `${WORK} The ghost variant keeps a per-tenant ledger of replays and their outcomes.`;
    await corpusFor(env).store(ghost.id, ghost.candidateId, fingerprintSubmission({ text }));
    const admin = await loginAdmin();
    const { key } = await issueKey(admin, ['integrity:check'], 'Ghost partner');
    const res = await call('/api/v1/integrity/check', jsonInit('POST', { text }, { 'X-Service-Key': key }));
    expect(res.status).toBe(200);
    const report = await res.json<{ signals: { plagiarism: { risk: number } } }>();
    expect(report.signals.plagiarism.risk).toBeGreaterThan(0);
    const recorded = await env.DB.prepare(
      'SELECT count(*) AS n FROM integrity_disclosures WHERE submission_id = ?',
    )
      .bind(ghost.id)
      .first<{ n: number }>();
    expect(recorded?.n).toBe(0);
  });

  it('a bad FINGERPRINT_SHARDS answers 503 not-configured on the check, and a withdrawal records nothing', async () => {
    const admin = await loginAdmin();
    const { key } = await issueKey(admin, ['integrity:check']);
    for (const bad of ['3', 'two', '65']) {
      const res = await fetchWith(
        { FINGERPRINT_SHARDS: bad },
        '/api/v1/integrity/check',
        jsonInit('POST', { text: WORK }, { 'X-Service-Key': key, 'CF-Connecting-IP': '198.51.100.7' }),
      );
      const problem = await expectProblem(res, 503, 'not-configured');
      expect(problem.detail).toContain('FINGERPRINT_SHARDS');
    }

    // GET /api/health names the setting (never a value).
    const health = await fetchWith({ FINGERPRINT_SHARDS: '3' }, '/api/health', {});
    const report = await health.json<{ status: string; checks: { configuration: { missing: string[] } } }>();
    expect(report.status).toBe('degraded');
    expect(report.checks.configuration.missing).toEqual(['FINGERPRINT_SHARDS']);

    const candidate = await signup('candidate');
    await consent(candidate, 'integrity_corpus');
    const refused = await fetchWith(
      { FINGERPRINT_SHARDS: '3' },
      '/api/consent',
      jsonInit('POST', { purpose: 'integrity_corpus', action: 'revoke', noticeVersion: 'v2' }, as(candidate)),
    );
    await expectProblem(refused, 503, 'not-configured');
    const mine = await (await call('/api/me/consents', { headers: as(candidate) })).json<{
      states: Record<string, { state: string }>;
      history: unknown[];
    }>();
    expect(mine.states.integrity_corpus?.state).toBe('granted');
    expect(mine.history).toHaveLength(1);
  });

  it('"0" or unset keeps the single store; a count with its bindings is the sharded corpus', () => {
    expect(corpusFor({ DB: env.DB, FINGERPRINT_SHARDS: '0' })).toBeInstanceOf(D1Corpus);
    expect(corpusFor({ DB: env.DB })).toBeInstanceOf(D1Corpus);
    const sharded = corpusFor(env);
    expect(sharded).toBeInstanceOf(ShardedCorpus);
    expect((sharded as ShardedCorpus).shards).toHaveLength(2);
  });

  it('fans a check out to at most maxParallel shards at once, and every shard is asked', async () => {
    let inFlight = 0;
    let peak = 0;
    const asked = new Set<number>();
    // Eight shards that are all the same test database, each counting its concurrent batches.
    const shards = Array.from({ length: 8 }, (_, n) => {
      const d1 = env.FINGERPRINTS_0;
      return new Proxy(d1, {
        get(target, prop) {
          if (prop === 'batch')
            return async (statements: D1PreparedStatement[]) => {
              asked.add(n);
              inFlight++;
              peak = Math.max(peak, inFlight);
              try {
                await new Promise((r) => setTimeout(r, 5));
                return await target.batch(statements);
              } finally {
                inFlight--;
              }
            };
          const value = Reflect.get(target, prop);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    });
    const corpus = new ShardedCorpus(shards, 3);
    const hashes = fingerprintSubmission({ text: `${WORK} ${WORK.split(' ').reverse().join(' ')}` }).map(
      (f) => f.hash,
    );
    await corpus.lookup(hashes);
    expect(asked.size).toBe(8);
    expect(peak).toBeLessThanOrEqual(3);
    expect(peak).toBeGreaterThan(1);
  });
});
