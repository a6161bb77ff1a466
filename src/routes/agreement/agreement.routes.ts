import { z } from '@hono/zod-openapi';
import { defineRoute } from '../../http/route';
import { sessionAuth } from '../../http/route-auth';
import { GZIP_DESCRIPTION, GZIP_RESPONSE_HEADERS } from '../../lib/content-coding';
import { integerQueryParam } from '../../lib/paging';
import { AgreementRateSchema, ScopedAgreementSchema } from './agreement.schemas';

export const getPublicAgreementRate = defineRoute({
  method: 'get',
  path: '/api/public/agreement-rate',
  operationId: 'getPublicAgreementRate',
  tags: ['Agreement'],
  summary: 'Public AI/employer agreement rate',
  description:
    'Global agreement between AI verdicts and independent employer verdicts over a rolling 90-day window. ' +
    'Contains no personal data. Served from cache; when no pairs exist yet the payload is a demonstration (`demo: true`). ' +
    GZIP_DESCRIPTION,
  security: [],
  responses: {
    200: {
      description: 'The agreement rate.',
      headers: {
        'Cache-Control': { schema: { type: 'string' }, description: 'Public, short-lived.' },
        ETag: { schema: { type: 'string' } },
        ...GZIP_RESPONSE_HEADERS,
      },
      content: { 'application/json': { schema: AgreementRateSchema } },
    },
    304: { description: 'Not modified (matches `If-None-Match`).' },
  },
});

export const getScopedAgreement = defineRoute({
  method: 'get',
  path: '/api/metrics/agreement-rate',
  operationId: 'getScopedAgreementRate',
  tags: ['Agreement'],
  summary: 'Agreement rate for admins (platform) or employers (their briefs), by domain',
  ...sessionAuth('admin', 'employer'),
  request: {
    query: z.object({
      windowDays: integerQueryParam('windowDays', {
        min: 1,
        max: 365,
        default: 90,
        description: 'Rolling window in days, 1–365 (default 90).',
      }),
    }),
  },
  responses: {
    200: {
      description: 'The agreement rate.',
      content: { 'application/json': { schema: ScopedAgreementSchema } },
    },
  },
});
