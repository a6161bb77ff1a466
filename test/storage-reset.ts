/**
 * Empties the storage a test file wrote, so that the next file in the same workerd starts as a
 * new one would (test/setup.ts). The schema stays: migrating is done once per workerd.
 */

/** The tables, indexes and their SQL: what migrations made of the database. */
export async function schemaOf(db: D1Database): Promise<string> {
  const { results } = await db
    .prepare(
      "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY type, name",
    )
    .all<{ type: string; name: string; sql: string | null }>();
  return results.map((r) => `${r.type} ${r.name}: ${r.sql ?? ''}`).join('\n');
}

/**
 * Deletes every row of every table but the migrations' record, in one transaction. Foreign keys
 * are checked when it commits (`defer_foreign_keys`), when every row is gone, so the order of the
 * tables does not matter. AUTOINCREMENT counters start again, as in a new database.
 */
export async function emptyDatabase(db: D1Database): Promise<void> {
  const { results } = await db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name != 'd1_migrations'",
    )
    .all<{ name: string }>();
  const sequences = await db
    .prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'sqlite_sequence'")
    .first<{ n: number }>();
  await db.batch([
    db.prepare('PRAGMA defer_foreign_keys = ON'),
    ...results.map(({ name }) => db.prepare(`DELETE FROM "${name.replaceAll('"', '""')}"`)),
    ...(sequences?.n ? [db.prepare("DELETE FROM sqlite_sequence WHERE name != 'd1_migrations'")] : []),
  ]);
}

/** Deletes every key of a KV namespace. */
export async function emptyKv(kv: KVNamespace): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await kv.list({ cursor, limit: 1000 });
    await Promise.all(page.keys.map(({ name }) => kv.delete(name)));
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
}

/** Deletes every object of an R2 bucket. */
export async function emptyR2(bucket: R2Bucket): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ cursor, limit: 1000 });
    if (page.objects.length > 0) await bucket.delete(page.objects.map((o) => o.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
}
