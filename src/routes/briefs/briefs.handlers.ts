import type { AppRouteHandler } from '../../http/types';
import { decodeCursor, toPage } from '../../lib/paging';
import { ProblemError } from '../../lib/problem';
import * as workflow from '../../services/workflow/briefs';
import {
  briefSubmissionView,
  submissionPosition,
  submissionsForBrief,
} from '../../services/workflow/submissions';
import type * as routes from './briefs.routes';

const notFound = () => new ProblemError('not-found', 'No brief with this id.');

export const create: AppRouteHandler<typeof routes.createBrief> = async (c) => {
  const brief = await workflow.createBrief(c.var.db, c.var.engine, c.var.user, c.req.valid('json'));
  return c.json(workflow.briefToJson(brief), 201);
};

export const list: AppRouteHandler<typeof routes.listBriefs> = async (c) => {
  const { domain, state, limit, cursor } = c.req.valid('query');
  const rows = await workflow.listBriefs(
    c.var.db,
    { states: [state], ...(domain ? { domain } : {}) },
    limit,
    decodeCursor(cursor),
  );
  const page = toPage(rows, limit);
  return c.json({ items: page.items.map(workflow.briefSummaryView), nextCursor: page.nextCursor }, 200);
};

export const get: AppRouteHandler<typeof routes.getBrief> = async (c) => {
  const brief = await workflow.loadBrief(c.var.db, c.req.valid('param').id);
  if (!brief || brief.state === 'draft') throw notFound();
  return c.json(workflow.briefToJson(brief), 200);
};

export const changeState: AppRouteHandler<typeof routes.changeBriefState> = async (c) => {
  const { id } = c.req.valid('param');
  const brief = await workflow.changeBrief(c.var.db, c.var.user, id, c.req.valid('json'));
  if (!brief) throw notFound();
  return c.json(workflow.briefToJson(brief), 200);
};

export const submissions: AppRouteHandler<typeof routes.briefSubmissions> = async (c) => {
  const { db, user } = c.var;
  const { id } = c.req.valid('param');
  if (!(await workflow.ownsBrief(db, id, user))) throw notFound();
  const { limit, cursor } = c.req.valid('query');
  const rows = await submissionsForBrief(db, id, limit, decodeCursor(cursor));
  const page = toPage(rows, limit, submissionPosition);
  return c.json({ items: page.items.map(briefSubmissionView), nextCursor: page.nextCursor }, 200);
};
