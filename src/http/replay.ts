/**
 * What the memory reads (./memory-reads.ts) and the cold verification read (./cold-reads.ts)
 * share: a cached public JSON payload replayed as its route answers it, with a public read's
 * envelope. Small on purpose: the Worker's entry imports it (decision 0324).
 */
import { gzipBody } from '../lib/content-coding';
import { type Envelope, publicJsonResponse } from './finished-response';

export const VERIFY_PREFIX = '/api/verify/';

/** The path (and query) of an absolute URL, without parsing it. */
export function pathOf(url: string): string {
  const slash = url.indexOf('/', url.indexOf('//') + 2);
  return slash === -1 ? '/' : url.slice(slash);
}

/** A public read's envelope: a request id of ours, the client's echoed, CORS, never personal. */
export function publicEnvelope(request: Request, rateLimitHeaders?: Record<string, string>): Envelope {
  return {
    requestId: crypto.randomUUID(),
    clientRequestId: request.headers.get('X-Request-Id') ?? undefined,
    publicRead: true,
    personal: false,
    rateLimitHeaders,
  };
}

/** A cached public JSON payload as its route answers it (304, gzip or the JSON as is). */
export function replayJson(
  request: Request,
  payload: { json: string; etag: string; gzip?: Uint8Array | null },
  cacheControl: string,
  envelope: Envelope = publicEnvelope(request),
): Response | Promise<Response> {
  const answer = (gzip: Uint8Array | undefined) =>
    publicJsonResponse(request, envelope, payload.json, payload.etag, cacheControl, { gzip });
  const gzip = gzipBody(request, payload);
  return gzip instanceof Promise ? gzip.then(answer) : answer(gzip);
}
