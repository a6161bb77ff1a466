import type { AppRouteHandler } from '../../lib/types';
import { serviceHealth } from '../../services/health';
import type * as routes from './health.routes';

export const health: AppRouteHandler<typeof routes.getHealth> = async (c) => {
  const body = await serviceHealth(c.var.db);
  return c.json(body, 200, { 'Cache-Control': 'no-store' });
};
