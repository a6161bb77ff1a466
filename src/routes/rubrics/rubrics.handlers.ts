import type { AppRouteHandler } from '../../lib/types';
import type * as routes from './rubrics.routes';

export const generate: AppRouteHandler<typeof routes.generateRubric> = async (c) => {
  const { brief, domain } = c.req.valid('json');
  const { result, engine, fallbackReason } = await c.var.engine.extractRubric(brief, domain);
  return c.json({ ...result, engine, fallbackReason }, 200);
};
