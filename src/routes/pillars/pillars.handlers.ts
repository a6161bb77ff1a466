import { eq } from 'drizzle-orm';
import { getDb } from '../../db/client';
import { briefs } from '../../db/schema';
import { ProblemError } from '../../lib/problem';
import type { AppRouteHandler } from '../../lib/types';
import { checkIntegrity } from '../../services/integrity';
import { pillarEngine } from '../../services/pillars';
import type * as routes from './pillars.routes';

export const playbook: AppRouteHandler<typeof routes.generatePlaybook> = async (c) => {
  const { result, engine, fallbackReason } = await pillarEngine(c.env).generatePlaybook(c.req.valid('json'));
  return c.json({ ...result, engine, fallbackReason }, 200);
};

export const rubric: AppRouteHandler<typeof routes.generateRubric> = async (c) => {
  const { brief, domain } = c.req.valid('json');
  const { result, engine, fallbackReason } = await pillarEngine(c.env).extractRubric(brief, domain);
  return c.json({ ...result, engine, fallbackReason }, 200);
};

export const integrity: AppRouteHandler<typeof routes.checkIntegrity> = async (c) => {
  const { briefId, ...material } = c.req.valid('json');
  let context = {};
  if (briefId) {
    const [brief] = await getDb(c.env.DB).select().from(briefs).where(eq(briefs.id, briefId)).limit(1);
    if (!brief || brief.state === 'draft')
      throw new ProblemError('not-found', 'No published brief has this id.');
    context = {
      briefText: [brief.title, brief.description, ...brief.deliverables, ...brief.successCriteria].join('\n'),
      briefCreatedAt: brief.createdAt,
    };
  }
  const report = await checkIntegrity(c.env.DB, pillarEngine(c.env), material, context);
  return c.json(report, 200);
};
