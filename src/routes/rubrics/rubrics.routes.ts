import { defineRoute } from '../../http/route';
import { apiKeyAuth } from '../../http/route-auth';
import { json } from '../../lib/content';
import { RATE_LIMIT_HEADERS } from '../../lib/problem';
import { SUCCESSOR_HEADERS } from '../../middleware/deprecation';
import { RubricRequestSchema, RubricResponseSchema } from '../v1/rubrics/rubrics.schemas';

/** When `/api/rubrics/generate` was deprecated in favour of `/api/v1/rubrics/generate`. */
export const RUBRICS_ALIAS_DEPRECATED_AT = new Date('2026-11-23T00:00:00Z');

export const generateRubric = defineRoute({
  method: 'post',
  path: '/api/rubrics/generate',
  operationId: 'generateRubric',
  idempotent: true,
  deprecated: true,
  tags: ['AI pillars'],
  summary: 'Extract a structured rubric from an unstructured brief (deprecated alias)',
  description:
    'Deprecated: use `POST /api/v1/rubrics/generate`, which behaves the same under the frozen v1 contract. This ' +
    'alias keeps working; every response carries `Deprecation` (RFC 9745) and `Link: <…/api/v1/rubrics/generate>; ' +
    'rel="successor-version"`.',
  ...apiKeyAuth('rubrics:generate'),
  request: { body: { required: true, content: json(RubricRequestSchema) } },
  responses: {
    200: {
      description: 'The rubric.',
      headers: { ...RATE_LIMIT_HEADERS, ...SUCCESSOR_HEADERS },
      content: json(RubricResponseSchema),
    },
  },
});
