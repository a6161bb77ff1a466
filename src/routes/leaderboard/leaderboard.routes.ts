import { createRoute, z } from '@hono/zod-openapi';
import { limitParam } from '../../lib/paging';
import { errorResponses, RATE_LIMIT_HEADERS } from '../../lib/problem';
import { ipRateLimit } from '../../middleware/rate-limit';

export const LeaderboardSchema = z
  .object({
    domain: z.string().nullable().openapi({ description: 'The domain, or null for all domains.' }),
    generatedAt: z.string().datetime(),
    entries: z.array(
      z.object({
        rank: z.number().int().min(1).openapi({ description: 'Ties share a rank (1, 2, 2, 4).' }),
        alias: z.string().openapi({ description: 'The public alias, or the display name when none is set.' }),
        certificates: z.number().int().min(1),
        averageEmployerScore: z
          .number()
          .nullable()
          .openapi({ description: 'Mean employer score (1–5) of rated work.' }),
      }),
    ),
  })
  .openapi('Leaderboard');

/** `domain` and `limit`, shared with the embeddable HTML leaderboard. */
export const LeaderboardQuerySchema = z.object({
  domain: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .openapi({
      param: { name: 'domain', in: 'query' },
      description: 'Only this domain (e.g. `web-development`); all domains when absent.',
    }),
  limit: limitParam(10),
});

export const getLeaderboard = createRoute({
  method: 'get',
  path: '/api/leaderboard',
  tags: ['Leaderboard'],
  summary: 'Public leaderboard by domain',
  description:
    'Candidates who consent to appear, ranked by active certificates and then average employer score. ' +
    'Cached; 60 requests per minute per IP. CORS is open for embedding.',
  security: [],
  middleware: ipRateLimit(),
  request: {
    query: LeaderboardQuerySchema,
  },
  responses: {
    200: {
      description: 'The leaderboard.',
      headers: {
        ...RATE_LIMIT_HEADERS,
        ETag: { schema: { type: 'string' } },
        'Cache-Control': { schema: { type: 'string' } },
      },
      content: { 'application/json': { schema: LeaderboardSchema } },
    },
    304: { description: 'Not modified (matches `If-None-Match`).' },
    ...errorResponses(400, 429),
  },
});
