// Integrity check time against 1,000 and 100,000 stored submissions.
//
// Method: two service instances in the same run, identical except for the corpus: the small
// one holds 1,000 fingerprinted submissions, the large one 100,000 (bench/lib/seed.mjs). Both
// hold the one submission the checked texts copy a passage from (real fingerprints, so matches
// are found and joined) and boilerplate held by more than 20 submissions (skipped by the
// frequency filter). Each check is `POST /api/v1/integrity/check` with a different
// 2,000-word text; checks alternate between the instances (small, large, small, …) so both
// see the same machine. Time is the client's, request to last byte.
import { d1Header, issueApiKey } from './lib/api.mjs';
import { BOILERPLATE, prng, prose, SHARED_PASSAGE } from './lib/seed.mjs';
import { fmt, percentile, printTable } from './lib/stats.mjs';

export const WORDS_PER_TEXT = 2000;

/** @param {number} i */
export function checkedText(i) {
  const rng = prng(9000 + i);
  const shared = SHARED_PASSAGE.split(' ').length + BOILERPLATE.split(' ').length;
  const before = Math.floor((WORDS_PER_TEXT - shared) / 2);
  return `${prose(rng, before)} ${SHARED_PASSAGE} ${prose(rng, 200)} ${BOILERPLATE} ${prose(rng, WORDS_PER_TEXT - shared - before - 200)}`;
}

/**
 * @param {{
 *   small: { url: string; corpus: number };
 *   large: { url: string; corpus: number };
 *   admin: { email: string; password: string };
 *   checks: number;
 *   unfilteredRows: { small: number; large: number };
 * }} o `unfilteredRows`: fingerprint rows holding the first text's hashes in each corpus, i.e.
 *   what the lookup would read without the frequency filter
 */
export async function benchIntegrity(o) {
  const instances = /** @type {const} */ (['small', 'large']);
  /** @type {Record<'small' | 'large', string>} */
  const keys = {
    small: await issueApiKey(o.small.url, o.admin, ['integrity:check']),
    large: await issueApiKey(o.large.url, o.admin, ['integrity:check']),
  };
  /** @param {'small' | 'large'} which @param {string} text */
  const check = async (which, text) => {
    const started = performance.now();
    const res = await fetch(`${o[which].url}/api/v1/integrity/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-Service-Key': keys[which], 'X-D1-Stats': '1' },
      body: JSON.stringify({ text }),
    });
    const body =
      /** @type {{ signals?: { plagiarism?: { evidence?: { matchedCount: number; fingerprintCount: number } } } }} */ (
        await res.json()
      );
    const ms = performance.now() - started;
    if (res.status !== 200) throw new Error(`integrity check on the ${which} corpus answered ${res.status}`);
    const evidence = body.signals?.plagiarism?.evidence;
    return {
      ms,
      ...d1Header(res),
      matched: evidence?.matchedCount ?? 0,
      fingerprints: evidence?.fingerprintCount ?? 0,
    };
  };

  for (let i = 0; i < 3; i++) for (const w of instances) await check(w, checkedText(1000 + i)); // warm-up
  /** @type {Record<'small' | 'large', Awaited<ReturnType<typeof check>>[]>} */
  const runs = { small: [], large: [] };
  for (let i = 0; i < o.checks; i++) {
    const text = checkedText(i);
    const order = i % 2 === 0 ? instances : /** @type {const} */ (['large', 'small']);
    for (const w of order) runs[w].push(await check(w, text));
  }
  for (const w of instances) {
    if (runs[w].some((r) => r.matched === 0))
      throw new Error(`integrity: a check on the ${w} corpus found no match`);
  }
  const stats = (/** @type {'small' | 'large'} */ w) => {
    const ms = runs[w].map((r) => r.ms);
    return {
      corpus: o[w].corpus,
      checks: ms.length,
      p50: percentile(ms, 50),
      p99: percentile(ms, 99),
      rowsReadP50: percentile(
        runs[w].map((r) => r.rowsRead),
        50,
      ),
      fingerprintsPerText: percentile(
        runs[w].map((r) => r.fingerprints),
        50,
      ),
      matchedPerText: percentile(
        runs[w].map((r) => r.matched),
        50,
      ),
    };
  };
  const small = stats('small');
  const large = stats('large');
  const result = {
    words: WORDS_PER_TEXT,
    small: { ...small, unfilteredRows: o.unfilteredRows.small },
    large: { ...large, unfilteredRows: o.unfilteredRows.large },
    ratio: large.p50 / small.p50,
    ratioP99: large.p99 / small.p99,
  };
  console.log(
    `\nIntegrity check (${o.checks} checks of different ${WORDS_PER_TEXT}-word texts per corpus, alternating)`,
  );
  printTable(
    [
      'stored submissions',
      'p50',
      'p99',
      'D1 rows read (p50)',
      'rows without the filter',
      'fingerprints / matched',
    ],
    [result.small, result.large].map((s) => [
      s.corpus.toLocaleString('en'),
      fmt(s.p50),
      fmt(s.p99),
      String(s.rowsReadP50),
      String(s.unfilteredRows),
      `${s.fingerprintsPerText} / ${s.matchedPerText}`,
    ]),
  );
  console.log(`ratio (100,000 / 1,000): p50 ${result.ratio.toFixed(2)}, p99 ${result.ratioP99.toFixed(2)}`);
  return result;
}
