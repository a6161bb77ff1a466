/**
 * Conditional writes in one D1 batch (one transaction). A change that must act only on the state a
 * request read is an UPDATE whose WHERE names that state; what goes with it (its audit entry, a job)
 * must then be written only if that UPDATE matched. A batch cannot branch, so those inserts are
 * `INSERT … SELECT … WHERE changes() > 0`: SQLite's `changes()` is the row count of the most
 * recently completed INSERT, UPDATE or DELETE, so each is written only if the statement just before
 * it wrote, and a chain of them after the UPDATE is all or nothing (as in src/services/workflow/
 * submissions.ts, which writes its one such insert by hand).
 */
import type { Database } from './client';

/** A Drizzle query not yet run. */
export type Query = { toSQL(): { sql: string; params: unknown[] } };

/** A Drizzle query as a D1 statement, for `d1.batch` (whose results carry each statement's `meta.changes`). */
export function statement(d1: D1Database, query: Query): D1PreparedStatement {
  const { sql, params } = query.toSQL();
  return d1.prepare(sql).bind(...params);
}

/**
 * A one-row Drizzle `insert(table).values(row)` as `INSERT … SELECT <the same values> WHERE
 * changes() > 0`. Drizzle writes such an insert as `insert into "t" (<columns>) values (<values>)`,
 * column defaults included, so the row is exactly the one `values` would write.
 */
export function insertIfChanged(d1: D1Database, insert: Query): D1PreparedStatement {
  const { sql, params } = insert.toSQL();
  const parts = /^(insert into "[^"]+" \([^)]*\)) values \((.*)\)$/s.exec(sql);
  if (!parts) throw new Error(`Not a one-row INSERT … VALUES: ${sql}`);
  return d1.prepare(`${parts[1]} select ${parts[2]} where changes() > 0`).bind(...params);
}

/**
 * Runs `update` and then `inserts` (each one-row, in order, written only if the statement before
 * it wrote) as one batch. False when `update` matched no row: then nothing at all was written.
 * A constraint the update breaks aborts the batch and throws, as any failed statement does.
 */
export async function updateThenInsert(db: Database, update: Query, inserts: Query[]): Promise<boolean> {
  const d1 = db.$client;
  const [result] = await d1.batch([statement(d1, update), ...inserts.map((q) => insertIfChanged(d1, q))]);
  return (result?.meta.changes ?? 0) > 0;
}
