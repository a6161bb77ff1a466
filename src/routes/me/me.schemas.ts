import { z } from '@hono/zod-openapi';

export const UpdateMeSchema = z
  .object({
    publicAlias: z.string().trim().min(2).max(40).nullable().openapi({
      description: 'The name shown on the public leaderboard; null to use the display name.',
      example: 'ravi.builds',
    }),
  })
  .strict()
  .openapi('UpdateProfileRequest');
