import { z } from '@hono/zod-openapi';

const token = () =>
  z
    .string()
    .min(10)
    .max(200)
    .regex(/^vpc_[A-Za-z0-9_-]+$/);

const lang = () =>
  z
    .enum(['en', 'hi'])
    .optional()
    .openapi({
      param: { name: 'lang', in: 'query' },
      description: 'The page’s language (else `Accept-Language`, else English).',
    });

export const ConfirmationQuerySchema = z.object({
  token: token().openapi({
    param: { name: 'token', in: 'query' },
    example: 'vpc_Q2hhbmdlIG1lIGZvciBhIHJlYWwgdG9rZW4',
  }),
  lang: lang(),
});

/** The language of the page whose form posts the token (the answer page is in it). */
export const ConfirmationLangQuerySchema = z.object({ lang: lang() });

export const ConfirmationBodySchema = z
  .object({
    token: token().openapi({
      description: 'The token of the mailed link (its `token` query parameter).',
      example: 'vpc_Q2hhbmdlIG1lIGZvciBhIHJlYWwgdG9rZW4',
    }),
  })
  .strict()
  .openapi('EmailConfirmationRequest');

export const ConfirmationResultSchema = z
  .object({
    email: z
      .string()
      .openapi({ description: 'The address confirmed (for `change`, now the sign-in address).' }),
    purpose: z.enum(['signup', 'change']),
    confirmedAt: z.string().datetime(),
    joinedOrganisationId: z.string().nullable().openapi({
      description: 'The organisation joined by the invitation the signup carried (accepted now), or null.',
    }),
  })
  .openapi('EmailConfirmationResult');

export const ConfirmationStatusSchema = z
  .object({
    email: z.string(),
    confirmed: z.boolean(),
    confirmedAt: z.string().datetime().nullable(),
    pendingEmail: z.string().nullable().openapi({
      description: 'A new address waiting for its confirmation (an email correction), or null.',
    }),
  })
  .openapi('EmailConfirmationStatus');

export const ConfirmationSentSchema = z
  .object({
    email: z.string().openapi({ description: 'Where the link was sent.' }),
    expiresAt: z.string().datetime().openapi({ description: 'When the new link stops working (24 hours).' }),
  })
  .openapi('EmailConfirmationSent');
