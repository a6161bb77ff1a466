#!/usr/bin/env node
// `npm run bench:corpus`: the sharded integrity corpus at scale (issue 18), separate from
// `npm run bench` because it is heavy (minutes of seeding, gigabytes of local D1).
//
//  1. Two corpora, seeded straight into the local D1 SQLite files of `wrangler dev` (node:sqlite,
//     after the migrations, indexes dropped while rows go in, then rebuilt), in the corpus shard
//     schema (migrations-fingerprints/): CORPUS_SUBMISSIONS (default 1,000,000) stored
//     submissions over CORPUS_SHARDS (default 8) shards, each fingerprint in shard
//     `shardOf(hash, N)` (the service's own function), and CORPUS_BASELINE (default 100,000) in
//     one shard. CORPUS_PRINTS random 52-bit fingerprints per submission (default 20). Both hold
//     one submission with the real fingerprints of a passage every checked text quotes, and
//     boilerplate held by 30 submissions (above MAX_SHARED_BY = 20, so a check skips it).
//  2. Two `wrangler dev --local` services, identical but for the corpus (FINGERPRINT_SHARDS = N
//     and 1), answer CORPUS_CHECKS (default 30) `POST /api/v1/integrity/check` of different
//     2,000-word texts each, alternating; time to the last byte, shard rows read from the
//     bench instrumentation (X-D1-Shard-Rows-Read).
//  3. Prints p50/p99, rows read per check, storage per submission and the shards needed for 10
//     and 100 million submissions; exits 1 when the p50 ratio (sharded / one shard) is over 1.5.
import { readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { DEV_VARS, ensureDevVars, readDevVars } from '../scripts/lib/dev-vars.mjs';
import { runWrangler } from '../scripts/lib/wrangler.mjs';
import { checkedText } from './integrity.mjs';
import { issueApiKey } from './lib/api.mjs';
import { loadBundle } from './lib/bundle.mjs';
import { BOILERPLATE, prng, SHARED_PASSAGE } from './lib/seed.mjs';
import { buildWorker, prepareState, ROOT, startWorker } from './lib/server.mjs';
import { fmt, percentile, printTable } from './lib/stats.mjs';

const num = (/** @type {string} */ name, /** @type {number} */ fallback) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? Math.floor(v) : fallback;
};
const SUBMISSIONS = num('CORPUS_SUBMISSIONS', 1_000_000);
const BASELINE = num('CORPUS_BASELINE', 100_000);
const SHARDS = num('CORPUS_SHARDS', 8);
const PRINTS = num('CORPUS_PRINTS', 20);
const CHECKS = num('CORPUS_CHECKS', 30);
const TARGET_RATIO = 1.5;
/** Boilerplate holders: more than the service's MAX_SHARED_BY (20), so checks skip it. */
const BOILERPLATE_HOLDERS = 30;
/** Real texts: ~1,100 fingerprints per 2,000 words (docs/performance.md); the cap is 2,000. */
const REAL_PRINTS = 1_100;
/** A shard is planned full at 8 GB, headroom under D1's 10 GB per database. */
const SHARD_BYTES = 8e9;

const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
const step = (/** @type {string} */ msg) => console.log(`[${elapsed()}] ${msg}`);

ensureDevVars();
const vars = readDevVars();
const admin = { email: vars.ADMIN_EMAIL ?? '', password: vars.ADMIN_PASSWORD ?? '' };
const { domain } = await loadBundle();

// --- A service config with SHARDS corpus bindings (wrangler.toml has FINGERPRINTS_0 and _1).
step('bundling the service (bench entry, D1 instrumentation)');
const config = await buildWorker('wrangler.toml', '.wrangler/bench-corpus-build', 'bench/worker/index.ts');
{
  const { readFileSync } = await import('node:fs');
  let text = readFileSync(config, 'utf8');
  const migrations = JSON.stringify(join(ROOT, 'migrations-fingerprints'));
  for (let n = 2; n < SHARDS; n++) {
    text += `\n[[d1_databases]]\nbinding = "FINGERPRINTS_${n}"\ndatabase_name = "bench-fingerprints-${n}"\ndatabase_id = "00000000-0000-4000-8000-0000000001${String(n).padStart(2, '0')}"\nmigrations_dir = ${migrations}\n`;
  }
  writeFileSync(config, text);
}

const sqliteFiles = (/** @type {string} */ persistTo) => {
  const dir = join(persistTo, 'v3', 'd1', 'miniflare-D1DatabaseObject');
  try {
    return new Set(readdirSync(dir).filter((f) => f.endsWith('.sqlite') && f !== 'metadata.sqlite'));
  } catch {
    return new Set();
  }
};

/**
 * A fresh state directory: the main database migrated, and `shards` corpus databases with the
 * shard schema; returns the SQLite file of each shard (found as the file each apply created).
 * @param {string} stateDir @param {number} shards
 */
async function prepareShards(stateDir, shards) {
  const persistTo = await prepareState(stateDir);
  const dir = join(persistTo, 'v3', 'd1', 'miniflare-D1DatabaseObject');
  /** @type {string[]} */
  const files = [];
  for (let n = 0; n < shards; n++) {
    const before = sqliteFiles(persistTo);
    await runWrangler(
      [
        'd1',
        'migrations',
        'apply',
        `FINGERPRINTS_${n}`,
        '--local',
        '--persist-to',
        persistTo,
        '--config',
        config,
      ],
      { capture: true },
    );
    const created = [...sqliteFiles(persistTo)].filter((f) => !before.has(f));
    if (created.length !== 1)
      throw new Error(`FINGERPRINTS_${n}: expected one new SQLite file, found ${created.length}`);
    files.push(join(dir, /** @type {string} */ (created[0])));
  }
  return { persistTo, files };
}

const uuidOf = (/** @type {string} */ tag, /** @type {number} */ i) => {
  const h = `${tag}${i.toString(16)}`.padStart(32, '0');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

/**
 * Seeds `submissions` stored submissions into the shard files: PRINTS random fingerprints each,
 * plus the source submission (real fingerprints of SHARED_PASSAGE) and boilerplate held by
 * BOILERPLATE_HOLDERS submissions. Rows are written per shard in hash order (so the frequency
 * table's primary key is appended, not scattered), indexes built afterwards.
 * @param {string[]} files @param {number} submissions @param {number} seed
 */
function seedShards(files, submissions, seed) {
  const n = files.length;
  const rng = prng(seed);
  const total = submissions * PRINTS;
  const hash = new Float64Array(total);
  const sub = new Int32Array(total);
  const pos = new Int32Array(total);
  for (let s = 0, k = 0; s < submissions; s++) {
    for (let p = 0; p < PRINTS; p++, k++) {
      hash[k] = rng.hash52();
      sub[k] = s;
      pos[k] = p * 37;
    }
  }
  /** Extra rows: [hash, submission index, position]; submission index −1 is the source. */
  /** @type {[number, number, number][]} */
  const extra = [];
  for (const f of domain.fingerprintSubmission({ text: SHARED_PASSAGE }))
    extra.push([f.hash, -1, f.position]);
  const boilerplate = domain.fingerprintSubmission({ text: BOILERPLATE });
  for (let h = 0; h < BOILERPLATE_HOLDERS; h++)
    for (const f of boilerplate) extra.push([f.hash, (h * 7919) % submissions, f.position]);

  // Per shard: the indices of its rows, sorted by hash.
  /** @type {number[][]} */
  const byShard = Array.from({ length: n }, () => []);
  for (let k = 0; k < total; k++) byShard[domain.shardOf(/** @type {number} */ (hash[k]), n)]?.push(k);
  /** @type {[number, number, number][][]} */
  const extraByShard = Array.from({ length: n }, () => []);
  for (const e of extra) extraByShard[domain.shardOf(e[0], n)]?.push(e);

  const submissionId = (/** @type {number} */ s) => (s < 0 ? uuidOf('5', 0) : uuidOf(`${seed}`, s + 1));
  const candidateId = (/** @type {number} */ s) =>
    s < 0 ? uuidOf('c5', 0) : uuidOf(`c${seed}`, Math.floor(s / 10) + 1);

  for (let shard = 0; shard < n; shard++) {
    const db = new DatabaseSync(/** @type {string} */ (files[shard]));
    db.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -262144;');
    const indexes = /** @type {{ sql: string; name: string }[]} */ (
      db
        .prepare(
          "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'fingerprints' AND sql IS NOT NULL",
        )
        .all()
    );
    db.exec('BEGIN');
    for (const i of indexes) db.exec(`DROP INDEX ${i.name}`);
    /** @type {[number, number, number][]} */
    const rows = (byShard[shard] ?? []).map((k) => [
      /** @type {number} */ (hash[k]),
      /** @type {number} */ (sub[k]),
      /** @type {number} */ (pos[k]),
    ]);
    for (const e of extraByShard[shard] ?? []) rows.push(e);
    rows.sort((a, b) => a[0] - b[0]);
    const PER = 200;
    const insertMany = db.prepare(
      `INSERT INTO fingerprints (hash, submission_id, candidate_id, position) VALUES ${Array(PER).fill('(?, ?, ?, ?)').join(', ')}`,
    );
    const insertOne = db.prepare(
      'INSERT INTO fingerprints (hash, submission_id, candidate_id, position) VALUES (?, ?, ?, ?)',
    );
    const freq = db.prepare('INSERT INTO fingerprint_frequencies (hash, submissions) VALUES (?, ?)');
    let i = 0;
    for (; i + PER <= rows.length; i += PER) {
      /** @type {(string | number)[]} */
      const args = [];
      for (let j = i; j < i + PER; j++) {
        const [h, s, p] = /** @type {[number, number, number]} */ (rows[j]);
        args.push(h, submissionId(s), candidateId(s), p);
      }
      insertMany.run(...args);
    }
    for (; i < rows.length; i++) {
      const [h, s, p] = /** @type {[number, number, number]} */ (rows[i]);
      insertOne.run(h, submissionId(s), candidateId(s), p);
    }
    // Document frequency per hash: distinct submissions holding it (rows are in hash order).
    for (let a = 0; a < rows.length; ) {
      const h = /** @type {[number, number, number]} */ (rows[a])[0];
      const holders = new Set();
      let b = a;
      for (; b < rows.length && /** @type {[number, number, number]} */ (rows[b])[0] === h; b++)
        holders.add(/** @type {[number, number, number]} */ (rows[b])[1]);
      freq.run(h, holders.size);
      a = b;
    }
    for (const idx of indexes) db.exec(idx.sql);
    db.exec('COMMIT');
    db.close();
    byShard[shard] = [];
  }
  return { rows: total + extra.length };
}

const fileBytes = (/** @type {string[]} */ files) => files.reduce((n, f) => n + statSync(f).size, 0);

step(
  `corpus A: ${SUBMISSIONS.toLocaleString('en')} submissions over ${SHARDS} shards, ${PRINTS} fingerprints each`,
);
const sharded = await prepareShards('.wrangler/bench-corpus-sharded', SHARDS);
const seededA = seedShards(sharded.files, SUBMISSIONS, 11);
const bytesA = fileBytes(sharded.files);
step(`  ${(seededA.rows / 1e6).toFixed(1)} M rows, ${(bytesA / 1e9).toFixed(2)} GB`);
step(`corpus B: ${BASELINE.toLocaleString('en')} submissions in one shard`);
const single = await prepareShards('.wrangler/bench-corpus-single', 1);
const seededB = seedShards(single.files, BASELINE, 12);
const bytesB = fileBytes(single.files);
step(`  ${(seededB.rows / 1e6).toFixed(1)} M rows, ${(bytesB / 1e9).toFixed(2)} GB`);
const seedSeconds = (performance.now() - started) / 1000;
if (process.env.CORPUS_SEED_ONLY) process.exit(0);

step('starting wrangler dev: sharded (port 8795), one shard (port 8796)');
const common = { config, envFile: DEV_VARS, probe: '/.well-known/jwks.json' };
const workers = await Promise.allSettled([
  startWorker({
    name: 'sharded',
    port: 8795,
    persistTo: sharded.persistTo,
    vars: { D1_STATS: 'on', FINGERPRINT_SHARDS: String(SHARDS) },
    ...common,
  }),
  startWorker({
    name: 'single',
    port: 8796,
    persistTo: single.persistTo,
    vars: { D1_STATS: 'on', FINGERPRINT_SHARDS: '1' },
    ...common,
  }),
]);
const running = workers.flatMap((w) => (w.status === 'fulfilled' ? [w.value] : []));
const stopAll = () => Promise.all(running.map((w) => w.stop()));
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM']))
  process.once(signal, () => void stopAll().then(() => process.exit(130)));

let failed = false;
/** @type {Record<string, unknown>} */
const results = {
  startedAt: new Date().toISOString(),
  machine: { cpus: cpus().length, node: process.version, loadavgAtStart: loadavg() },
  settings: {
    submissions: SUBMISSIONS,
    baseline: BASELINE,
    shards: SHARDS,
    printsPerSubmission: PRINTS,
    checks: CHECKS,
  },
};
try {
  const rejected = workers.find((w) => w.status === 'rejected');
  if (rejected) throw rejected.reason;
  const [a, b] = running;
  if (!a || !b) throw new Error('a Worker did not start');
  const instances = { sharded: a.url, single: b.url };
  /** @type {Record<string, string>} */
  const keys = {};
  for (const [name, url] of Object.entries(instances))
    keys[name] = await issueApiKey(url, admin, ['integrity:check']);
  const check = async (/** @type {'sharded' | 'single'} */ which, /** @type {string} */ text) => {
    const t0 = performance.now();
    const res = await fetch(`${instances[which]}/api/v1/integrity/check`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'X-Service-Key': /** @type {string} */ (keys[which]),
        'X-D1-Stats': '1',
      },
      body: JSON.stringify({ text }),
    });
    const raw = await res.text();
    const ms = performance.now() - t0;
    if (res.status !== 200)
      throw new Error(`check on the ${which} corpus answered ${res.status}: ${raw.slice(0, 500)}`);
    const body = /** @type {{ signals?: { plagiarism?: { evidence?: { matchedCount: number } } } }} */ (
      JSON.parse(raw)
    );
    return {
      ms,
      rowsRead: Number(res.headers.get('x-d1-shard-rows-read') ?? Number.NaN),
      queries: Number(res.headers.get('x-d1-shard-queries') ?? Number.NaN),
      matched: body.signals?.plagiarism?.evidence?.matchedCount ?? 0,
    };
  };
  step(`${CHECKS} checks per corpus, alternating`);
  for (let i = 0; i < 3; i++)
    for (const w of /** @type {const} */ (['sharded', 'single'])) await check(w, checkedText(2000 + i));
  /** @type {Record<'sharded' | 'single', Awaited<ReturnType<typeof check>>[]>} */
  const runs = { sharded: [], single: [] };
  for (let i = 0; i < CHECKS; i++) {
    const order =
      i % 2 === 0
        ? /** @type {const} */ (['sharded', 'single'])
        : /** @type {const} */ (['single', 'sharded']);
    for (const w of order) runs[w].push(await check(w, checkedText(i)));
  }
  for (const w of /** @type {const} */ (['sharded', 'single']))
    if (runs[w].some((r) => r.matched === 0)) throw new Error(`a check on the ${w} corpus found no match`);
  const stats = (/** @type {'sharded' | 'single'} */ w) => ({
    p50: percentile(
      runs[w].map((r) => r.ms),
      50,
    ),
    p99: percentile(
      runs[w].map((r) => r.ms),
      99,
    ),
    rowsRead: percentile(
      runs[w].map((r) => r.rowsRead),
      50,
    ),
    queries: percentile(
      runs[w].map((r) => r.queries),
      50,
    ),
    matched: percentile(
      runs[w].map((r) => r.matched),
      50,
    ),
  });
  const s = stats('sharded');
  const o = stats('single');
  const perSubmission = bytesA / SUBMISSIONS;
  const perRow = bytesA / seededA.rows;
  const realPerSubmission = perRow * REAL_PRINTS;
  const shardsFor = (/** @type {number} */ n, /** @type {number} */ bytes) =>
    Math.ceil((n * bytes) / SHARD_BYTES);
  Object.assign(results, {
    sharded: { ...s, submissions: SUBMISSIONS, shards: SHARDS, bytes: bytesA, rows: seededA.rows },
    single: { ...o, submissions: BASELINE, shards: 1, bytes: bytesB, rows: seededB.rows },
    ratio: s.p50 / o.p50,
    ratioP99: s.p99 / o.p99,
    storage: { perSubmission, perRow, realPerSubmission },
    shardsNeeded: {
      tenMillion: { bench: shardsFor(1e7, perSubmission), real: shardsFor(1e7, realPerSubmission) },
      hundredMillion: { bench: shardsFor(1e8, perSubmission), real: shardsFor(1e8, realPerSubmission) },
    },
    seedSeconds,
  });
  console.log(
    `\nSharded corpus (${CHECKS} checks of different 2,000-word texts per corpus, alternating; ${PRINTS} fingerprints per stored submission)`,
  );
  printTable(
    [
      'corpus',
      'shards',
      'p50',
      'p99',
      'shard rows read / check (p50)',
      'shard queries',
      'matched',
      'D1 size',
    ],
    [
      [
        `${SUBMISSIONS.toLocaleString('en')} submissions`,
        String(SHARDS),
        fmt(s.p50),
        fmt(s.p99),
        String(s.rowsRead),
        String(s.queries),
        String(s.matched),
        `${(bytesA / 1e9).toFixed(2)} GB`,
      ],
      [
        `${BASELINE.toLocaleString('en')} submissions`,
        '1',
        fmt(o.p50),
        fmt(o.p99),
        String(o.rowsRead),
        String(o.queries),
        String(o.matched),
        `${(bytesB / 1e9).toFixed(2)} GB`,
      ],
    ],
  );
  console.log(
    `ratio (sharded / one shard): p50 ${(s.p50 / o.p50).toFixed(2)}, p99 ${(s.p99 / o.p99).toFixed(2)}; rows read ${(s.rowsRead / o.rowsRead).toFixed(2)}`,
  );
  console.log(
    `storage: ${(perSubmission / 1024).toFixed(1)} KB per submission at ${PRINTS} fingerprints (${perRow.toFixed(0)} B per fingerprint row, indexes and frequencies included); ` +
      `~${(realPerSubmission / 1024).toFixed(0)} KB at a real text's ~${REAL_PRINTS}`,
  );
  console.log(
    `shards of ${SHARD_BYTES / 1e9} GB needed: 10 M submissions ${shardsFor(1e7, realPerSubmission)} (real texts) / ${shardsFor(1e7, perSubmission)} (bench's ${PRINTS}); ` +
      `100 M ${shardsFor(1e8, realPerSubmission)} / ${shardsFor(1e8, perSubmission)}`,
  );
  const met = s.p50 / o.p50 <= TARGET_RATIO;
  console.log(
    `\ntarget: p50 ratio ≤ ${TARGET_RATIO}: ${met ? 'met' : 'MISSED'} (${elapsed()} in all; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})`,
  );
  if (!met) failed = true;
} catch (err) {
  failed = true;
  console.error(err);
} finally {
  await stopAll();
}
results.seconds = (performance.now() - started) / 1000;
const { mkdirSync } = await import('node:fs');
mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
writeFileSync(join(ROOT, 'bench', 'results', 'corpus.json'), `${JSON.stringify(results, null, 2)}\n`);
if (!process.env.CORPUS_KEEP) {
  rmSync(sharded.persistTo, { recursive: true, force: true });
  rmSync(single.persistTo, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
