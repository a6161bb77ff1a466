/**
 * The public reads the isolate can answer from its own memory, answered before the router: no
 * route matching, no middleware chain, no parameter validation for an answer already built
 * (issue 43: on a verification hit those were about a tenth of the isolate's time, most of the
 * difference between the service and a hello-world Worker). A request this does not recognise
 * exactly, or whose answer memory does not hold, is `null` and takes the full path through the
 * app, which stays the one source of every answer: this replays only what that path put in
 * memory, through the same response builders (`publicJsonResponse`, `openDocumentResponse`) and
 * the same envelope (request id, CORS, security headers) the app's middleware would give it.
 *
 * Only reads without a limit or a principal: the leaderboard and the embed (per-IP limit) and
 * everything authenticated always take the full path.
 */
import { gzipBody } from '../lib/content-coding';
import { PUBLIC_AGREEMENT_CACHE_CONTROL, publicAgreementFromMemory } from '../services/agreement-rate';
import { VERIFICATION_CACHE_CONTROL, verificationFromMemory } from '../services/certificates';
import { JWKS_MAX_AGE, publishedKeysFromMemory } from '../services/signing-key';
import { type Envelope, openDocumentResponse, publicJsonResponse } from './finished-response';

const VERIFY_PREFIX = '/api/verify/';
const AGREEMENT_PATH = '/api/public/agreement-rate';
const JWKS_PATH = '/.well-known/jwks.json';

/** A public read's envelope: a request id of ours, the client's echoed, CORS, never personal. */
function publicEnvelope(request: Request): Envelope {
  return {
    requestId: crypto.randomUUID(),
    clientRequestId: request.headers.get('X-Request-Id') ?? undefined,
    publicRead: true,
    personal: false,
  };
}

/** A cached public JSON payload as its route answers it (304, gzip or the JSON as is). */
function replayJson(
  request: Request,
  payload: { json: string; etag: string; gzip?: Uint8Array | null },
  cacheControl: string,
): Response | Promise<Response> {
  const envelope = publicEnvelope(request);
  const answer = (gzip: Uint8Array | undefined) =>
    publicJsonResponse(request, envelope, payload.json, payload.etag, cacheControl, { gzip });
  const gzip = gzipBody(request, payload);
  return gzip instanceof Promise ? gzip.then(answer) : answer(gzip);
}

/**
 * The answer to `request` from memory, or null for the full path. `path` is the request's path and
 * query, as `src/index.ts` took it from the URL (a query makes it another request: full path).
 */
export function answerFromMemory(
  request: Request,
  env: Pick<Env, 'CERT_SIGNING_KEY' | 'CERT_PREVIOUS_PUBLIC_KEYS' | 'PUBLIC_BASE_URL'>,
  path: string,
): Response | Promise<Response> | null {
  if (request.method !== 'GET') return null;
  if (path.startsWith(VERIFY_PREFIX)) {
    // Only a number as memory keys it (normalised) is found: anything else is the route's to judge.
    const found = verificationFromMemory(path.slice(VERIFY_PREFIX.length));
    return found ? replayJson(request, found, VERIFICATION_CACHE_CONTROL) : null;
  }
  if (path === AGREEMENT_PATH) {
    const found = publicAgreementFromMemory();
    return found ? replayJson(request, found, PUBLIC_AGREEMENT_CACHE_CONTROL) : null;
  }
  if (path === JWKS_PATH) {
    const found = publishedKeysFromMemory(env);
    return found
      ? openDocumentResponse(request, publicEnvelope(request), found.json, JWKS_MAX_AGE, { payload: found })
      : null;
  }
  return null;
}
