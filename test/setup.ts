import { env } from 'cloudflare:test';
import type { D1Migration } from '@cloudflare/vitest-plugin';
import { expect, vi } from 'vitest';
import { forgetIsolateState } from '../src/lib/isolate-state';
import { useLogLevel } from '../src/lib/log';
import { forgetAdminSession } from './harness';
import { emptyDatabase, emptyKv, emptyR2, schemaOf } from './storage-reset';

// Every test file starts on empty, migrated storage and a fresh isolate's memory.
//
// The service project runs many files in one workerd (vitest.config.ts, `isolate: false`): the
// app is imported once per Vitest worker instead of once per file, which was most of the suite's
// time. The first file of a worker migrates the databases; every later file finds them migrated
// and empties them (rows, KV keys, R2 objects), forgets what the isolate remembers
// (src/lib/isolate-state.ts: caches, limiter memory, the clock; Durable Objects empty themselves
// on their next call) and the fixtures' memoised admin session. A file that changes the schema
// itself runs in the `service-isolated` project; one that did so here would fail the check below.

// All of a database's migrations go in one batch (one transaction, one round trip to D1) rather
// than one batch per migration: the same statements in the same order, recorded in d1_migrations
// as wrangler does.
async function migrate(db: D1Database, migrations: D1Migration[]) {
  await db.batch([
    db.prepare(
      'CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)',
    ),
    ...migrations.flatMap((migration) => [
      ...migration.queries.map((query) => db.prepare(query)),
      db.prepare('INSERT INTO d1_migrations (name) VALUES (?)').bind(migration.name),
    ]),
  ]);
}

// Code a test calls directly (not through a request) logs at the tests' level too (LOG_LEVEL).
useLogLevel(env.LOG_LEVEL);

const databases: [string, D1Database, D1Migration[]][] = [
  ['DB', env.DB, env.TEST_MIGRATIONS],
  ['FINGERPRINTS_0', env.FINGERPRINTS_0, env.FINGERPRINT_MIGRATIONS],
  ['FINGERPRINTS_1', env.FINGERPRINTS_1, env.FINGERPRINT_MIGRATIONS],
];

/** The schema each database had right after its migrations, by binding (kept across files). */
const MIGRATED = Symbol.for('vpc.test.migrated-schemas');
const store = globalThis as typeof globalThis & { [MIGRATED]?: Map<string, string> };

if (!store[MIGRATED]) {
  await Promise.all(databases.map(([, db, migrations]) => migrate(db, migrations)));
  const schemas = new Map<string, string>();
  for (const [name, db] of databases) schemas.set(name, await schemaOf(db));
  store[MIGRATED] = schemas;
} else {
  const schemas = store[MIGRATED];
  const file = expect.getState().testPath ?? 'this file';
  const started = Date.now();
  // A file that left fake timers on would stop the next one's clock.
  vi.useRealTimers();
  forgetIsolateState();
  forgetAdminSession();
  await Promise.all([
    ...databases.map(([name, db]) =>
      bounded(`emptying ${name}`, file, async () => {
        if ((await schemaOf(db)) !== schemas.get(name))
          throw new Error(
            `${name}: a test file before ${file} changed the schema; run it in the service-isolated project (vitest.config.ts)`,
          );
        await emptyDatabase(db);
      }),
    ),
    bounded('emptying CACHE', file, () => emptyKv(env.CACHE)),
    bounded('emptying OAUTH_KV', file, () => emptyKv(env.OAUTH_KV)),
    bounded('emptying EXPORTS', file, () => emptyR2(env.EXPORTS)),
  ]);
  if (env.DEBUG_TEST_SETUP) console.error(`test setup: ${file} reset in ${Date.now() - started} ms`);
}

/** Runs a reset step, failing with its name rather than hanging the file (and the run) when it does not end. */
async function bounded(step: string, file: string, work: () => Promise<void>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`test setup of ${file}: ${step} did not finish in 20 s`)),
      20_000,
    );
  });
  try {
    await Promise.race([work(), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
