import { drizzle } from 'drizzle-orm/d1';
import * as schema from './schema';

export type Database = ReturnType<typeof getDb>;

/** One Drizzle handle over the `DB` binding; cheap to create per request. */
export function getDb(d1: D1Database) {
  return drizzle(d1, { schema });
}
