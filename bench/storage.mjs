// Storage added to D1 by one maximal submission (docs/security.md → Storage).
//
// Runs the service's own `createSubmission` (bundled from src/ by esbuild) in Node over a fresh
// SQLite database with the project's migrations, the same engine D1 runs on, and measures
// what one submission adds: bytes (SQLite's dbstat: every page of every table and index, per
// table) and rows. The submission is maximal for the default limits: prose of unique words
// (the most fingerprints per byte) up to SUBMISSION_MAX_BYTES. For comparison it also stores
// the red team's case as it was before the limits: 1 MiB of prose, every fingerprint kept.
//
// Standalone: `BENCH_ONLY=storage npm run bench` (a few seconds, no wrangler); `npm run bench`
// runs it as its last section.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadBundle } from './lib/bundle.mjs';
import { nodeD1 } from './lib/d1-node.mjs';
import { printTable } from './lib/stats.mjs';

const ROOT = new URL('..', import.meta.url).pathname;

/** A fresh database in memory with every migration applied. */
function migratedDatabase() {
  const d1 = nodeD1(':memory:');
  const dir = join(ROOT, 'migrations');
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()) {
    for (const statement of readFileSync(join(dir, file), 'utf8').split('--> statement-breakpoint')) {
      if (statement.trim()) d1.prepare(statement).run();
    }
  }
  return d1;
}

/** Bytes per table and index (dbstat), and rows per table. */
async function measure(/** @type {any} */ d1) {
  const pages = (await d1.prepare('SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name').all())
    .results;
  /** @type {Record<string, number>} */
  const bytes = {};
  for (const p of pages) bytes[p.name] = Number(p.bytes);
  const tables = (
    await d1.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all()
  ).results.map((/** @type {{ name: string }} */ t) => t.name);
  /** @type {Record<string, number>} */
  const rows = {};
  for (const t of tables) rows[t] = Number((await d1.prepare(`SELECT count(*) AS n FROM "${t}"`).first()).n);
  return { bytes, rows };
}

/** Differences after − before, per name, without zeros. */
const diff = (/** @type {Record<string, number>} */ after, /** @type {Record<string, number>} */ before) =>
  Object.fromEntries(
    Object.entries(after)
      .map(([k, v]) => [k, v - (before[k] ?? 0)])
      .filter(([, v]) => v !== 0),
  );
const total = (/** @type {Record<string, number>} */ o) => Object.values(o).reduce((a, b) => a + b, 0);

/**
 * Prose of distinct pseudo-random words, `bytes` long (ASCII).
 * @param {number} bytes @param {number} seed
 */
function uniqueProse(bytes, seed) {
  let x = seed >>> 0;
  const next = () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x;
  };
  const parts = [];
  let length = 0;
  while (length < bytes) {
    const word = next()
      .toString(36)
      .slice(0, 3 + (next() % 6));
    parts.push(word);
    length += word.length + 1;
  }
  return parts.join(' ').slice(0, bytes);
}

/** Seeds one published brief with a milestone, and a candidate; returns their ids. */
async function seedPeople(/** @type {any} */ d1) {
  const now = Date.now();
  const stmt = (/** @type {string} */ sql, /** @type {unknown[]} */ ...params) =>
    d1
      .prepare(sql)
      .bind(...params)
      .run();
  const user = (/** @type {string} */ id, /** @type {string} */ role) =>
    stmt(
      `INSERT INTO users (id, email, name, role, password_hash, password_salt, password_iterations, created_at)
       VALUES (?, ?, ?, ?, 'x', 'x', 1, ?)`,
      id,
      `${id}@bench.invalid`,
      id,
      role,
      now,
    );
  await user('employer', 'employer');
  for (const c of ['maximal', 'unbounded']) {
    await user(c, 'candidate');
    // Their work enters the integrity corpus only with this consent (notice v2, issue 19).
    await stmt(
      `INSERT INTO consent_events (id, user_id, purpose, action, notice_version, language, created_at)
       VALUES (?, ?, 'integrity_corpus', 'grant', 'v2', 'en', ?)`,
      `consent-${c}`,
      c,
      now,
    );
  }
  await stmt(
    `INSERT INTO briefs (id, employer_id, title, domain, description, deliverables, success_criteria, duration_days, state, created_at)
     VALUES ('brief', 'employer', 'Bench brief', 'web-development', 'A brief.', '[]', '[]', 14, 'published', ?)`,
    now,
  );
  await stmt(
    `INSERT INTO milestones (id, brief_id, position, day, title, tasks, tutorial_links, is_final)
     VALUES ('milestone', 'brief', 1, 1, 'Milestone', '[]', '[]', 1)`,
  );
}

/**
 * @returns {Promise<{ limits: Record<string, number>; maximal: any; unbounded: any; maximalPerAccount: number }>}
 */
export async function benchStorage() {
  const { domain } = await loadBundle();
  const { createSubmission, getDb, DEFAULT_STORAGE_LIMITS, D1Corpus } = /** @type {any} */ (domain);
  const d1 = migratedDatabase();
  const db = getDb(d1);
  await seedPeople(d1);

  const one = async (
    /** @type {string} */ candidate,
    /** @type {string} */ text,
    /** @type {any} */ limits,
  ) => {
    const before = await measure(d1);
    // The single store in this one database: what a shard adds per row is measured by bench:corpus.
    const created = await createSubmission(
      db,
      candidate,
      { milestoneId: 'milestone', text },
      limits,
      new D1Corpus(d1),
    );
    const after = await measure(d1);
    const charged = Number(
      await d1
        .prepare('SELECT storage_bytes AS b FROM submissions WHERE id = ?')
        .bind(created.submissionId)
        .first('b'),
    );
    const bytes = diff(after.bytes, before.bytes);
    const rows = diff(after.rows, before.rows);
    return {
      contentBytes: text.length,
      bytes,
      rows,
      bytesAdded: total(bytes),
      rowsAdded: total(rows),
      charged,
    };
  };

  const maximal = await one(
    'maximal',
    uniqueProse(DEFAULT_STORAGE_LIMITS.submissionMaxBytes, 1),
    DEFAULT_STORAGE_LIMITS,
  );
  const unbounded = await one('unbounded', uniqueProse(1024 * 1024, 2), {
    ...DEFAULT_STORAGE_LIMITS,
    submissionMaxBytes: Number.POSITIVE_INFINITY,
    fingerprintsPerSubmission: Number.POSITIVE_INFINITY,
    accountStorageQuotaBytes: Number.POSITIVE_INFINITY,
  });
  d1.close();

  const kib = (/** @type {number} */ n) => `${(n / 1024).toFixed(1)} KiB`;
  const names = [...new Set([...Object.keys(maximal.bytes), ...Object.keys(unbounded.bytes)])].sort();
  printTable(
    ['table / index', 'maximal (256 KiB, limits on)', 'before the limits (1 MiB, uncapped)'],
    [
      ...names.map((n) => [n, kib(maximal.bytes[n] ?? 0), kib(unbounded.bytes[n] ?? 0)]),
      ['D1 bytes added', kib(maximal.bytesAdded), kib(unbounded.bytesAdded)],
      ['rows added', String(maximal.rowsAdded), String(unbounded.rowsAdded)],
      ['fingerprint rows', String(maximal.rows.fingerprints ?? 0), String(unbounded.rows.fingerprints ?? 0)],
      ['charged to the quota (storage_bytes)', kib(maximal.charged), kib(unbounded.charged)],
    ],
  );
  const quota = DEFAULT_STORAGE_LIMITS.accountStorageQuotaBytes;
  const perAccount = Math.floor(quota / maximal.charged);
  console.log(
    `A maximal submission adds ${kib(maximal.bytesAdded)} to D1 (${maximal.rowsAdded} rows) and is charged ${kib(maximal.charged)}; ` +
      `the ${kib(quota)} account quota holds ${perAccount} of them, ${kib(perAccount * maximal.bytesAdded)} of D1 at most.`,
  );
  return { limits: DEFAULT_STORAGE_LIMITS, maximal, unbounded, maximalPerAccount: perAccount };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchStorage();
  // The quota charges at least what D1 really holds for a maximal submission.
  process.exit(result.maximal.charged >= result.maximal.bytesAdded ? 0 : 1);
}
