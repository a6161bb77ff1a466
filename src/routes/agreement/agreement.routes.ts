import { createRoute } from '@hono/zod-openapi';
import { errorResponses } from '../../lib/problem';
import { AgreementRateSchema } from './agreement.schemas';

export const getPublicAgreementRate = createRoute({
  method: 'get',
  path: '/api/public/agreement-rate',
  tags: ['Agreement'],
  summary: 'Public AI/employer agreement rate',
  description:
    'Global agreement between AI verdicts and independent employer verdicts over a rolling 90-day window. ' +
    'Contains no personal data. Served from cache; when no pairs exist yet the payload is a demonstration (`demo: true`).',
  security: [],
  responses: {
    200: {
      description: 'The agreement rate.',
      headers: {
        'Cache-Control': { schema: { type: 'string' }, description: 'Public, short-lived.' },
        ETag: { schema: { type: 'string' } },
      },
      content: { 'application/json': { schema: AgreementRateSchema } },
    },
    304: { description: 'Not modified (matches `If-None-Match`).' },
    ...errorResponses(),
  },
});
