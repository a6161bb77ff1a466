import { z } from '@hono/zod-openapi';
import { API_KEY_SCOPES, JOB_STATES } from '../../db/schema';
import { shownText } from '../../http/validation';
import { pageSchema } from '../../lib/paging';
import { RATE_LIMITS } from '../../middleware/rate-limit';
import { DEFAULT_ROLL_GRACE_SECONDS, MAX_ROLL_GRACE_SECONDS } from '../../services/api-keys';
import { AnyScopeSchema } from '../v1/keys/keys.schemas';

export const CreateApiKeySchema = z
  .object({
    // Shown in key lists and usage reports: no control, bidi-override or invisible characters
    // (a name "\u202egnp.exe" lists as "exe.png").
    name: shownText(100).openapi({ example: 'Acme Careers production' }),
    scopes: z
      .array(AnyScopeSchema)
      .min(1)
      .max(API_KEY_SCOPES.length)
      .openapi({ example: ['playbooks:generate'] }),
    organisationId: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .openapi({
        description:
          "The organisation the key belongs to. Required with `webhooks:manage` (its endpoints are the organisation's; " +
          'without one, 422). ' +
          'An unknown id is a 404.',
      }),
    expiresAt: z.iso.datetime({ offset: true }).max(40).optional().openapi({
      description:
        'When the key stops working (401 `unauthenticated`, saying it expired). Must be in the future.',
      example: '2027-06-30T00:00:00Z',
    }),
    ratelimitPerMinute: z
      .number()
      .int()
      .min(1)
      .max(RATE_LIMITS.apikey.limit - 1)
      .optional()
      .openapi({
        description: `A limit of the key's own per 60-second sliding window, below the default (${RATE_LIMITS.apikey.limit}).`,
        example: 120,
      }),
  })
  .strict()
  // A webhooks key acts for an organisation's endpoints: without one it could never work.
  .refine((b) => !b.scopes.includes('webhooks:manage') || b.organisationId !== undefined, {
    message: '`webhooks:manage` needs an organisationId: the endpoints it manages are an organisation’s',
    path: ['organisationId'],
  })
  .openapi('CreateApiKeyRequest');

export const RollApiKeySchema = z
  .object({
    gracePeriodSeconds: z
      .number()
      .int()
      .min(0)
      .max(MAX_ROLL_GRACE_SECONDS)
      .default(DEFAULT_ROLL_GRACE_SECONDS)
      .openapi({
        description:
          'How long the old secret keeps working (default 86400, a day; at most 7 days). 0 ends it at once.',
        example: 3600,
      }),
  })
  .strict()
  .openapi('RollApiKeyRequest');

export const UsageCountsSchema = z.object({
  success: z.number().int().openapi({ description: '2xx and 3xx responses.' }),
  clientError: z
    .number()
    .int()
    .openapi({ description: '4xx responses other than 429 (bad input, missing scope…).' }),
  rateLimited: z.number().int().openapi({ description: '429 responses: refused by the rate limit.' }),
  serverError: z.number().int().openapi({
    description: '5xx responses: our failures, counted apart so they never count against the key.',
  }),
});

export const ApiKeyUsageSchema = z
  .object({
    apiKeyId: z.string(),
    from: z
      .string()
      .openapi({ description: 'First UTC day of the report (`YYYY-MM-DD`), 89 days before `to`.' }),
    to: z.string().openapi({ description: 'Last UTC day of the report: today.' }),
    days: z.array(UsageCountsSchema.extend({ day: z.string().openapi({ example: '2026-11-23' }) })).openapi({
      description: 'Every day of the 90, oldest first (days without requests are zeros).',
    }),
    totals: UsageCountsSchema,
  })
  .openapi('ApiKeyUsage', {
    description:
      'Requests per UTC day by outcome for the last 90 days. Counted by the rate limiter and written behind in ' +
      'batches; the report adds what is not written yet, so it is exact up to the request that asks.',
  });

export const ApiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z
      .string()
      .openapi({ description: 'The first characters of the key, to recognise it.', example: 'vpk_3fQ9xKp2' }),
    scopes: z.array(AnyScopeSchema),
    organisationId: z
      .string()
      .nullable()
      .openapi({ description: 'The organisation the key acts for, if any.' }),
    createdAt: z.string().datetime(),
    lastUsedAt: z.string().datetime().nullable(),
    revokedAt: z.string().datetime().nullable(),
    expiresAt: z
      .string()
      .datetime()
      .nullable()
      .openapi({ description: 'When the key stops working; null: never.' }),
    ratelimitPerMinute: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "The key's own limit per minute; null: the default." }),
    rolledAt: z.string().datetime().nullable().openapi({ description: 'When the secret was last rolled.' }),
    previousKeyExpiresAt: z
      .string()
      .datetime()
      .nullable()
      .openapi({ description: 'While the secret a roll replaced still works: when it stops.' }),
  })
  .openapi('ApiKey');

export const CreatedApiKeySchema = ApiKeySchema.extend({
  key: z.string().openapi({ description: 'The key itself. Shown only in this response; store it now.' }),
}).openapi('CreatedApiKey');

export const ApiKeyPageSchema = pageSchema(ApiKeySchema, 'ApiKeyPage');

export const JobStateSchema = z.enum(JOB_STATES).openapi('JobState', {
  description:
    '`pending` (written, maybe enqueued) → `running` (leased) → `done`; `stalled` when it gave up ' +
    '(dead-lettered, past its deadline, or refused by its handler) and waits for an administrator.',
});

export const JobSchema = z
  .object({
    id: z.string(),
    kind: z.string().openapi({ description: 'What the job does.', example: 'erasure' }),
    state: JobStateSchema,
    ref: z.string().nullable().openapi({
      description: 'The record it acts on: the request id of an erasure, the evaluation id of an evaluation.',
    }),
    attempts: z.number().int().openapi({ description: 'Times a consumer took it.' }),
    lastError: z.string().nullable(),
    dueAt: z
      .string()
      .datetime()
      .nullable()
      .openapi({ description: 'A legal due date, when the work has one (erasure: 30 days).' }),
    deadlineAt: z
      .string()
      .datetime()
      .openapi({ description: 'When the sweeper gives up and marks it stalled.' }),
    enqueuedAt: z.string().datetime().nullable(),
    leaseUntil: z.string().datetime().nullable(),
    createdAt: z.string().datetime(),
    updatedAt: z.string().datetime().nullable(),
    completedAt: z.string().datetime().nullable(),
    stalledAt: z.string().datetime().nullable(),
  })
  .openapi('Job', { description: 'A deferred job (never its payload, which may name the person).' });

export const JobPageSchema = pageSchema(JobSchema, 'JobPage');
export const AuditEntrySchema = z
  .object({
    id: z.string(),
    actorId: z
      .string()
      .nullable()
      .openapi({ description: 'Who acted; null for the system or an unauthenticated caller.' }),
    action: z.string().openapi({ example: 'api_key.issued' }),
    targetType: z.string().openapi({ example: 'api_key' }),
    targetId: z.string().nullable(),
    ip: z
      .string()
      .nullable()
      .openapi({ description: 'The client address, recorded for uses of powers.', example: '198.51.100.7' }),
    details: z.record(z.string(), z.unknown()).nullable(),
    createdAt: z.string().datetime(),
  })
  .openapi('AuditEntry');

export const AuditEntryPageSchema = pageSchema(AuditEntrySchema, 'AuditEntryPage');

export const AuditLogQuerySchema = z.object({
  actor: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .openapi({ param: { name: 'actor', in: 'query' }, description: 'Only entries by this user id.' }),
  action: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .openapi({
      param: { name: 'action', in: 'query' },
      description: 'Only this action, e.g. `api_key.issued`, `admin.bootstrapped`, `user.role_changed`.',
    }),
  since: z.iso
    .datetime({ offset: true })
    .max(40)
    .optional()
    .openapi({ param: { name: 'since', in: 'query' }, description: 'Only entries at or after this time.' }),
  until: z.iso
    .datetime({ offset: true })
    .max(40)
    .optional()
    .openapi({ param: { name: 'until', in: 'query' }, description: 'Only entries at or before this time.' }),
});
