import { z } from '@hono/zod-openapi';

export const AgreementRateSchema = z
  .object({
    agreementRate: z.number().min(0).max(1).openapi({
      description:
        'Share of rating pairs in the window where the AI verdict equals the employer verdict (0–1).',
      example: 0.8625,
    }),
    total: z.number().int().min(0).openapi({ description: 'Rating pairs counted.', example: 80 }),
    agreed: z.number().int().min(0).openapi({ description: 'Pairs that agree.', example: 69 }),
    sampleAdequate: z.boolean().openapi({ description: '`total >= threshold`.' }),
    windowDays: z
      .number()
      .int()
      .openapi({ description: 'Rolling window length; the public rate uses 90.', example: 90 }),
    threshold: z.number().openapi({
      description: 'Minimum number of pairs for the sample to count as adequate.',
      example: 30,
    }),
    updatedAt: z.string().datetime().openapi({ description: 'When the figure was computed.' }),
    kappa: z.number().nullable().openapi({
      description: "Cohen's kappa (agreement beyond chance); null when undefined (one category only).",
      example: 0.6693,
    }),
    confidenceInterval: z
      .object({ level: z.number(), lower: z.number(), upper: z.number() })
      .nullable()
      .openapi({ description: 'Wilson score interval for `agreementRate`; null when `total` is 0.' }),
    demo: z.boolean().openapi({
      description: 'True when there are no pairs yet and this is a demonstration payload, not a measurement.',
    }),
  })
  .openapi('AgreementRate');

export const ScopedAgreementSchema = z
  .object({
    scope: z
      .enum(['platform', 'employer'])
      .openapi({ description: 'Admins see the platform; employers their own briefs.' }),
    overall: AgreementRateSchema,
    byDomain: z.array(AgreementRateSchema.extend({ domain: z.string() })),
  })
  .openapi('ScopedAgreementRate');
