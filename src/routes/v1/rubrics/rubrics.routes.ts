import { defineRoute } from '../../../http/route';
import { apiKeyAuth } from '../../../http/route-auth';
import { json } from '../../../lib/content';
import { RubricRequestSchema, RubricResponseSchema } from './rubrics.schemas';

export const generateRubricV1 = defineRoute({
  method: 'post',
  path: '/api/v1/rubrics/generate',
  operationId: 'generateRubricV1',
  idempotent: true,
  tags: ['AI pillars'],
  summary: 'Extract a structured rubric from an unstructured brief',
  description:
    'Pillar 4. Requirement sentences and lists grouped into 3–8 weighted criteria, each quoting its source sentence. ' +
    'Part of the frozen v1 contract; `POST /api/rubrics/generate` is its deprecated alias.',
  ...apiKeyAuth('rubrics:generate'),
  request: { body: { required: true, content: json(RubricRequestSchema) } },
  responses: { 200: { description: 'The rubric.', content: json(RubricResponseSchema) } },
});
