/** Everything under `/api/admin`: partner API keys, the Data Protection Officer's queue, deferred jobs. */
import { z } from '@hono/zod-openapi';
import { ORGANISATION_VERIFICATION } from '../../db/schema';
import { defineRoute, IdParams } from '../../http/route';
import { sessionAuth } from '../../http/route-auth';
import { json } from '../../lib/content';
import { cursorParam, limitParam, pageSchema } from '../../lib/paging';
import {
  AdminDsrRequestPageSchema,
  AdminDsrRequestSchema,
  DsrKindSchema,
  DsrStateSchema,
  ResolutionSchema,
} from '../dsr/dsr.schemas';
import { OrganisationReviewSchema, OrganisationSchema } from '../me/me.schemas';
import {
  ApiKeyPageSchema,
  ApiKeySchema,
  ApiKeyUsageSchema,
  AuditEntryPageSchema,
  AuditLogQuerySchema,
  CreateApiKeySchema,
  CreatedApiKeySchema,
  JobPageSchema,
  JobSchema,
  JobStateSchema,
  RollApiKeySchema,
} from './admin.schemas';

export const createApiKey = defineRoute({
  method: 'post',
  path: '/api/admin/api-keys',
  operationId: 'createApiKey',
  idempotent: true,
  tags: ['API keys'],
  summary: 'Issue a partner API key',
  description:
    'The key is returned once and stored only as its SHA-256. Optionally for an organisation (404 if unknown; ' +
    "keys with `webhooks:manage` manage that organisation's webhook endpoints), with an expiry (`expiresAt`, " +
    'in the future) and a rate limit of its own below the default.',
  ...sessionAuth('admin'),
  request: { body: { required: true, content: json(CreateApiKeySchema) } },
  errors: [404],
  responses: {
    201: { description: 'The new key, including the secret.', content: json(CreatedApiKeySchema) },
  },
});

export const rollApiKey = defineRoute({
  method: 'post',
  path: '/api/admin/api-keys/{id}/roll',
  operationId: 'rollApiKey',
  idempotent: true,
  tags: ['API keys'],
  summary: 'Roll an API key: a new secret, the old one valid for a grace period',
  description:
    'Issues a new secret for the same key (id, scopes, limit and usage stay). The old secret keeps working for ' +
    '`gracePeriodSeconds` (default 86400; 0 ends it at once), then answers 401. Rolling again ends the grace period ' +
    'of the secret before. A revoked key is a 409. The new secret is shown once. Audit-logged.',
  ...sessionAuth('admin'),
  request: { params: IdParams, body: { required: false, content: json(RollApiKeySchema) } },
  errors: [409],
  responses: {
    200: { description: 'The key with its new secret.', content: json(CreatedApiKeySchema) },
  },
});

export const getApiKeyUsage = defineRoute({
  method: 'get',
  path: '/api/admin/api-keys/{id}/usage',
  operationId: 'getApiKeyUsage',
  tags: ['API keys'],
  summary: "An API key's requests per day by outcome (90 days)",
  ...sessionAuth('admin'),
  request: { params: IdParams },
  responses: { 200: { description: 'The usage report.', content: json(ApiKeyUsageSchema) } },
});

export const listApiKeys = defineRoute({
  method: 'get',
  path: '/api/admin/api-keys',
  operationId: 'listApiKeys',
  tags: ['API keys'],
  summary: 'List API keys (never the secrets)',
  ...sessionAuth('admin'),
  request: { query: z.object({ limit: limitParam(50), cursor: cursorParam() }) },
  responses: {
    200: { description: 'Newest first.', content: json(ApiKeyPageSchema) },
  },
});

export const revokeApiKey = defineRoute({
  method: 'delete',
  path: '/api/admin/api-keys/{id}',
  operationId: 'revokeApiKey',
  tags: ['API keys'],
  summary: 'Revoke an API key',
  description: 'Takes effect at once. Revoking a revoked key returns it unchanged.',
  ...sessionAuth('admin'),
  request: { params: IdParams },
  responses: {
    200: { description: 'The revoked key.', content: json(ApiKeySchema) },
  },
});

export const listDsrRequests = defineRoute({
  method: 'get',
  path: '/api/admin/dsr-requests',
  operationId: 'listDsrRequests',
  tags: ['Data rights'],
  summary: 'All data-rights requests (the DPO queue)',
  description:
    'Newest first by default, every state. Every data export is a completed `access` request, so for what ' +
    'needs an answer: `overdue=true` keeps the open requests (`received`, `in_progress`) past their `dueAt`; ' +
    '`sort=due` lists only open requests, the oldest `dueAt` first (what falls due next on top), with ' +
    '`kind`, `state` and `overdue` to narrow it. With either, `state` may be `received` or `in_progress` (a ' +
    'closed state is a 400 at `#/query/state`). ' +
    'Cursor-paged in either order; a cursor belongs to the order it came from (400 in the other).',
  ...sessionAuth('admin'),
  request: {
    query: z.object({
      kind: DsrKindSchema.optional(),
      state: DsrStateSchema.optional(),
      overdue: z
        .enum(['true', 'false'])
        .optional()
        .openapi({
          param: { name: 'overdue', in: 'query' },
          description:
            '`true`: only open requests (`received`, `in_progress`) whose `dueAt` has passed. `false` or absent: no filter.',
        }),
      sort: z
        .enum(['created', 'due'])
        .default('created')
        .openapi({
          param: { name: 'sort', in: 'query' },
          description:
            '`created` (default): newest first, every state. `due`: open requests only, the oldest `dueAt` first ' +
            '(ties by id).',
        }),
      limit: limitParam(50),
      cursor: cursorParam(),
    }),
  },
  responses: {
    200: {
      description: 'Newest first, or (`sort=due`) open requests soonest due first.',
      content: json(AdminDsrRequestPageSchema),
    },
  },
});

export const resolveDsrRequest = defineRoute({
  method: 'patch',
  path: '/api/admin/dsr-requests/{id}',
  operationId: 'resolveDsrRequest',
  tags: ['Data rights'],
  summary: 'Move a data-rights request on',
  description:
    'Legal moves: `received → in_progress | completed | rejected`, `in_progress → completed | rejected`. ' +
    'Anything else, and any change to an erasure request (the cascade completes those), is a 409. A rejection, ' +
    'and closing a grievance, need a `resolution` (given now or earlier): the person reads it with the request; ' +
    'without one, 422 at `#/resolution`.',
  ...sessionAuth('admin'),
  request: { params: IdParams, body: { required: true, content: json(ResolutionSchema) } },
  errors: [409],
  responses: {
    200: { description: 'The request, updated.', content: json(AdminDsrRequestSchema) },
  },
});

export const listJobs = defineRoute({
  method: 'get',
  path: '/api/admin/jobs',
  operationId: 'listJobs',
  tags: ['Jobs'],
  summary: 'Deferred jobs (erasures, evaluations…), e.g. the stalled ones',
  description:
    'Newest first. `state=stalled` lists what gave up and waits for a retry; `GET /api/health` counts them.',
  ...sessionAuth('admin'),
  request: {
    query: z.object({
      state: JobStateSchema.optional(),
      kind: z
        .string()
        .min(1)
        .max(64)
        .optional()
        .openapi({ param: { name: 'kind', in: 'query' }, example: 'erasure' }),
      limit: limitParam(50),
      cursor: cursorParam(),
    }),
  },
  responses: {
    200: { description: 'Newest first.', content: json(JobPageSchema) },
  },
});

export const retryJob = defineRoute({
  method: 'post',
  path: '/api/admin/jobs/{id}/retry',
  operationId: 'retryJob',
  idempotent: true,
  tags: ['Jobs'],
  summary: 'Retry a stalled job',
  description:
    'Puts it back to `pending` with a fresh deadline and enqueues it; its handler resumes where it ' +
    'stopped. Audit-logged. Anything but a stalled job is a 409.',
  ...sessionAuth('admin'),
  request: { params: IdParams },
  errors: [409],
  responses: {
    200: { description: 'The job, pending again.', content: json(JobSchema) },
  },
});

export const listAuditLog = defineRoute({
  method: 'get',
  path: '/api/admin/audit-log',
  operationId: 'listAuditLog',
  tags: ['Audit'],
  summary: 'The audit log (who used which power, when, from where)',
  description:
    'Newest first, paged, filterable by actor, action and time. Uses of powers (API-key issue and ' +
    'revocation, admin bootstrap and its refusals, role changes) carry the client address.',
  ...sessionAuth('admin'),
  request: { query: AuditLogQuerySchema.extend({ limit: limitParam(50), cursor: cursorParam() }) },
  responses: {
    200: { description: 'Newest first.', content: json(AuditEntryPageSchema) },
  },
});

export const listOrganisations = defineRoute({
  method: 'get',
  path: '/api/admin/organisations',
  operationId: 'listOrganisations',
  tags: ['Organisations'],
  summary: 'Organisations by verification state (the review queue)',
  description:
    'Oldest first, so the review queue is served in order. `verification=pending` lists those awaiting review.',
  ...sessionAuth('admin'),
  request: {
    query: z.object({
      verification: z
        .enum(ORGANISATION_VERIFICATION)
        .optional()
        .openapi({ param: { name: 'verification', in: 'query' } }),
      renamePending: z
        .enum(['true', 'false'])
        .optional()
        .openapi({
          param: { name: 'renamePending', in: 'query' },
          description:
            '`true`: only organisations with a rename awaiting review (`pendingName`); `false`: only those without; ' +
            'absent: no filter. Review a rename with `POST /api/admin/organisations/{id}/rename`.',
        }),
      limit: limitParam(50),
      cursor: cursorParam(),
    }),
  },
  responses: {
    200: { description: 'Oldest first.', content: json(pageSchema(OrganisationSchema, 'OrganisationPage')) },
  },
});

export const reviewOrganisation = defineRoute({
  method: 'patch',
  path: '/api/admin/organisations/{id}',
  operationId: 'reviewOrganisation',
  tags: ['Organisations'],
  summary: 'Verify, reject or suspend an organisation',
  description:
    'Audited with the reason and the name the decision was taken on. Verifying issues every certificate that was ' +
    "waiting (`pending_issuer`) and dates the verification now (no verified domain: that is a DNS proof's); " +
    "suspending shows the organisation's certificates as `suspended` on verification until it is verified again, " +
    'and so does rejecting an organisation that had issued (the platform no longer stands behind it). Setting the ' +
    'state it already has is a 409, and so is verifying an organisation under a name another verified ' +
    'organisation has (ignoring case, spaces, punctuation and look-alike letters). Send `name` (the name you ' +
    'reviewed) to have the decision refused (409) if the organisation has been renamed since; a change of the ' +
    "organisation between this request's read and its write is a 409 as well, with nothing changed.",
  ...sessionAuth('admin'),
  request: { params: IdParams, body: { required: true, content: json(OrganisationReviewSchema) } },
  errors: [409],
  responses: { 200: { description: 'The organisation.', content: json(OrganisationSchema) } },
});
