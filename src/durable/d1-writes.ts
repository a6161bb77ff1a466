/**
 * The Durable Objects' writes to D1: API-key usage (`RateLimiter.flushUsage`) and a public view
 * (`KvCoalescer`'s trailing write). Kept apart so the objects' classes, which the Worker's entry
 * must export, do not bring D1's schema and the ORM into the entry's static graph: a cold isolate
 * would evaluate them at startup for every request, a certificate link included (issue 54,
 * decision 0328). Loaded on the first write, through `./d1-writes.load.ts`.
 */
import { sql } from 'drizzle-orm';
import { getDb } from '../db/client';
import { apiKeyUsage } from '../db/schema';
import { writePublicView } from '../services/public-views-writer';

export type UsageRow = {
  apiKeyId: string;
  day: string;
  success: number;
  clientError: number;
  rateLimited: number;
  serverError: number;
};

/** Adds `rows` to D1's daily usage counts in one batch of upserts. */
export async function writeUsage(d1: D1Database, rows: readonly UsageRow[]): Promise<void> {
  const db = getDb(d1);
  const statements = rows.map((row) =>
    db
      .insert(apiKeyUsage)
      .values(row)
      .onConflictDoUpdate({
        target: [apiKeyUsage.apiKeyId, apiKeyUsage.day],
        set: {
          success: sql`${apiKeyUsage.success} + excluded.success`,
          clientError: sql`${apiKeyUsage.clientError} + excluded.client_error`,
          rateLimited: sql`${apiKeyUsage.rateLimited} + excluded.rate_limited`,
          serverError: sql`${apiKeyUsage.serverError} + excluded.server_error`,
        },
      }),
  );
  const [first, ...rest] = statements;
  if (first) await db.batch([first, ...rest]);
}

/** Rewrites one public KV key from D1 (`writePublicView`). */
export async function writePublicViewKey(
  d1: D1Database,
  env: Pick<Env, 'CACHE'>,
  key: string,
): Promise<void> {
  await writePublicView(getDb(d1), env, key);
}
