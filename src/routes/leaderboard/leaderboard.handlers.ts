import type { AppRouteHandler } from '../../lib/types';
import { cachedLeaderboard, leaderboardBody } from '../../services/leaderboard';
import type * as routes from './leaderboard.routes';

/** Hot path: the board's JSON is built once per board and limit, and sent as is. */
export const get: AppRouteHandler<typeof routes.getLeaderboard> = async (c) => {
  const { domain, limit } = c.req.valid('query');
  const { json, etag } = leaderboardBody(await cachedLeaderboard(c.env, domain ?? null), limit);
  const headers = {
    ETag: etag,
    'Cache-Control': 'public, max-age=30',
    'Access-Control-Allow-Origin': '*',
    'Cross-Origin-Resource-Policy': 'cross-origin',
  };
  if (c.req.header('If-None-Match') === etag) return c.body(null, 304, headers);
  // Serialised once per board and limit (leaderboardBody), not on every request.
  return c.body(json, 200, { ...headers, 'Content-Type': 'application/json' });
};
