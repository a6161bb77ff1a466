import { defineRoute } from '../../http/route';
import { json } from '../../lib/content';
import { HealthSchema } from './health.schemas';

export const getHealth = defineRoute({
  method: 'get',
  path: '/api/health',
  operationId: 'getHealth',
  tags: ['Health'],
  summary: 'Service health: stalled background jobs, the base URL and other named checks',
  description:
    'Public and without personal data. `status` is `degraded` when any check is; the answer is 200 ' +
    'either way (the service is serving). `jobs.stalled` counts, per kind, the deferred jobs that gave ' +
    'up (dead-lettered, past their deadline or refused) and wait for an administrator ' +
    '(`GET /api/admin/jobs?state=stalled`). `checks.baseUrl` says whether `PUBLIC_BASE_URL` (the OpenAPI ' +
    'server, the JWKS URL, share links and every credential’s issuer) matches the origin requests arrive at. ' +
    '`checks.outboundLoopback` says whether the development switch that lets outbound fetches reach ' +
    'http://localhost is set, and whether it is honoured (only on a loopback `PUBLIC_BASE_URL`). Not cached.',
  security: [],
  responses: {
    200: {
      description: 'The checks.',
      headers: { 'Cache-Control': { schema: { type: 'string' }, description: '`no-store`.' } },
      content: json(HealthSchema),
    },
  },
});
