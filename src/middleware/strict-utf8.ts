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

/** Bytes of an OAuth request body read here to check them (registrations and token requests are a few KB). */
const OAUTH_BODY_READ_LIMIT = 1024 * 1024;

/** Whether the bytes decode as UTF-8 with nothing replaced. */
export function isUtf8(bytes: Uint8Array): boolean {
  try {
    decoder.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * The same rule in front of the OAuth library's registration and token endpoints (src/index.ts),
 * which decode bodies leniently themselves: a body that is not UTF-8 (JSON, or a form whose
 * bytes are not ASCII-safe) is a 400 in their own standard's shape (RFC 6749 § 5.2,
 * `invalid_request`) before the library sees it. Otherwise the request, its body read once and
 * handed on unchanged.
 */
export async function strictOAuthBody(request: Request): Promise<Request | Response> {
  // A body declared larger than any registration or token request is the library's to refuse (413).
  if (!request.body || Number(request.headers.get('content-length') ?? 0) > OAUTH_BODY_READ_LIMIT)
    return request;
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (isUtf8(bytes)) return new Request(request, { body: bytes });
  return Response.json(
    {
      error: 'invalid_request',
      error_description:
        'The request body is not valid UTF-8: some bytes do not decode. Send it encoded as UTF-8 (RFC 8259 §8.1).',
    },
    { status: 400, headers: { 'Cache-Control': 'no-store' } },
  );
}
