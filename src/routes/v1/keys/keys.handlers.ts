import type { AppRouteHandler } from '../../../lib/types';
import { RATE_LIMITS } from '../../../middleware/rate-limit';
import type * as routes from './keys.routes';
import { isPillarScope } from './keys.schemas';

export const self: AppRouteHandler<typeof routes.getKeySelf> = (c) => {
  const { id, name, scopes } = c.var.apiKey;
  return c.json(
    {
      id,
      name,
      scopes: scopes.filter(isPillarScope),
      otherScopes: scopes.filter((s) => !isPillarScope(s)),
      rateLimit: { ...RATE_LIMITS.apikey },
    },
    200,
  );
};
