import { createRouter } from '../../lib/create-app';
import { cachedLeaderboard } from '../../services/leaderboard';
import * as routes from './leaderboard.routes';

export const leaderboardRouter = createRouter().openapi(routes.getLeaderboard, async (c) => {
  const { domain, limit } = c.req.valid('query');
  const board = await cachedLeaderboard(c.env, domain ?? null);
  const etag = `W/"${Date.parse(board.generatedAt).toString(36)}-${limit}"`;
  const headers = {
    ETag: etag,
    'Cache-Control': 'public, max-age=30',
    'Access-Control-Allow-Origin': '*',
    'Cross-Origin-Resource-Policy': 'cross-origin',
  };
  if (c.req.header('If-None-Match') === etag) return c.body(null, 304, headers);
  return c.json({ ...board, entries: board.entries.slice(0, limit) }, 200, headers);
});
