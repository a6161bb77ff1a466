import { z } from '@hono/zod-openapi';
import { API_KEY_SCOPES } from '../../db/schema';
import { pageSchema } from '../../lib/paging';
import { ScopeSchema } from '../v1/keys/keys.schemas';

export const CreateApiKeySchema = z
  .object({
    name: z.string().trim().min(1).max(100).openapi({ example: 'Acme Careers production' }),
    scopes: z
      .array(ScopeSchema)
      .min(1)
      .max(API_KEY_SCOPES.length)
      .openapi({ example: ['playbooks:generate'] }),
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
    scopes: z.array(ScopeSchema),
    createdAt: z.string().datetime(),
    lastUsedAt: z.string().datetime().nullable(),
    revokedAt: z.string().datetime().nullable(),
  })
  .openapi('ApiKey');

export const CreatedApiKeySchema = ApiKeySchema.extend({
  key: z.string().openapi({ description: 'The key itself. Shown only in this response; store it now.' }),
}).openapi('CreatedApiKey');

export const ApiKeyPageSchema = pageSchema(ApiKeySchema, 'ApiKeyPage');
