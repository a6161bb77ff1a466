import { z } from '@hono/zod-openapi';
import { API_KEY_SCOPES, JOB_STATES } from '../../db/schema';
import { pageSchema } from '../../lib/paging';
import { AnyScopeSchema } from '../v1/keys/keys.schemas';

export const CreateApiKeySchema = z
  .object({
    name: z.string().trim().min(1).max(100).openapi({ example: 'Acme Careers production' }),
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
          "The organisation the key acts for. Needed for `webhooks:manage` (its endpoints are the organisation's). " +
          'An unknown id is a 404.',
      }),
  })
  .strict()
  .openapi('CreateApiKeyRequest');

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
