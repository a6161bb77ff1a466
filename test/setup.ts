import { env } from 'cloudflare:test';
import type { D1Migration } from '@cloudflare/vitest-plugin';

// Storage is isolated per test file, so every file starts on empty databases. All of a database's
// migrations go in one batch (one transaction, one round trip to D1) rather than one batch per
// migration: the same statements in the same order, recorded in d1_migrations as wrangler does.
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

await Promise.all([
  migrate(env.DB, env.TEST_MIGRATIONS),
  migrate(env.FINGERPRINTS_0, env.FINGERPRINT_MIGRATIONS),
  migrate(env.FINGERPRINTS_1, env.FINGERPRINT_MIGRATIONS),
]);
