import { createRoute, z } from '@hono/zod-openapi';
import { json } from '../../lib/content';
import { cursorParam, limitParam } from '../../lib/paging';
import { errorResponses } from '../../lib/problem';
import { apiKeyAuth, authErrors, limitedResponse, sessionAuth } from '../../lib/route-auth';
import {
  ApiKeyPageSchema,
  ApiKeySchema,
  CreateApiKeySchema,
  CreatedApiKeySchema,
  KeyIdParams,
  KeySelfSchema,
} from './api-keys.schemas';

export const createApiKey = createRoute({
  method: 'post',
  path: '/api/admin/api-keys',
  tags: ['API keys'],
  summary: 'Issue a partner API key',
  description: 'The key is returned once and stored only as its SHA-256.',
  ...sessionAuth('admin'),
  request: { body: { required: true, content: json(CreateApiKeySchema) } },
  responses: {
    201: limitedResponse('The new key, including the secret.', json(CreatedApiKeySchema)),
    ...authErrors(),
    ...errorResponses(400, 413, 415, 422),
  },
});

export const listApiKeys = createRoute({
  method: 'get',
  path: '/api/admin/api-keys',
  tags: ['API keys'],
  summary: 'List API keys (never the secrets)',
  ...sessionAuth('admin'),
  request: { query: z.object({ limit: limitParam(50), cursor: cursorParam() }) },
  responses: {
    200: limitedResponse('Newest first.', json(ApiKeyPageSchema)),
    ...authErrors(),
    ...errorResponses(400),
  },
});

export const revokeApiKey = createRoute({
  method: 'delete',
  path: '/api/admin/api-keys/{id}',
  tags: ['API keys'],
  summary: 'Revoke an API key',
  description: 'Takes effect at once. Revoking a revoked key returns it unchanged.',
  ...sessionAuth('admin'),
  request: { params: KeyIdParams },
  responses: {
    200: limitedResponse('The revoked key.', json(ApiKeySchema)),
    ...authErrors(),
    ...errorResponses(400, 404, 413),
  },
});

export const getKeySelf = createRoute({
  method: 'get',
  path: '/api/v1/keys/self',
  tags: ['API keys'],
  summary: 'Describe the calling API key',
  description: 'For partners to check a key: its name, scopes and rate limit. Any live key may call it.',
  ...apiKeyAuth(),
  responses: {
    200: limitedResponse('The key behind `X-Service-Key`.', json(KeySelfSchema)),
    ...authErrors(),
  },
});
