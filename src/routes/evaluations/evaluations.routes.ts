import { defineRoute, IdParams } from '../../http/route';
import { sessionAuth } from '../../http/route-auth';
import { json } from '../../lib/content';
import { EvaluationSchema, RatedSchema, RateSchema } from './evaluations.schemas';

export const getEvaluation = defineRoute({
  method: 'get',
  path: '/api/evaluations/{id}',
  operationId: 'getEvaluation',
  tags: ['Evaluations'],
  summary: 'An evaluation of a submission to one of the employer’s briefs',
  description:
    'Blind: the AI part is hidden (`hiddenUntilRated`) until the employer has rated. Other employers get 404.',
  ...sessionAuth('employer'),
  request: { params: IdParams },
  responses: {
    200: { description: 'The evaluation.', content: json(EvaluationSchema) },
  },
});

export const rate = defineRoute({
  method: 'post',
  path: '/api/evaluations/{id}/employer-rating',
  operationId: 'rateEvaluation',
  idempotent: true,
  tags: ['Evaluations'],
  summary: 'Rate a submission independently of the AI evaluation',
  description:
    'By any member of the organisation that owns the brief (others: 404); the member who rated is recorded. One rating ' +
    'per evaluation (a second is 409); 409 too while the AI evaluation is still running. The (AI verdict, employer ' +
    'verdict) pair feeds the agreement rate. A `pass` that completes the brief (every milestone passed) earns the ' +
    'certificate: issued at once by a verified organisation, `pending_issuer` otherwise. The rating, the certificate and ' +
    'their audit entries commit together; a missing signing key is a 503 before anything is written. An organisation ' +
    'does not certify itself: work by one of its members under another address (the same mailbox, `+tag` ignored) or ' +
    'from the domain it proved by DNS is a 403 saying why.',
  ...sessionAuth('employer'),
  request: { params: IdParams, body: { required: true, content: json(RateSchema) } },
  errors: [409, 503],
  responses: {
    201: {
      description: 'The rating, the revealed AI evaluation and any certificate issued.',
      content: json(RatedSchema),
    },
  },
});
