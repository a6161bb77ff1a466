import type { AppRouteHandler } from '../../lib/types';
import { checkBaseUrl } from '../../services/deployment-checks';
import type * as routes from './health.routes';

export const getHealth: AppRouteHandler<typeof routes.getHealth> = (c) => {
  const mismatch = checkBaseUrl(c.env.PUBLIC_BASE_URL, c.req.url);
  return c.json(
    {
      status: mismatch ? ('degraded' as const) : ('ok' as const),
      checks: {
        baseUrl: { ok: !mismatch, configured: c.env.PUBLIC_BASE_URL, observed: mismatch?.observed ?? null },
      },
    },
    200,
    { 'Cache-Control': 'no-store' },
  );
};
