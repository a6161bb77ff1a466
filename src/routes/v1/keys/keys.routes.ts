import { defineRoute } from '../../../http/route';
import { apiKeyAuth } from '../../../http/route-auth';
import { json } from '../../../lib/content';
import { ApiKeyUsageSchema } from '../../admin/admin.schemas';
import { KeySelfSchema } from './keys.schemas';

export const getKeySelf = defineRoute({
  method: 'get',
  path: '/api/v1/keys/self',
  operationId: 'getKeySelf',
  tags: ['API keys'],
  summary: 'Describe the calling API key',
  description:
    'For partners to check a key: its name, scopes, organisation, rate limit (its own, when lower than the default), when it expires, and whether the secret sent is one a roll replaced (and until when it works). Any live key may call it.',
  ...apiKeyAuth(),
  responses: {
    200: { description: 'The key behind `X-Service-Key`.', content: json(KeySelfSchema) },
  },
});

export const getKeySelfUsage = defineRoute({
  method: 'get',
  path: '/api/v1/keys/self/usage',
  operationId: 'getKeySelfUsage',
  tags: ['API keys'],
  summary: "The calling key's requests per day by outcome (90 days)",
  description:
    'Every UTC day of the last 90 (oldest first): `success` (2xx/3xx), `clientError` (4xx but 429), `rateLimited` ' +
    '(429) and `serverError` (5xx, ours, counted apart). Counts every request made with the key, up to but not ' +
    'including this one. Any live key may call it.',
  ...apiKeyAuth(),
  responses: {
    200: { description: 'The usage report.', content: json(ApiKeyUsageSchema) },
  },
});
