import type { AppRouteHandler } from '../../http/types';
import type { DigiLockerAnswer } from '../../services/digilocker/issuer';
import { pullDoc as answerPullDoc, pullUri as answerPullUri } from '../../services/digilocker/issuer';
import type * as routes from './digilocker.routes';

const XML = 'application/xml; charset=utf-8';

const send = (answer: DigiLockerAnswer) =>
  new Response(answer.xml, {
    status: answer.status,
    headers: {
      'Content-Type': XML,
      'Cache-Control': 'no-store',
      ...(answer.status === 401
        ? { 'WWW-Authenticate': 'x-digilocker-hmac realm="DigiLocker issuer API"' }
        : {}),
    },
  });

/** The raw bytes the HMAC is over (through Hono's cache: a middleware may have read the body as text). */
const body = async (req: { arrayBuffer(): Promise<ArrayBuffer> }) => new Uint8Array(await req.arrayBuffer());

export const pullUri: AppRouteHandler<typeof routes.pullUri> = async (c) =>
  send(await answerPullUri(c.var.db, c.env, await body(c.req), c.req.header('x-digilocker-hmac'))) as never;

export const pullDoc: AppRouteHandler<typeof routes.pullDoc> = async (c) =>
  send(await answerPullDoc(c.var.db, c.env, await body(c.req), c.req.header('x-digilocker-hmac'))) as never;
