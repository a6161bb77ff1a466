import type { AppRouteHandler } from '../../../http/types';
import { RATE_LIMITS } from '../../../middleware/rate-limit';
import { usageReport } from '../../../services/api-keys';
import type * as routes from './keys.routes';
import { isPillarScope, isV1OtherScope } from './keys.schemas';

export const self: AppRouteHandler<typeof routes.getKeySelf> = (c) => {
  const {
    id,
    name,
    scopes,
    organisationId,
    ratelimitPerMinute,
    expiresAt,
    replacedByRoll,
    sentKeyExpiresAt,
  } = c.var.apiKey;
  const limit = ratelimitPerMinute ?? RATE_LIMITS.apikey.limit;
  return c.json(
    {
      id,
      name,
      scopes: scopes.filter(isPillarScope),
      otherScopes: scopes.filter(isV1OtherScope),
      grantedScopes: [...scopes],
      organisationId,
      rateLimit: { limit, windowSeconds: RATE_LIMITS.apikey.windowSeconds },
      expiresAt: expiresAt?.toISOString() ?? null,
      replacedByRoll: replacedByRoll ?? false,
      sentKeyExpiresAt: sentKeyExpiresAt?.toISOString() ?? null,
    },
    200,
  );
};

export const usage: AppRouteHandler<typeof routes.getKeySelfUsage> = async (c) => {
  const { id } = c.var.apiKey;
  const pending = await c.env.RATE_LIMITER.getByName(`apikey:${id}`).pendingUsage(id);
  return c.json({ apiKeyId: id, ...(await usageReport(c.var.db, id, pending)) }, 200);
};
