import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AppRouteHandler } from '../../http/types';
import { requireCertificateNumber } from '../../services/certificates';
import {
  CALLBACK_PATH,
  finishSend,
  SEND_BINDING_COOKIE,
  SEND_TTL_SECONDS,
  startSend,
} from '../../services/portability/send-to-host';
import type * as routes from './send-to-host.routes';

export const start: AppRouteHandler<typeof routes.startSendToHost> = async (c) => {
  const certificateNo = requireCertificateNumber(c.req.valid('param').certificateNo);
  const { hostUrl } = c.req.valid('json');
  const started = await startSend(c.var.db, c.env, c.var.user, certificateNo, hostUrl);
  // Lax, not Strict: the host sends the browser back with a top-level GET from its own site.
  setCookie(c, SEND_BINDING_COOKIE, started.binding, {
    httpOnly: true,
    secure: true,
    sameSite: 'Lax',
    path: CALLBACK_PATH,
    maxAge: SEND_TTL_SECONDS,
  });
  c.header('Cache-Control', 'no-store');
  return c.json({ authorizationUrl: started.authorizationUrl, expiresAt: started.expiresAt }, 202);
};

export const callback: AppRouteHandler<typeof routes.sendToHostCallback> = async (c) => {
  const binding = getCookie(c, SEND_BINDING_COOKIE);
  // The binding is spent whatever the outcome: a state works once.
  deleteCookie(c, SEND_BINDING_COOKIE, {
    httpOnly: true,
    secure: true,
    sameSite: 'Lax',
    path: CALLBACK_PATH,
  });
  const done = await finishSend(c.var.db, c.env, new URL(c.req.url), binding);
  c.header('Cache-Control', 'no-store');
  return c.json(done, 200);
};
