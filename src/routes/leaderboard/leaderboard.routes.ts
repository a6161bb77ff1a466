import { defineRoute } from '../../http/route';
import { memoiseParse } from '../../http/validation';
import { GZIP_DESCRIPTION, GZIP_RESPONSE_HEADERS } from '../../lib/content-coding';
import { RATE_LIMIT_HEADERS } from '../../lib/problem';
import { ipRateLimit } from '../../middleware/rate-limit';
import { LeaderboardQuerySchema, LeaderboardSchema } from './leaderboard.schemas';

export const getLeaderboard = defineRoute({
  method: 'get',
  path: '/api/leaderboard',
  operationId: 'getLeaderboard',
  tags: ['Leaderboard'],
  summary: 'Public leaderboard by domain',
  description:
    'Candidates who consent to appear, ranked by active certificates and then average employer score. ' +
    `Cached; 60 requests per minute per IP. CORS is open for embedding. ${GZIP_DESCRIPTION}`,
  security: [],
  middleware: ipRateLimit(),
  request: {
    // The same few query strings, request after request: parsed once each (issue 43).
    query: memoiseParse(LeaderboardQuerySchema),
  },
  errors: [429],
  responses: {
    200: {
      description: 'The leaderboard.',
      headers: {
        ...RATE_LIMIT_HEADERS,
        ETag: { schema: { type: 'string' } },
        'Cache-Control': { schema: { type: 'string' } },
        ...GZIP_RESPONSE_HEADERS,
      },
      content: { 'application/json': { schema: LeaderboardSchema } },
    },
    304: { description: 'Not modified (matches `If-None-Match`).' },
  },
});
