import { z } from '@hono/zod-openapi';

export const RenameReviewSchema = z
  .object({
    decision: z.enum(['approve', 'refuse']),
    reason: z.string().trim().min(3).max(1000).openapi({ example: 'Company registry shows the new name' }),
    name: z.string().trim().min(1).max(200).openapi({
      description: 'The waiting name you reviewed (`pendingName`); a 409 if the waiting name is another.',
      example: 'Acme Talent Pvt Ltd',
    }),
  })
  .strict()
  .openapi('OrganisationRenameReview');
