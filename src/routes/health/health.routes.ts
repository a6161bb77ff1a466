import { json } from '../../lib/content';
import { defineRoute } from '../../lib/route';
import { HealthSchema } from './health.schemas';

export const getHealth = defineRoute({
  method: 'get',
  path: '/api/health',
  operationId: 'getHealth',
  tags: ['Health'],
  summary: 'Whether the deployment is configured as it is served',
  description:
    'Reports whether `PUBLIC_BASE_URL` (used for the OpenAPI server, the JWKS URL, share links and every credential’s ' +
    'issuer) matches the origin this request arrived at. Always 200 while the Worker serves.',
  security: [],
  responses: {
    200: {
      description: 'The checks.',
      headers: { 'Cache-Control': { schema: { type: 'string' }, description: '`no-store`.' } },
      content: json(HealthSchema),
    },
  },
});
