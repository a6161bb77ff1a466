import { json } from '../../../lib/content';
import { defineRoute } from '../../../lib/route';
import { apiKeyAuth } from '../../../lib/route-auth';
import { KeySelfSchema } from './keys.schemas';

export const getKeySelf = defineRoute({
  method: 'get',
  path: '/api/v1/keys/self',
  operationId: 'getKeySelf',
  tags: ['API keys'],
  summary: 'Describe the calling API key',
  description: 'For partners to check a key: its name, scopes and rate limit. Any live key may call it.',
  ...apiKeyAuth(),
  responses: {
    200: { description: 'The key behind `X-Service-Key`.', content: json(KeySelfSchema) },
  },
});
