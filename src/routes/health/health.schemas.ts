import { z } from '@hono/zod-openapi';

export const HealthSchema = z
  .object({
    status: z
      .enum(['ok', 'degraded'])
      .openapi({ description: '`degraded` when a check below failed; the API still serves.' }),
    checks: z.object({
      baseUrl: z.object({
        ok: z.boolean(),
        configured: z
          .string()
          .openapi({ description: '`PUBLIC_BASE_URL`.', example: 'https://api.example.com' }),
        observed: z.string().nullable().openapi({
          description:
            'The origin requests arrive at when it differs from `PUBLIC_BASE_URL` (then every self-URL is wrong); null when they match.',
        }),
      }),
    }),
  })
  .openapi('Health');
