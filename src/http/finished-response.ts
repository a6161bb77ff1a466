/**
 * Every response gets the same headers besides its own: the security headers and request id
 * (src/middleware/security-headers.ts), CORS on the public reads (src/middleware/public-cors.ts),
 * both applied by the request envelope (src/middleware/envelope.ts), and the rate limit's
 * (src/middleware/rate-limit.ts). The middleware add them to a finished response, one call into
 * the runtime per header. The public hot paths build their response once
 * with all of them instead (`finishedResponse`): the same rules applied to a plain list first, so
 * the runtime sees one `Response` construction (issue 18: the header calls were about a tenth of
 * the isolate's time on a verification hit). The middleware leave such a response alone.
 */
import type { Context } from 'hono';
import { type CompressiblePayload, gzipBody, payloadOf } from '../lib/content-coding';
import { noneMatch } from '../lib/etag';
import type { AppVariables } from '../middleware/context';
import { applyPublicCors } from '../middleware/public-cors';
import type { HeaderBag } from '../middleware/response-headers';
import { applySecurityHeaders } from '../middleware/security-headers';

/**
 * Headers as a plain record until the response is built, by lower-case name (`Headers` compares
 * names case-insensitively and sends them in lower case anyway). A record, not a list of pairs:
 * the runtime converts a record to `Headers` far faster than a list (which it walks with the
 * iterator protocol, calling back into JavaScript per pair).
 */
class PendingHeaders implements HeaderBag {
  // A plain object, not `Object.create(null)` (which V8 keeps as a slow dictionary): the names
  // are ours, never a caller's, and `Object.hasOwn` ignores the prototype's.
  readonly record: Record<string, string> = {};
  has(name: string): boolean {
    return Object.hasOwn(this.record, name.toLowerCase());
  }
  get(name: string): string | null {
    const key = name.toLowerCase();
    return Object.hasOwn(this.record, key) ? (this.record[key] as string) : null;
  }
  set(name: string, value: string): void {
    this.record[name.toLowerCase()] = value;
  }
}

/**
 * What the request envelope adds to a response besides its own headers: the request ids, whether
 * it answers a public read (CORS) or a principal (personal: never stored), and the rate limit's
 * headers known before the handler ran.
 */
export type Envelope = {
  requestId: string | undefined;
  clientRequestId: string | undefined;
  publicRead: boolean;
  personal: boolean;
  rateLimitHeaders?: Record<string, string> | undefined;
};

/** This request's envelope, as the middleware left it in the context. */
function envelopeOf(c: Context): Envelope {
  // `c.get`, not `c.var`: the latter copies every variable into a new object.
  const get = <K extends keyof AppVariables>(key: K): AppVariables[K] | undefined => c.get(key);
  return {
    requestId: get('requestId'),
    clientRequestId: c.req.header('X-Request-Id'),
    publicRead: Boolean(get('publicRead')),
    personal: Boolean(get('user') || get('apiKey')),
    rateLimitHeaders: get('rateLimitHeaders'),
  };
}

/**
 * A response with its own `headers` and, applied in the order the middleware would apply them,
 * the rate limit's headers, a public read's CORS headers and the security headers: the one place
 * that builds a finished response, with or without a context (src/http/memory-reads.ts).
 */
export function envelopedResponse(
  body: BodyInit | null,
  status: number,
  headers: Record<string, string>,
  envelope: Envelope,
  init?: { encodeBody: 'manual' },
): Response {
  const h = new PendingHeaders();
  for (const name in headers) h.set(name, headers[name] as string);
  const limited = envelope.rateLimitHeaders;
  if (limited) for (const name in limited) h.set(name, limited[name] as string);
  if (envelope.publicRead) applyPublicCors(h);
  applySecurityHeaders(h, envelope);
  return new Response(body, init ? { status, headers: h.record, ...init } : { status, headers: h.record });
}

/**
 * `envelopedResponse` for a handler: the envelope from the context, and the response marked as
 * finished so the middleware leave it alone. For handlers whose route sets no header through
 * `c.header()` (which only Hono's own response builders see).
 */
export function finishedResponse(
  c: Context,
  body: BodyInit | null,
  status: number,
  headers: Record<string, string>,
  init?: { encodeBody: 'manual' },
): Response {
  const res = envelopedResponse(body, status, headers, envelopeOf(c), init);
  c.set('finished', res);
  return res;
}

/**
 * A public, cacheable JSON read: 304 when the client holds `etag`, else `json` as is; any origin
 * may read it and embed it (CORS, `Cross-Origin-Resource-Policy: cross-origin`). With `coding`,
 * the answer depends on `Accept-Encoding` (`Vary`), and `coding.gzip`, when given, is sent instead
 * of `json` as its gzip encoding (`src/lib/content-coding.ts`).
 */
export function publicJson(
  c: Context,
  json: string,
  etag: string,
  cacheControl: string,
  coding?: { gzip: Uint8Array | undefined },
): Response {
  const res = publicJsonResponse(c.req.raw, envelopeOf(c), json, etag, cacheControl, coding);
  c.set('finished', res);
  return res;
}

/** `publicJson` without a context: the request and its envelope. */
export function publicJsonResponse(
  request: Request,
  envelope: Envelope,
  json: string,
  etag: string,
  cacheControl: string,
  coding?: { gzip: Uint8Array | undefined },
): Response {
  const headers: Record<string, string> = {
    ETag: etag,
    'Cache-Control': cacheControl,
    'Access-Control-Allow-Origin': '*',
    'Cross-Origin-Resource-Policy': 'cross-origin',
  };
  if (coding) headers.Vary = 'Accept-Encoding';
  if (noneMatch(request.headers.get('If-None-Match'), etag))
    return envelopedResponse(null, 304, headers, envelope);
  headers['Content-Type'] = 'application/json';
  if (!coding?.gzip) return envelopedResponse(json, 200, headers, envelope);
  headers['Content-Encoding'] = 'gzip';
  // Already compressed: the runtime passes the bytes through instead of encoding them again.
  return envelopedResponse(coding.gzip, 200, headers, envelope, { encodeBody: 'manual' });
}

/**
 * A public document anyone may fetch from any origin and keep `maxAge` seconds (the `/ob/`
 * documents, the JWKS, the embed loader), gzipped once per text when the request accepts gzip
 * rather than by the runtime on every response (decision 0270). `payload` for a document whose
 * payload object the caller keeps itself (else found by its text, `payloadOf`).
 */
export async function openDocument(
  c: Context,
  text: string,
  maxAge: number,
  options: { contentType?: string; payload?: CompressiblePayload } = {},
): Promise<Response> {
  const res = await openDocumentResponse(c.req.raw, envelopeOf(c), text, maxAge, options);
  c.set('finished', res);
  return res;
}

/** `openDocument` without a context: the request and its envelope. */
export function openDocumentResponse(
  request: Request,
  envelope: Envelope,
  text: string,
  maxAge: number,
  {
    contentType = 'application/json',
    payload = payloadOf(text),
  }: { contentType?: string; payload?: CompressiblePayload } = {},
): Response | Promise<Response> {
  const headers: Record<string, string> = {
    'Cache-Control': `public, max-age=${maxAge}`,
    'Access-Control-Allow-Origin': '*',
    'Cross-Origin-Resource-Policy': 'cross-origin',
    'Content-Type': contentType,
    Vary: 'Accept-Encoding',
  };
  const answer = (gzip: Uint8Array | undefined) => {
    if (!gzip) return envelopedResponse(text, 200, headers, envelope);
    headers['Content-Encoding'] = 'gzip';
    return envelopedResponse(gzip, 200, headers, envelope, { encodeBody: 'manual' });
  };
  const pending = gzipBody(request, payload);
  return pending instanceof Promise ? pending.then(answer) : answer(pending);
}
