import { CURRENT_NOTICE_VERSION, noticeFor } from '../../domain/consent-notices';
import { ProblemError } from '../../lib/problem';
import type { AppRouteHandler } from '../../lib/types';
import * as consent from '../../services/consent';
import type * as routes from './consent.routes';

export const record: AppRouteHandler<typeof routes.recordConsent> = async (c) => {
  const receipt = await consent.recordConsent(c.env, c.var.user.id, c.req.valid('json'));
  return c.json(consent.consentReceiptView(receipt), 201);
};

export const notice: AppRouteHandler<typeof routes.getNotice> = (c) => {
  const found = noticeFor(c.req.valid('param').version);
  if (!found) throw new ProblemError('not-found', 'No consent notice with this version.');
  return c.json({ ...found, current: found.version === CURRENT_NOTICE_VERSION }, 200, {
    'Cache-Control': 'public, max-age=86400',
  });
};
