import { getDb } from '../../db/client';
import { createRouter } from '../../lib/create-app';
import { decodeCursor, toPage } from '../../lib/paging';
import { ProblemError } from '../../lib/problem';
import { pillarEngine } from '../../services/pillars';
import * as workflow from '../../services/workflow/submissions';
import * as routes from './submissions.routes';

export const submissionsRouter = createRouter()
  .openapi(routes.createSubmission, async (c) => {
    const db = getDb(c.env.DB);
    const candidateId = c.get('user')!.id;
    let created: Awaited<ReturnType<typeof workflow.createSubmission>>;
    try {
      created = await workflow.createSubmission(c.env.DB, db, candidateId, c.req.valid('json'));
    } catch (err) {
      if (err instanceof workflow.SubmissionRefused) throw new ProblemError('conflict', err.message);
      throw err;
    }
    if (!created) throw new ProblemError('not-found', 'No milestone of a published brief has this id.');
    if (created.aiConsent) {
      // The evaluation takes seconds; the candidate gets the receipt now.
      c.executionCtx.waitUntil(
        workflow.evaluateSubmission(c.env.DB, db, pillarEngine(c.env), created.submissionId),
      );
    }
    const row = (await workflow.loadSubmission(db, created.submissionId))!;
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
  })
  .openapi(routes.listSubmissions, async (c) => {
    const { briefId, state, limit, cursor } = c.req.valid('query');
    const rows = await workflow.listOwnSubmissions(
      getDb(c.env.DB),
      c.get('user')!.id,
      { ...(briefId ? { briefId } : {}), ...(state ? { state } : {}) },
      limit,
      decodeCursor(cursor),
    );
    const page = toPage(rows, limit, workflow.submissionPosition);
    return c.json({ items: page.items.map(workflow.submissionView), nextCursor: page.nextCursor }, 200);
  })
  .openapi(routes.getSubmission, async (c) => {
    const row = await workflow.loadSubmission(getDb(c.env.DB), c.req.valid('param').id);
    if (!row || row.submission.candidateId !== c.get('user')!.id)
      throw new ProblemError('not-found', 'No submission with this id.');
    return c.json(workflow.submissionView(row), 200);
  });
