import { z } from '@hono/zod-openapi';
import { API_KEY_SCOPES } from '../../../db/schema';

export const ScopeSchema = z.enum(API_KEY_SCOPES).openapi('ApiKeyScope');

export const KeySelfSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    scopes: z.array(ScopeSchema),
    organisationId: z.string().nullable().openapi({ description: 'The organisation the key belongs to.' }),
    rateLimit: z.object({ limit: z.number().int(), windowSeconds: z.number().int() }),
  })
  .openapi('ApiKeySelf');
