import { z } from '@hono/zod-openapi';
import { shownText } from '../../http/validation';
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
        certificateNo: z
          .string()
          .optional()
          .openapi({
            description:
              'The candidate’s latest valid certificate in this board’s domain (its page is `/verify/{certificateNo}`). ' +
              'Present only when the candidate shows their own name both here (no separate alias) and on their ' +
              'certificate pages (`public_verification` consent); absent otherwise, and gone when either changes.',
          }),
      }),
    ),
  })
  .openapi('Leaderboard');

/**
 * `domain` and `limit`, shared with the embeddable HTML leaderboard. `domain` follows a brief's
 * domain rule (`shownText`): a value no brief can have (a bidi override, a control character)
 * is a 400, not an empty board whose page shows it on a frame any site may embed.
 */
export const LeaderboardQuerySchema = z.object({
  domain: shownText(100)
    .optional()
    .openapi({
      param: { name: 'domain', in: 'query' },
      description: 'Only this domain (e.g. `web-development`); all domains when absent.',
    }),
  limit: limitParam(10),
});
