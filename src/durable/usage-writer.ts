/**
 * The rate limiter's D1 write of API-key usage (`RateLimiter.flushUsage`), kept apart so the
 * Durable Object's class, which the Worker's entry must export, does not bring D1's schema and
 * the ORM into the entry's static graph: a cold isolate would evaluate them at startup for every
 * request, a certificate link included (issue 54, decision 0328). Imported on the first flush.
 */
import { sql } from 'drizzle-orm';
import { getDb } from '../db/client';
import { apiKeyUsage } from '../db/schema';

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
