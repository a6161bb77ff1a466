import { verifyPageUrl } from '../../domain/certificates/urls';
import { ProblemError } from '../../lib/problem';
import type { AppRouteHandler } from '../../lib/types';
import { dispatchJobs } from '../../services/jobs/jobs';
import { publicViewsChanged } from '../../services/kv-coalesce';
import { announceIssued, rememberIssued } from '../../services/verification-filter';
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
    c.env,
    c.var.db,
    c.var.user,
    c.req.valid('param').id,
    c.req.valid('json'),
  );
  if (!result) throw notFound();
  // A new pair changes the public rate; a rating (and a certificate) changes leaderboards.
  // Coalesced: each KV key is written at most once per second (services/kv-coalesce.ts).
  c.executionCtx.waitUntil(
    Promise.all([publicViewsChanged(c.env, result.rating.domain), dispatchJobs(c.env, result.webhookJobs)]),
  );
  if (result.certificate) {
    // This isolate verifies the new number at once; others once the recent set is rewritten.
    const issued = [result.certificate.certificateNo];
    rememberIssued(issued);
    c.executionCtx.waitUntil(announceIssued(c.env, issued));
  }
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
