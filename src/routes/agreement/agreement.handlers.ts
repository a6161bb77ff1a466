import { publicJson } from '../../http/finished-response';
import type { AppRouteHandler } from '../../http/types';
import { gzipBody } from '../../lib/content-coding';
import {
  PUBLIC_AGREEMENT_CACHE_CONTROL,
  publicAgreement,
  scopedAgreement,
} from '../../services/agreement-rate';
import type * as routes from './agreement.routes';

/** Hot path: no I/O on an isolate-memory hit, else one KV read; the cached JSON string is sent as is. */
export const publicAgreementRate: AppRouteHandler<typeof routes.getPublicAgreementRate> = async (c) => {
  const payload = await publicAgreement(c.get('db'), c.env);
  // Gzipped once per payload (the isolate keeps the object), not by the edge on every response.
  const gzip = gzipBody(c.req.raw, payload);
  return publicJson(c, payload.json, payload.etag, PUBLIC_AGREEMENT_CACHE_CONTROL, {
    gzip: gzip instanceof Promise ? await gzip : gzip,
  });
};

/** Admins see the platform; employers only the briefs they own. */
export const scopedAgreementRate: AppRouteHandler<typeof routes.getScopedAgreement> = async (c) => {
  const { user } = c.var;
  const { windowDays } = c.req.valid('query');
  const result = await scopedAgreement(c.get('db'), {
    windowDays,
    ...(user.role === 'employer' ? { organisationId: user.organisationId ?? '-' } : {}),
  });
  return c.json(result, 200);
};
