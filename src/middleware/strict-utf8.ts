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
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  return async (c, next) => {
    if (!c.req.raw.body || !TEXTUAL.test(c.req.header('content-type') ?? '')) return next();
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    try {
      decoder.decode(bytes);
    } catch {
      throw new ProblemError(
        'invalid-encoding',
        'The request body is not valid UTF-8: some bytes do not decode. Send the JSON encoded as UTF-8 (RFC 8259 §8.1).',
      );
    }
    return next();
  };
}
