import { z } from '@hono/zod-openapi';
import { limitParam } from '../../lib/paging';

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
