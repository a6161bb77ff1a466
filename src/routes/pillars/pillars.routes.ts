import { createRoute } from '@hono/zod-openapi';
import { json } from '../../lib/content';
import { errorResponses } from '../../lib/problem';
import { apiKeyAuth, authErrors, limitedResponse } from '../../lib/route-auth';
import { IntegrityRequestSchema, IntegrityResultSchema } from './integrity.schemas';
import {
  PlaybookBriefSchema,
  PlaybookSchema,
  RubricRequestSchema,
  RubricResponseSchema,
} from './pillars.schemas';

export const generatePlaybook = createRoute({
  method: 'post',
  path: '/api/v1/playbooks/generate',
  tags: ['AI pillars'],
  summary: 'Generate a playbook from a brief',
  description:
    'Pillar 1. Milestones spread over `durationDays` (every `day` within 1..durationDays; the last milestone delivers every ' +
    'deliverable), tasks from the deliverables and success criteria, tutorial links from a curated catalogue.',
  ...apiKeyAuth('playbooks:generate'),
  request: { body: { required: true, content: json(PlaybookBriefSchema) } },
  responses: {
    200: limitedResponse('The playbook.', json(PlaybookSchema)),
    ...authErrors(),
    ...errorResponses(400, 413, 415, 422),
  },
});

export const generateRubric = createRoute({
  method: 'post',
  path: '/api/rubrics/generate',
  tags: ['AI pillars'],
  summary: 'Extract a structured rubric from an unstructured brief',
  description:
    'Pillar 4. Requirement sentences and lists grouped into 3–8 weighted criteria, each quoting its source sentence.',
  ...apiKeyAuth('rubrics:generate'),
  request: { body: { required: true, content: json(RubricRequestSchema) } },
  responses: {
    200: limitedResponse('The rubric.', json(RubricResponseSchema)),
    ...authErrors(),
    ...errorResponses(400, 413, 415, 422),
  },
});

export const checkIntegrity = createRoute({
  method: 'post',
  path: '/api/v1/integrity/check',
  tags: ['AI pillars'],
  summary: 'Integrity score and signals for a submission',
  description:
    'Pillar 3. Plagiarism (winnowing fingerprints against every stored submission; any shared run of about 40 characters ' +
    'or 14 code tokens is caught), AI-content stylometry (a soft signal) and version-control history. Bodies up to 5 MiB. ' +
    'Checked text is not stored.',
  ...apiKeyAuth('integrity:check'),
  request: { body: { required: true, content: json(IntegrityRequestSchema) } },
  responses: {
    200: limitedResponse('The integrity report.', json(IntegrityResultSchema)),
    ...authErrors(),
    ...errorResponses(400, 404, 413, 415, 422),
  },
});
