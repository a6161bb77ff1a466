/** The integrity corpus as an explicit, optional purpose (`integrity_corpus`, notice v2). */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { CURRENT_NOTICE_VERSION } from '../src/domain/consent-notices';
import { consent, corpusShards, publishedBrief, shardPrintTotal, signup, submitAndWait } from './harness';
import { call } from './helpers';

/** The live corpus is sharded (FINGERPRINT_SHARDS = 2): a submission's rows across both shards. */
const printsOf = shardPrintTotal;

const WORK = (tag: string) =>
  `A careful write-up of the ${tag} cache design: we measured hit rates across three workloads, ` +
  'compared write-through against write-back, and chose write-back with a bounded dirty set because the ' +
  'measured tail latency halved while the durability window stayed under one second in every run.';

describe('integrity_corpus purpose (DPDP §6)', () => {
  it('is in the current notice, in English and Hindi', async () => {
    for (const lang of ['en', 'hi']) {
      const notice = await (await call(`/api/consent/notices/${CURRENT_NOTICE_VERSION}?lang=${lang}`)).json<{
        purposes: { purpose: string; data: string; withdraw: string }[];
      }>();
      const corpus = notice.purposes.find((p) => p.purpose === 'integrity_corpus');
      expect(corpus?.withdraw).toContain('POST /api/consent');
      expect(corpus?.data.length).toBeGreaterThan(20);
    }
  });

  it('keeps work out of the corpus without the consent, adds it with it, and removes it on withdrawal', async () => {
    const employer = await signup('employer');
    const brief = await publishedBrief(employer);
    const milestone = brief.playbook.milestones[0]!.id;
    const candidate = await signup('candidate');

    const without = await submitAndWait(candidate, milestone, { text: WORK('first') });
    expect(await printsOf(without.id)).toBe(0);

    await consent(candidate, 'integrity_corpus');
    const withConsent = await submitAndWait(candidate, milestone, { text: WORK('second') });
    const stored = await printsOf(withConsent.id);
    expect(stored).toBeGreaterThan(0);
    // Only work submitted while granted enters the corpus.
    expect(await printsOf(without.id)).toBe(0);

    // Its fingerprints spread over both shards (each hash lives in the shard it maps to).
    const perShard = await Promise.all(
      corpusShards().map(
        async (d1) =>
          (
            await d1
              .prepare('SELECT DISTINCT hash FROM fingerprints WHERE submission_id = ?')
              .bind(withConsent.id)
              .all<{ hash: number }>()
          ).results,
      ),
    );
    for (const hashes of perShard) expect(hashes.length).toBeGreaterThan(0);
    // Nothing went to the single store in the main database.
    const inMain = await env.DB.prepare('SELECT count(*) AS n FROM fingerprints WHERE submission_id = ?')
      .bind(withConsent.id)
      .first<{ n: number }>();
    expect(inMain?.n).toBe(0);

    await consent(candidate, 'integrity_corpus', 'revoke');
    expect(await printsOf(withConsent.id)).toBe(0);
    // Their document frequencies went down with them, in every shard (no hash counts the withdrawn submission).
    for (const [n, hashes] of perShard.entries()) {
      const sample = hashes.slice(0, 50).map((r) => r.hash);
      const left = await corpusShards()
        [n]!.prepare(
          `SELECT count(*) AS n FROM fingerprint_frequencies f WHERE f.hash IN (${sample.map(() => '?').join(',')})
             AND f.submissions > (SELECT count(DISTINCT submission_id) FROM fingerprints p WHERE p.hash = f.hash)`,
        )
        .bind(...sample)
        .first<{ n: number }>();
      expect(left?.n).toBe(0);
    }

    const after = await submitAndWait(candidate, milestone, { text: WORK('third') });
    expect(await printsOf(after.id)).toBe(0);
  });
});
