import { rubricWarnings } from '../../../domain/pillars/rubric-extraction';
import type { AppRouteHandler } from '../../../http/types';
import type * as routes from './rubrics.routes';

/** Pillar 4, for both `/api/v1/rubrics/generate` and its deprecated alias `/api/rubrics/generate`. */
export const generate: AppRouteHandler<typeof routes.generateRubricV1> = async (c) => {
  const { brief, domain } = c.req.valid('json');
  const { result, engine, fallbackReason } = await c.var.engine.extractRubric(brief, domain);
  return c.json({ ...result, engine, fallbackReason, warnings: rubricWarnings(brief) }, 200);
};
