import type { AppRouteHandler } from '../../http/types';
import { serviceHealth } from '../../services/health';
import type * as routes from './health.routes';

export const getHealth: AppRouteHandler<typeof routes.getHealth> = async (c) => {
  const body = await serviceHealth(c.var.db, {
    publicBaseUrl: c.env.PUBLIC_BASE_URL,
    requestUrl: c.req.url,
    env: c.env,
    allowHttpLocalhost: c.env.WEBHOOKS_ALLOW_HTTP_LOCALHOST,
  });
  return c.json(body, 200, { 'Cache-Control': 'no-store' });
};
