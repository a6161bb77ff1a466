import { drizzle } from 'drizzle-orm/d1';
import * as schema from './schema';

export type Database = ReturnType<typeof getDb>;

/** One Drizzle handle over the `DB` binding; cheap to create per request. */
export function getDb(d1: D1Database) {
  return drizzle(d1, { schema });
}

/**
 * A handle for reads that may come from a D1 read replica (the Sessions API): used on
 * public cache misses, where a slightly stale row is fine and the nearest replica is faster.
 * Drizzle needs only `prepare`/`batch`, which a D1 session has.
 */
export function getReadReplicaDb(d1: D1Database) {
  if (typeof d1.withSession !== 'function') return getDb(d1);
  return getDb(d1.withSession('first-unconstrained') as unknown as D1Database);
}
