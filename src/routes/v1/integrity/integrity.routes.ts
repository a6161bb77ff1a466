import { defineRoute } from '../../../http/route';
import { apiKeyAuth } from '../../../http/route-auth';
import { json } from '../../../lib/content';
import { IntegrityRequestSchema, IntegrityResultSchema } from './integrity.schemas';

export const checkIntegrity = defineRoute({
  method: 'post',
  path: '/api/v1/integrity/check',
  operationId: 'checkIntegrity',
  idempotent: true,
  tags: ['AI pillars'],
  summary: 'Integrity score and signals for a submission',
  description:
    'Pillar 3. Plagiarism (winnowing fingerprints against every stored submission; any shared run of about 40 characters ' +
    'or 14 code tokens is caught), AI-content stylometry (a soft signal) and version-control history. Bodies up to 5 MiB. ' +
    'Checked text is not stored.',
  ...apiKeyAuth('integrity:check'),
  request: { body: { required: true, content: json(IntegrityRequestSchema) } },
  // 503: the corpus shards are misconfigured (FINGERPRINT_SHARDS without its bindings).
  errors: [404, 503],
  responses: { 200: { description: 'The integrity report.', content: json(IntegrityResultSchema) } },
});
