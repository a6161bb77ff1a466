import { publicJson } from '../../http/finished-response';
import type { AppRouteHandler } from '../../http/types';
import { gzipBody } from '../../lib/content-coding';
import { cachedLeaderboard, leaderboardBody } from '../../services/leaderboard';
import type * as routes from './leaderboard.routes';

/** Hot path: the board's JSON is built once per board and limit, and sent as is. */
export const get: AppRouteHandler<typeof routes.getLeaderboard> = async (c) => {
  const { domain, limit } = c.req.valid('query');
  const body = leaderboardBody(await cachedLeaderboard(c.get('db'), c.env, domain ?? null), limit);
  // Serialised once per board and limit (leaderboardBody), and gzipped once when asked for.
  const gzip = gzipBody(c.req.raw, body);
  return publicJson(c, body.json, body.etag, 'public, max-age=30', {
    gzip: gzip instanceof Promise ? await gzip : gzip,
  });
};
