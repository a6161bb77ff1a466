import type { AppRouteHandler } from '../../../lib/types';
import { RATE_LIMITS } from '../../../middleware/rate-limit';
import type * as routes from './keys.routes';

export const self: AppRouteHandler<typeof routes.getKeySelf> = (c) => {
  const { id, name, scopes } = c.var.apiKey;
  return c.json({ id, name, scopes, rateLimit: { ...RATE_LIMITS.apikey } }, 200);
};
