import { refreshPublicAgreement } from './agreement-rate';
import { LEADERBOARD_PREFIX, leaderboardMemory, PUBLIC_AGREEMENT_KEY } from './cache-keys';

/**
 * Writes one public KV key after a change: the agreement rate is recomputed and stored; a
 * leaderboard is deleted (the next reader recomputes it). Called at most once per second per key
 * (`KvCoalescer`).
 */
export async function writePublicView(env: Pick<Env, 'DB' | 'CACHE'>, key: string): Promise<void> {
  if (key === PUBLIC_AGREEMENT_KEY) {
    await refreshPublicAgreement(env);
    return;
  }
  if (key.startsWith(LEADERBOARD_PREFIX)) {
    leaderboardMemory.delete(key);
    await env.CACHE.delete(key);
    leaderboardMemory.delete(key);
  }
}
