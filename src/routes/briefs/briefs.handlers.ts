import { and, eq } from 'drizzle-orm';
import { getDb } from '../../db/client';
import { briefs } from '../../db/schema';
import { decodeCursor, toPage } from '../../lib/paging';
import { ProblemError } from '../../lib/problem';
import type { AppRouteHandler } from '../../lib/types';
import { pillarEngine } from '../../services/pillars';
import * as workflow from '../../services/workflow/briefs';
import {
  evaluationView,
  ratingView,
  submissionPosition,
  submissionsForBrief,
} from '../../services/workflow/submissions';
import type * as routes from './briefs.routes';

const summary = (b: Awaited<ReturnType<typeof workflow.listBriefs>>[number]) => ({
  id: b.id,
  title: b.title,
  domain: b.domain,
  state: b.state,
  durationDays: b.durationDays,
  employer: { name: b.employerName },
  createdAt: b.createdAt.toISOString(),
});

const notFound = () => new ProblemError('not-found', 'No brief with this id.');

export const create: AppRouteHandler<typeof routes.createBrief> = async (c) => {
  const brief = await workflow.createBrief(
    getDb(c.env.DB),
    pillarEngine(c.env),
    c.get('user')!.id,
    c.req.valid('json'),
  );
  return c.json(workflow.briefToJson(brief), 201);
};

export const list: AppRouteHandler<typeof routes.listBriefs> = async (c) => {
  const { domain, state, limit, cursor } = c.req.valid('query');
  const rows = await workflow.listBriefs(
    getDb(c.env.DB),
    { states: [state], ...(domain ? { domain } : {}) },
    limit,
    decodeCursor(cursor),
  );
  const page = toPage(rows, limit);
  return c.json({ items: page.items.map(summary), nextCursor: page.nextCursor }, 200);
};

export const mine: AppRouteHandler<typeof routes.myBriefs> = async (c) => {
  const { limit, cursor } = c.req.valid('query');
  const rows = await workflow.listBriefs(
    getDb(c.env.DB),
    { states: ['draft', 'published', 'closed'], employerId: c.get('user')!.id },
    limit,
    decodeCursor(cursor),
  );
  const page = toPage(rows, limit);
  return c.json({ items: page.items.map(summary), nextCursor: page.nextCursor }, 200);
};

export const get: AppRouteHandler<typeof routes.getBrief> = async (c) => {
  const brief = await workflow.loadBrief(getDb(c.env.DB), c.req.valid('param').id);
  if (!brief || brief.state === 'draft') throw notFound();
  return c.json(workflow.briefToJson(brief), 200);
};

export const getMine: AppRouteHandler<typeof routes.getMyBrief> = async (c) => {
  const brief = await workflow.loadBrief(getDb(c.env.DB), c.req.valid('param').id);
  if (!brief || brief.employerId !== c.get('user')!.id) throw notFound();
  return c.json(workflow.briefToJson(brief), 200);
};

export const changeState: AppRouteHandler<typeof routes.changeBriefState> = async (c) => {
  try {
    const brief = await workflow.changeBriefState(
      getDb(c.env.DB),
      c.get('user')!.id,
      c.req.valid('param').id,
      c.req.valid('json').state,
    );
    if (!brief) throw notFound();
    return c.json(workflow.briefToJson(brief), 200);
  } catch (err) {
    if (err instanceof workflow.IllegalTransition) throw new ProblemError('conflict', err.message);
    throw err;
  }
};

export const submissions: AppRouteHandler<typeof routes.briefSubmissions> = async (c) => {
  const db = getDb(c.env.DB);
  const { id } = c.req.valid('param');
  const [owned] = await db
    .select({ id: briefs.id })
    .from(briefs)
    .where(and(eq(briefs.id, id), eq(briefs.employerId, c.get('user')!.id)))
    .limit(1);
  if (!owned) throw notFound();
  const { limit, cursor } = c.req.valid('query');
  const page = toPage(
    await submissionsForBrief(db, id, limit, decodeCursor(cursor)),
    limit,
    submissionPosition,
  );
  return c.json(
    {
      items: page.items.map((row) => ({
        id: row.submission.id,
        milestoneId: row.submission.milestoneId,
        milestoneTitle: row.milestoneTitle,
        state: row.submission.state,
        candidate: { name: row.candidateName },
        text: row.submission.text,
        files: row.submission.files ?? [],
        repositoryUrl: row.submission.repositoryUrl,
        commits: row.submission.commits ?? [],
        createdAt: row.submission.createdAt.toISOString(),
        evaluationId: row.evaluation?.id ?? null,
        evaluation: row.evaluation ? evaluationView(row.evaluation, row.rating !== null, 'employer') : null,
        rating: row.rating ? ratingView(row.rating) : null,
      })),
      nextCursor: page.nextCursor,
    },
    200,
  );
};
