import { defineRoute } from '../../../http/route';
import { apiKeyAuth } from '../../../http/route-auth';
import { json } from '../../../lib/content';
import { PlaybookBriefSchema, PlaybookSchema } from './playbooks.schemas';

export const generatePlaybook = defineRoute({
  method: 'post',
  path: '/api/v1/playbooks/generate',
  operationId: 'generatePlaybook',
  idempotent: true,
  tags: ['AI pillars'],
  summary: 'Generate a playbook from a brief',
  description:
    'Pillar 1. Milestones spread over `durationDays` (every `day` within 1..durationDays; the last milestone delivers every ' +
    'deliverable), tasks from the deliverables and success criteria, tutorial links from a curated catalogue. A ' +
    'deliverable or criterion listed twice (ignoring case, surrounding spaces and trailing punctuation) is planned once, ' +
    'under its first spelling.',
  ...apiKeyAuth('playbooks:generate'),
  request: { body: { required: true, content: json(PlaybookBriefSchema) } },
  responses: { 200: { description: 'The playbook.', content: json(PlaybookSchema) } },
});
