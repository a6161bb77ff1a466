import { rubricWarnings, scopeExclusions } from '../../../domain/pillars/rubric-extraction';
import type { AppRouteHandler } from '../../../http/types';
import type * as routes from './rubrics.routes';

/** Pillar 4, for both `/api/v1/rubrics/generate` and its deprecated alias `/api/rubrics/generate`. */
export const generate: AppRouteHandler<typeof routes.generateRubricV1> = async (c) => {
  const { brief, domain } = c.req.valid('json');
  const { result, engine, fallbackReason } = await c.var.engine.extractRubric(brief, domain);
  // Read from the brief itself, whichever engine wrote the criteria: the same for both.
  return c.json(
    {
      ...result,
      outOfScope: scopeExclusions(brief),
      engine,
      fallbackReason,
      warnings: rubricWarnings(brief),
    },
    200,
  );
};
