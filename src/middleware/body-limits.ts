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

/** Caps bodies by `Content-Length` and, for chunked uploads, while streaming. */
export function bodyLimits(): MiddlewareHandler {
  const standard = bodyLimit({ maxSize: BODY_LIMIT_BYTES, onError: tooLarge(BODY_LIMIT_BYTES) });
  const larger = new Map(
    Object.entries(LARGER_LIMITS).map(([path, max]) => [
      path,
      bodyLimit({ maxSize: max, onError: tooLarge(max) }),
    ]),
  );
  // Most requests (every GET) have no body: nothing to look up.
  return (c, next) => (c.req.raw.body ? (larger.get(c.req.path) ?? standard)(c, next) : next());
}
