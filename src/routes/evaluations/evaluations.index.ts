import { createRoute, z } from '@hono/zod-openapi';
import { getDb } from '../../db/client';
import { json } from '../../lib/content';
import { createRouter } from '../../lib/create-app';
import { errorResponses, ProblemError } from '../../lib/problem';
import { authErrors, limitedResponse, sessionAuth } from '../../lib/route-auth';
import { refreshPublicAgreement } from '../../services/agreement-rate';
import { purgeLeaderboards } from '../../services/cache-keys';
import { evaluationForEmployer, RatingRefused, rateEvaluation } from '../../services/workflow/ratings';
import { evaluationView, ratingView } from '../../services/workflow/submissions';
import { EvaluationSchema, RatingSchema } from '../workflow.schemas';

const IdParams = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'id', in: 'path' } }),
});

export const RateSchema = z
  .object({
    score: z.number().int().min(1).max(5).openapi({ example: 4 }),
    verdict: z.enum(['pass', 'fail']),
    comment: z.string().trim().max(2000).optional(),
  })
  .strict()
  .openapi('EmployerRatingRequest');

const RatedSchema = z
  .object({
    rating: RatingSchema,
    evaluation: EvaluationSchema.openapi({
      description: 'Now revealed: the AI verdict the employer could not see before rating.',
    }),
    certificate: z
      .object({ certificateNo: z.string(), verifyUrl: z.string().url() })
      .nullable()
      .openapi({ description: 'Issued when the final milestone is rated `pass`.' }),
  })
  .openapi('EmployerRatingResult');

export const getEvaluation = createRoute({
  method: 'get',
  path: '/api/evaluations/{id}',
  tags: ['Evaluations'],
  summary: 'An evaluation of a submission to one of the employer’s briefs',
  description:
    'Blind: the AI part is hidden (`hiddenUntilRated`) until the employer has rated. Other employers get 404.',
  ...sessionAuth('employer'),
  request: { params: IdParams },
  responses: {
    200: limitedResponse('The evaluation.', json(EvaluationSchema)),
    ...authErrors(),
    ...errorResponses(400, 404),
  },
});

export const rate = createRoute({
  method: 'post',
  path: '/api/evaluations/{id}/employer-rating',
  tags: ['Evaluations'],
  summary: 'Rate a submission independently of the AI evaluation',
  description:
    'By the employer who owns the brief (others: 404). One rating per evaluation (a second is 409); 409 too while the AI ' +
    'evaluation is still running. The (AI verdict, employer verdict) pair feeds the agreement rate. Rating the final milestone ' +
    '`pass` issues the certificate.',
  ...sessionAuth('employer'),
  request: { params: IdParams, body: { required: true, content: json(RateSchema) } },
  responses: {
    201: limitedResponse(
      'The rating, the revealed AI evaluation and any certificate issued.',
      json(RatedSchema),
    ),
    ...authErrors(),
    ...errorResponses(400, 404, 409, 413, 415, 422),
  },
});

export const evaluationsRouter = createRouter()
  .openapi(getEvaluation, async (c) => {
    const found = await evaluationForEmployer(getDb(c.env.DB), c.req.valid('param').id, c.get('user')!.id);
    if (!found) throw new ProblemError('not-found', 'No evaluation with this id.');
    return c.json(evaluationView(found.evaluation, found.rating !== null, 'employer'), 200);
  })
  .openapi(rate, async (c) => {
    const db = getDb(c.env.DB);
    let result: Awaited<ReturnType<typeof rateEvaluation>>;
    try {
      result = await rateEvaluation(c.env, db, c.get('user')!, c.req.valid('param').id, c.req.valid('json'));
    } catch (err) {
      if (err instanceof RatingRefused) throw new ProblemError('conflict', err.message);
      throw err;
    }
    if (!result) throw new ProblemError('not-found', 'No evaluation with this id.');
    // A new pair changes the public rate; a rating (and a certificate) changes leaderboards.
    c.executionCtx.waitUntil(Promise.all([refreshPublicAgreement(c.env), purgeLeaderboards(c.env.CACHE)]));
    return c.json(
      {
        rating: ratingView(result.rating),
        evaluation: evaluationView(result.evaluation, true, 'employer'),
        certificate: result.certificate
          ? {
              certificateNo: result.certificate.certificateNo,
              verifyUrl: `${c.env.PUBLIC_BASE_URL}/api/verify/${result.certificate.certificateNo}`,
            }
          : null,
      },
      201,
    );
  });
