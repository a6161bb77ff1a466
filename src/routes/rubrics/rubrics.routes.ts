import { json } from '../../lib/content';
import { defineRoute } from '../../lib/route';
import { apiKeyAuth } from '../../lib/route-auth';
import { RubricRequestSchema, RubricResponseSchema } from './rubrics.schemas';

export const generateRubric = defineRoute({
  method: 'post',
  path: '/api/rubrics/generate',
  operationId: 'generateRubric',
  idempotent: true,
  tags: ['AI pillars'],
  summary: 'Extract a structured rubric from an unstructured brief',
  description:
    'Pillar 4. Requirement sentences and lists grouped into 3–8 weighted criteria, each quoting its source sentence.',
  ...apiKeyAuth('rubrics:generate'),
  request: { body: { required: true, content: json(RubricRequestSchema) } },
  responses: { 200: { description: 'The rubric.', content: json(RubricResponseSchema) } },
});
