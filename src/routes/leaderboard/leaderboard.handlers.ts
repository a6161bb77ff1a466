import { publicJson } from '../../http/finished-response';
import { rememberLeaderboardQuery } from '../../http/memory-reads';
import type { AppRouteHandler } from '../../http/types';
import { gzipBody } from '../../lib/content-coding';
import { cachedLeaderboard, LEADERBOARD_CACHE_CONTROL, leaderboardBody } from '../../services/leaderboard';
import type * as routes from './leaderboard.routes';

/** Hot path: the board's JSON is built once per board and limit, and sent as is. */
export const get: AppRouteHandler<typeof routes.getLeaderboard> = async (c) => {
  const { domain, limit } = c.req.valid('query');
  // This query string is valid: the same string may be answered from memory before the router.
  rememberLeaderboardQuery(c.req.url, { domain: domain ?? null, limit });
  const body = leaderboardBody(await cachedLeaderboard(c.get('db'), c.env, domain ?? null), limit);
  // Serialised once per board and limit (leaderboardBody), and gzipped once when asked for.
  const gzip = gzipBody(c.req.raw, body);
  return publicJson(c, body.json, body.etag, LEADERBOARD_CACHE_CONTROL, {
    gzip: gzip instanceof Promise ? await gzip : gzip,
  });
};
