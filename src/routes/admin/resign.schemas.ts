import { z } from '@hono/zod-openapi';
import { RESIGN_PAGE_MAX } from '../../services/issuance/resign';

export const ResignPageSchema = z
  .object({
    after: z.string().min(1).max(64).nullable().optional().openapi({
      description: 'The `next` of the previous page; absent or null for the first.',
      example: null,
    }),
    limit: z
      .number()
      .int()
      .min(1)
      .max(RESIGN_PAGE_MAX)
      .optional()
      .openapi({ description: `Certificates re-signed in this call (default and most ${RESIGN_PAGE_MAX}).` }),
  })
  .strict()
  .openapi('CredentialResignPage');

export const ResignedPageSchema = z
  .object({
    resigned: z.array(z.string()).openapi({
      description: 'The numbers of the certificates whose credentials were signed again, in this page.',
      example: ['WEB-2026-0001-7'],
    }),
    next: z.string().nullable().openapi({
      description:
        'Send it as `after` for the next page; null when every live credential has been re-signed.',
    }),
  })
  .openapi('CredentialResignedPage');
