import type { Database } from '../db/client';
import { refreshPublicAgreement } from './agreement-rate';
import { LEADERBOARD_PREFIX, leaderboardMemory, PUBLIC_AGREEMENT_KEY, VERIFY_RECENT_KEY } from './cache-keys';
import { writeRecentNumbers } from './verification-filter';

/**
 * Writes one public KV key after a change: the agreement rate is recomputed and stored; a
 * leaderboard is deleted (the next reader recomputes it); the verification filter's recent
 * numbers are recomputed from D1. Called at most once per second per key
 * (`KvCoalescer`).
 */
export async function writePublicView(db: Database, env: Pick<Env, 'CACHE'>, key: string): Promise<void> {
  if (key === PUBLIC_AGREEMENT_KEY) {
    await refreshPublicAgreement(db, env);
    return;
  }
  if (key === VERIFY_RECENT_KEY) {
    await writeRecentNumbers(db, env);
    return;
  }
  if (key.startsWith(LEADERBOARD_PREFIX)) {
    leaderboardMemory.delete(key);
    await env.CACHE.delete(key);
    leaderboardMemory.delete(key);
  }
}
