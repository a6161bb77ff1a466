import { ProblemError } from '../../lib/problem';
import type { AppRouteHandler } from '../../lib/types';
import { checkIntegrity, integrityContextFor } from '../../services/integrity';
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
  const { briefId, dueAt, authorEmails, template, ...material } = c.req.valid('json');
  const context = await integrityContextFor(c.env.DB, { briefId, dueAt, authorEmails, template });
  if (!context) throw new ProblemError('not-found', 'No published brief has this id.');
  const report = await checkIntegrity(c.env.DB, pillarEngine(c.env), material, context);
  return c.json(report, 200);
};
