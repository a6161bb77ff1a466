import type { AppRouteHandler } from '../../http/types';
import { decodeCursor, toPage } from '../../lib/paging';
import { ProblemError } from '../../lib/problem';
import { corpusFor } from '../../services/corpus';
import * as workflow from '../../services/workflow/submissions';
import type * as routes from './submissions.routes';

export const create: AppRouteHandler<typeof routes.createSubmission> = async (c) => {
  const { db, user } = c.var;
  const created = await workflow.createSubmission(
    db,
    user.id,
    c.req.valid('json'),
    workflow.storageLimits(c.env),
    corpusFor(c.env),
    { env: c.env, defer: (effects) => c.executionCtx.waitUntil(effects) },
  );
  if (!created) throw new ProblemError('not-found', 'No milestone of a published brief has this id.');
  const row = await workflow.loadSubmission(db, created.submissionId);
  if (!row) throw new ProblemError('not-found', 'No milestone of a published brief has this id.');
  return c.json(
    {
      id: row.submission.id,
      state: row.submission.state,
      briefId: row.submission.briefId,
      milestoneId: row.submission.milestoneId,
      evaluationId: created.evaluationId,
      aiEvaluation: created.aiConsent,
      createdAt: row.submission.createdAt.toISOString(),
    },
    201,
  );
};

export const list: AppRouteHandler<typeof routes.listSubmissions> = async (c) => {
  const { briefId, state, limit, cursor } = c.req.valid('query');
  const rows = await workflow.listOwnSubmissions(
    c.var.db,
    c.var.user.id,
    { ...(briefId ? { briefId } : {}), ...(state ? { state } : {}) },
    limit,
    decodeCursor(cursor),
  );
  const page = toPage(rows, limit, workflow.submissionPosition);
  return c.json({ items: page.items.map(workflow.submissionView), nextCursor: page.nextCursor }, 200);
};

export const get: AppRouteHandler<typeof routes.getSubmission> = async (c) => {
  const row = await workflow.loadSubmission(c.var.db, c.req.valid('param').id);
  if (!row || row.submission.candidateId !== c.var.user.id)
    throw new ProblemError('not-found', 'No submission with this id.');
  return c.json(workflow.submissionView(row), 200);
};
