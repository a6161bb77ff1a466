/**
 * `Idempotency-Key` records (draft-ietf-httpapi-idempotency-key-header-07): one row per (caller,
 * key). The first request claims the key (an insert: D1 serialises the race, so exactly one of
 * two concurrent requests wins), runs, and stores its response; later requests with the same key
 * get that response back, a 409 while it is still running, a 422 when they are not the same
 * request. Rows live 24 hours; the cron deletes expired ones.
 */
import { and, eq, lte } from 'drizzle-orm';
import type { Database } from '../db/client';
import { idempotencyKeys } from '../db/schema';

/** How long a key is remembered. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * How long an in-flight claim holds. A Worker that dies mid-request never stores or releases its
 * claim; after this the key may be claimed again (no request here runs anywhere near as long).
 */
export const IDEMPOTENCY_LOCK_MS = 2 * 60 * 1000;
/** Responses larger than this are not stored (the claim is released, so a retry runs again). */
export const MAX_STORED_BODY = 512 * 1024;

export type Caller = { kind: 'apikey' | 'user'; id: string };

export type StoredResponse = { status: number; headers: Record<string, string>; body: string };

export type Claim =
  | { outcome: 'claimed' }
  | { outcome: 'replay'; response: StoredResponse }
  | { outcome: 'in-flight' }
  | { outcome: 'mismatch' };

type Row = typeof idempotencyKeys.$inferSelect;

const callerKey = (caller: Caller) => `${caller.kind}:${caller.id}`;

/** Claims `key` for this request, or says what an earlier request with the key left. */
export async function claimIdempotencyKey(
  db: Database,
  caller: Caller,
  key: string,
  requestHash: string,
  now: number = Date.now(),
): Promise<Claim> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const [inserted] = await db
      .insert(idempotencyKeys)
      .values({
        caller: callerKey(caller),
        key,
        userId: caller.kind === 'user' ? caller.id : null,
        apiKeyId: caller.kind === 'apikey' ? caller.id : null,
        requestHash,
        lockedUntil: new Date(now + IDEMPOTENCY_LOCK_MS),
        createdAt: new Date(now),
        expiresAt: new Date(now + IDEMPOTENCY_TTL_MS),
      })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (inserted) return { outcome: 'claimed' };

    const [row] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.caller, callerKey(caller)), eq(idempotencyKeys.key, key)))
      .limit(1);
    if (!row) continue; // released between the insert and the read: try the insert again
    const expired = row.expiresAt.getTime() <= now;
    const abandoned = row.status === null && row.lockedUntil.getTime() <= now;
    if (expired || abandoned) {
      // Forget it (only that very row: a concurrent reclaimer's fresh row is left alone) and claim again.
      await db
        .delete(idempotencyKeys)
        .where(
          and(
            eq(idempotencyKeys.caller, row.caller),
            eq(idempotencyKeys.key, key),
            eq(idempotencyKeys.createdAt, row.createdAt),
          ),
        );
      continue;
    }
    return decide(row, requestHash);
  }
  // Two reclaims lost in a row to other requests with the same key: one of them is running.
  return { outcome: 'in-flight' };
}

function decide(row: Row, requestHash: string): Claim {
  if (row.requestHash !== requestHash) return { outcome: 'mismatch' };
  if (row.status === null) return { outcome: 'in-flight' };
  return {
    outcome: 'replay',
    response: { status: row.status, headers: row.headers ?? {}, body: row.body ?? '' },
  };
}

/** Stores the response of the request that holds the claim. */
export async function completeIdempotencyKey(
  db: Database,
  caller: Caller,
  key: string,
  response: StoredResponse,
): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ status: response.status, headers: response.headers, body: response.body })
    .where(and(eq(idempotencyKeys.caller, callerKey(caller)), eq(idempotencyKeys.key, key)));
}

/** Gives the key back: the request failed in a way a retry should run again (5xx, 429). */
export async function releaseIdempotencyKey(db: Database, caller: Caller, key: string): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.caller, callerKey(caller)), eq(idempotencyKeys.key, key)));
}

/** The cron's sweep: records past their 24 hours. */
export async function purgeExpiredIdempotencyKeys(db: Database, now = new Date()): Promise<void> {
  await db.delete(idempotencyKeys).where(lte(idempotencyKeys.expiresAt, now));
}
