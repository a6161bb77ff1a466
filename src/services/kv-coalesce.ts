import type { Database } from '../db/client';
import { ALL_DOMAINS_KEY, leaderboardKey, PUBLIC_AGREEMENT_KEY } from './cache-keys';
import { writePublicView } from './public-views-writer';

/**
 * After a rating: the public agreement rate and the leaderboards it touches (the all-domains
 * board and the rating's domain) are rewritten through their `KvCoalescer` objects, so each key
 * is written at most once per second whatever the rating rate. Keys whose last write is older
 * than a second are written here at once (a slow trickle of ratings shows immediately).
 */
export async function publicViewsChanged(
  db: Database,
  env: Pick<Env, 'CACHE' | 'KV_COALESCER'>,
  domain: string,
): Promise<void> {
  const keys = [PUBLIC_AGREEMENT_KEY, ALL_DOMAINS_KEY, leaderboardKey(domain)];
  await Promise.all(
    keys.map(async (key) => {
      const decision = await env.KV_COALESCER.getByName(`kv:${key}`).request(key);
      if (decision.action === 'write') await writePublicView(db, env, key);
    }),
  );
}
