import { verifyPageUrl } from '../../domain/certificates/urls';
import type { AppRouteHandler } from '../../http/types';
import { ProblemError } from '../../lib/problem';
import { evaluationForEmployer, rateEvaluation } from '../../services/workflow/ratings';
import { evaluationView, ratingView } from '../../services/workflow/submissions';
import type * as routes from './evaluations.routes';

const notFound = () => new ProblemError('not-found', 'No evaluation with this id.');

export const get: AppRouteHandler<typeof routes.getEvaluation> = async (c) => {
  const found = await evaluationForEmployer(c.var.db, c.req.valid('param').id, c.var.user.id);
  if (!found) throw notFound();
  return c.json(evaluationView(found.evaluation, found.rating !== null, 'employer'), 200);
};

export const rate: AppRouteHandler<typeof routes.rate> = async (c) => {
  const result = await rateEvaluation(
    c.var.db,
    c.env,
    c.var.user,
    c.req.valid('param').id,
    c.req.valid('json'),
    (effects) => c.executionCtx.waitUntil(effects),
  );
  if (!result) throw notFound();
  return c.json(
    {
      rating: ratingView(result.rating),
      evaluation: evaluationView(result.evaluation, true, 'employer'),
      certificate: result.certificate
        ? {
            certificateNo: result.certificate.certificateNo,
            status: result.certificate.status,
            verifyUrl: verifyPageUrl(c.env.PUBLIC_BASE_URL, result.certificate.certificateNo),
          }
        : null,
    },
    201,
  );
};
