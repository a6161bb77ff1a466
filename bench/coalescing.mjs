// KV write coalescing (issue 18): 1,000 ratings in one minute, replayed against the rule the
// `KvCoalescer` Durable Object runs (src/domain/coalesce.ts, bundled for Node). Each rating
// changes three public KV keys (the agreement rate, the all-domains board and its domain's
// board); each key has its own coalescer, so the figures per key are the same for all three.
// Reports the KV writes per key within the minute (target ≤ 60: KV accepts about one write per
// second per key) and the longest a rating waited before the public numbers included it.
import { loadDomain } from './lib/bundle.mjs';
import { printTable } from './lib/stats.mjs';

export const COALESCING_TARGET_WRITES_PER_MINUTE = 60;

/** @param {{ ratings?: number; seconds?: number; seed?: number }} [o] */
export async function benchCoalescing({ ratings = 1000, seconds = 60, seed = 18 } = {}) {
  const domain = await loadDomain();
  // Arrival times: uniform at random over the minute (a seeded LCG, so runs are comparable),
  // plus a burst of 100 in one second, the shape a batch rating tool produces.
  let x = seed >>> 0;
  const rand = () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
  const t0 = 1_800_000_000_000;
  const span = seconds * 1000;
  const times = [
    ...Array.from({ length: ratings - 100 }, () => t0 + Math.floor(rand() * span)),
    ...Array.from({ length: 100 }, () => t0 + 30_000 + Math.floor(rand() * 1000)),
  ].sort((a, b) => a - b);
  const { writes, maxStalenessMs } = domain.simulateCoalescing(times);
  const inMinute = writes.filter((w) => w < t0 + span).length;
  let minGap = Number.POSITIVE_INFINITY;
  for (let i = 1; i < writes.length; i++) minGap = Math.min(minGap, writes[i] - writes[i - 1]);
  const result = {
    ratings,
    seconds,
    keysPerRating: 3,
    writesPerKey: inMinute,
    writesPerKeyIncludingTrailing: writes.length,
    writesWithoutCoalescing: ratings,
    minGapMs: minGap,
    maxStalenessMs,
    intervalMs: domain.KV_WRITE_INTERVAL_MS,
  };
  console.log(`\nKV writes for ${ratings} ratings in ${seconds} s (per key; 3 keys per rating)`);
  printTable(
    ['measure', 'value'],
    [
      ['KV writes per key within the minute', String(inMinute)],
      ['KV writes per key with the trailing write', String(writes.length)],
      ['without coalescing (one per rating)', String(ratings)],
      ['shortest gap between two writes of a key', `${minGap} ms`],
      ['public numbers stale at most', `${maxStalenessMs} ms (+ the write itself)`],
    ],
  );
  return result;
}
