import type { MiddlewareHandler } from 'hono';
import { ProblemError } from '../lib/problem';

/** Media types whose bodies are text this API decodes (JSON, and any `+json` or `text/*`). */
const TEXTUAL = /^(application\/([\w.-]+\+)?json|text\/[\w.+-]+)\s*(;|$)/i;

/**
 * Request bodies are decoded as UTF-8 strictly (RFC 8259 §8.1): bytes that do not decode are a 400
 * `invalid-encoding` naming the encoding, never text with U+FFFD
 * in place of what was sent (`"\ufffd\ufffd\ufffd Org"` used to be stored as an organisation's
 * name). The body read here is the one the route's validator reads next (Hono caches it). Runs
 * inside the body limit, so an oversized body is still a 413.
 */
export function strictUtf8(): MiddlewareHandler {
  return async (c, next) => {
    if (!c.req.raw.body || !TEXTUAL.test(c.req.header('content-type') ?? '')) return next();
    if (!isUtf8(new Uint8Array(await c.req.arrayBuffer())))
      throw new ProblemError(
        'invalid-encoding',
        'The request body is not valid UTF-8: some bytes do not decode. Send the JSON encoded as UTF-8 (RFC 8259 §8.1).',
      );
    return next();
  };
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * The body cap of the OAuth library's endpoints (1 MiB, as on `/api/*`): registrations and token
 * requests are a few KB. Checked by `Content-Length` and again while the body streams in.
 */
export const OAUTH_BODY_LIMIT_BYTES = 1024 * 1024;

/** Whether the bytes decode as UTF-8 with nothing replaced. */
export function isUtf8(bytes: Uint8Array): boolean {
  try {
    decoder.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

const oauthRefusal = (status: number, description: string, headers: Record<string, string> = {}) =>
  Response.json(
    { error: 'invalid_request', error_description: description },
    { status, headers: { 'Cache-Control': 'no-store', ...headers } },
  );

const tooLarge = () =>
  oauthRefusal(413, `The request body is over the ${OAUTH_BODY_LIMIT_BYTES} byte limit of this endpoint.`);

/** The body's bytes, read up to `max`; null as soon as there are more (the rest is never read). */
export async function readCapped(body: ReadableStream<Uint8Array>, max: number): Promise<Uint8Array | null> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/**
 * The same rules in front of the OAuth library's registration and token endpoints (src/index.ts),
 * which read bodies whole and decode them leniently themselves: a body over 1 MiB (declared, or
 * found while streaming) is a 413 and a body in a content coding a 415, both read no further; a
 * body that is not UTF-8 (JSON, or a form whose bytes are not ASCII-safe) is a 400. All in the
 * endpoints' own standard's shape (RFC 6749 § 5.2, `invalid_request`) before the library sees
 * them. Otherwise the request, its body read once and handed on unchanged.
 */
export async function strictOAuthBody(request: Request): Promise<Request | Response> {
  if (!request.body) return request;
  const declared = request.headers.get('content-length');
  if (declared !== null && !(Number(declared) <= OAUTH_BODY_LIMIT_BYTES)) return tooLarge();
  const coding = (request.headers.get('content-encoding') ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  if (coding.length > 0)
    return oauthRefusal(
      415,
      `Request bodies are taken uncompressed; this one is sent with Content-Encoding: ${coding.join(', ')}.`,
      { 'Accept-Encoding': 'identity' },
    );
  const bytes = await readCapped(request.body, OAUTH_BODY_LIMIT_BYTES);
  if (bytes === null) return tooLarge();
  if (isUtf8(bytes)) return new Request(request, { body: bytes });
  return oauthRefusal(
    400,
    'The request body is not valid UTF-8: some bytes do not decode. Send it encoded as UTF-8 (RFC 8259 §8.1).',
  );
}
