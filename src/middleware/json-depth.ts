import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { jsonTooDeep, MAX_JSON_DEPTH } from '../domain/json-depth';
import { ProblemError } from '../lib/problem';

const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

/**
 * A depth budget on every JSON request body, checked on its text before any parser or validator
 * reads it (docs/security.md, "Verifier (third round)"): deeper than {@link MAX_JSON_DEPTH}
 * levels is a 422, never a stack overflow's 500. Runs after the body limit and the UTF-8 check;
 * the text read here is the one the route's validator reads next (Hono caches it).
 */
export function jsonDepthLimit(): MiddlewareHandler {
  return async (c, next) => {
    if (!c.req.raw.body || !JSON_TYPE.test(c.req.header('content-type') ?? '')) return next();
    // A path no route answers is a 404 whatever its body (only middleware matched it).
    if (!matchedRoutes(c).some((route) => route.method !== 'ALL')) return next();
    if (jsonTooDeep(await c.req.text()))
      throw new ProblemError(
        'validation-failed',
        `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels; nothing this API reads needs more.`,
        { errors: [{ pointer: '#', detail: `Nested deeper than ${MAX_JSON_DEPTH} levels.` }] },
      );
    return next();
  };
}
