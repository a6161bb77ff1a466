import { z } from '@hono/zod-openapi';

export const CheckStatusSchema = z.enum(['ok', 'degraded']).openapi('HealthCheckStatus');

/** One named check. Each check adds its own figures beside `status` and `detail`. */
const check = <T extends z.ZodRawShape>(shape: T) =>
  z.object({
    status: CheckStatusSchema,
    detail: z.string().openapi({ description: 'One line for a human.' }),
    ...shape,
  });

export const JobsHealthSchema = z
  .object({
    stalled: z.record(z.string(), z.number().int().min(0)).openapi({
      description:
        'Jobs that gave up and wait for an administrator, by kind (every kind listed, 0 when none).',
      example: { erasure: 0, evaluation: 1 },
    }),
  })
  .openapi('JobsHealth');

export const HealthSchema = z
  .object({
    status: CheckStatusSchema.openapi({
      description: '`degraded` when any check is; the API still serves (the answer is 200 either way).',
    }),
    checkedAt: z.string().datetime(),
    jobs: JobsHealthSchema,
    checks: z
      .object({
        jobs: check({}).openapi({ description: '`degraded` while any job is stalled.' }),
        baseUrl: check({
          ok: z.boolean(),
          configured: z
            .string()
            .openapi({ description: '`PUBLIC_BASE_URL`.', example: 'https://api.example.com' }),
          observed: z.string().nullable().openapi({
            description:
              'The origin requests arrive at when it differs from `PUBLIC_BASE_URL` (then every self-URL is wrong); null when they match.',
          }),
        }).openapi({ description: '`degraded` when the configured base URL is not where requests arrive.' }),
        configuration: check({
          missing: z
            .array(
              z.enum([
                'CERT_SIGNING_KEY',
                'CERT_PREVIOUS_PUBLIC_KEYS',
                'ADMIN_EMAIL',
                'ADMIN_PASSWORD',
                'PUBLIC_BASE_URL',
                'FINGERPRINT_SHARDS',
              ]),
            )
            .openapi({
              description: 'Names (never values) of required settings that are missing or unusable.',
            }),
        }).openapi({ description: '`degraded` while a required setting is missing or unusable.' }),
        outboundLoopback: check({
          switchOn: z.boolean().openapi({
            description:
              'Whether `WEBHOOKS_ALLOW_HTTP_LOCALHOST` (outbound fetches to http://localhost) is set.',
          }),
          honoured: z.boolean().openapi({
            description: 'Whether it takes effect: only when `PUBLIC_BASE_URL` is a loopback address.',
          }),
        }).openapi({
          description:
            '`degraded` when the loopback switch is set on a deployment whose base URL is not a loopback address (it is then ignored).',
        }),
        digilocker: check({
          configured: z.boolean().openapi({
            description:
              'Whether this server is a DigiLocker issuer: `DIGILOCKER_ORG_ID`, `DIGILOCKER_DOC_TYPE` and ' +
              '`DIGILOCKER_API_KEY` all set. Optional: `ok` either way.',
          }),
        })
          .optional()
          .openapi({ description: 'The DigiLocker issuer settings (docs/digilocker.md); never `degraded`.' }),
      })
      .openapi({
        description: 'Named checks; more may be added (a client must ignore ones it does not know).',
      }),
  })
  .openapi('Health', { description: 'The state of the service, without personal data.' });
