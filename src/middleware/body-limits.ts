import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ProblemError } from '../lib/problem';

/** Default request-body cap. */
export const BODY_LIMIT_BYTES = 1024 * 1024;
/** The integrity check takes whole submissions (text, files, commit lists), so it gets more room. */
export const INTEGRITY_BODY_LIMIT_BYTES = 5 * 1024 * 1024;

const LARGER_LIMITS: Record<string, number> = {
  '/api/v1/integrity/check': INTEGRITY_BODY_LIMIT_BYTES,
};

const tooLarge = (max: number) => () => {
  throw new ProblemError(
    'payload-too-large',
    `The request body is over the ${max} byte limit for this route.`,
  );
};

/**
 * A request body in a content coding (`Content-Encoding: gzip`, …) is not read: it would be
 * decoded past the size cap, and no route takes one. 415 with `Accept-Encoding: identity`, as RFC
 * 9110 §15.5.16 asks, instead of the JSON parser's "malformed JSON".
 */
function assertIdentityCoding(encoding: string | undefined): void {
  if (!encoding) return;
  const codings = encoding
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  if (codings.length > 0)
    throw new ProblemError(
      'unsupported-media-type',
      `Request bodies are taken uncompressed; this one is sent with Content-Encoding: ${codings.join(', ')}.`,
      { headers: { 'accept-encoding': 'identity' } },
    );
}

/** Caps bodies by `Content-Length` and, for chunked uploads, while streaming; refuses coded bodies. */
export function bodyLimits(): MiddlewareHandler {
  const standard = bodyLimit({ maxSize: BODY_LIMIT_BYTES, onError: tooLarge(BODY_LIMIT_BYTES) });
  const larger = new Map(
    Object.entries(LARGER_LIMITS).map(([path, max]) => [
      path,
      bodyLimit({ maxSize: max, onError: tooLarge(max) }),
    ]),
  );
  // Most requests (every GET) have no body: nothing to look up.
  return (c, next) => {
    if (!c.req.raw.body) return next();
    assertIdentityCoding(c.req.header('content-encoding'));
    return (larger.get(c.req.path) ?? standard)(c, next);
  };
}
