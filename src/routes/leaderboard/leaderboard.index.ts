import { createRouter } from '../../lib/create-app';
import { cachedLeaderboard, leaderboardBody } from '../../services/leaderboard';
import * as routes from './leaderboard.routes';

export const leaderboardRouter = createRouter().openapi(routes.getLeaderboard, async (c) => {
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
});
