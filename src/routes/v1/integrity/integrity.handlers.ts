import type { AppRouteHandler } from '../../../lib/types';
import { briefContext, checkIntegrity } from '../../../services/integrity';
import type * as routes from './integrity.routes';

export const check: AppRouteHandler<typeof routes.checkIntegrity> = async (c) => {
  const { briefId, ...material } = c.req.valid('json');
  const context = briefId ? await briefContext(c.var.db, briefId) : {};
  const report = await checkIntegrity(c.env.DB, c.var.engine, material, context);
  return c.json(report, 200);
};
