import { OpenAPIHono } from '@hono/zod-openapi';
import { HTTPException } from 'hono/http-exception';
import { log } from '../lib/log';
import { ERROR_STATUSES, type ErrorStatus, ProblemError, problemBody, problemResponse } from '../lib/problem';
import { bodyLimits } from '../middleware/body-limits';
import type { AppBindings } from '../middleware/context';
import { requestEnvelope } from '../middleware/envelope';
import { jsonDepthLimit } from '../middleware/json-depth';
import { methodNotAllowed } from '../middleware/method-not-allowed';
import { strictUtf8 } from '../middleware/strict-utf8';
import type { AppOpenAPI } from './types';
import { validationHook } from './validation';

/** A feature router. It inherits the zod hook, so every route's validation errors look alike. */
export function createRouter(): AppOpenAPI {
  return new OpenAPIHono<AppBindings>({ strict: false, defaultHook: validationHook });
}

/** Routes whose body is an HTML form, not JSON: their 415 says so. */
const FORM_BODY_PATHS = new Set(['/oauth/authorize']);

/** The root app: the request envelope (id, services, CORS, 405s, security headers), body limits, problem+json for every error. */
export function createApp(): AppOpenAPI {
  const app = createRouter();

  // Request id, base-URL check, services, CORS, 405s and security headers: one layer (envelope.ts).
  app.use(requestEnvelope({ methodNotAllowed: methodNotAllowed(() => app.routes) }));
  app.use('/api/*', bodyLimits());
  // The authorization page's form too (the library's own OAuth endpoints are capped in src/index.ts).
  app.use('/oauth/*', bodyLimits());
  app.use(strictUtf8());
  app.use('/api/*', jsonDepthLimit());

  app.notFound((c) =>
    problemResponse(
      problemBody('not-found', `No route for ${c.req.method} ${c.req.path}.`, {
        instance: c.req.path,
        requestId: c.get('requestId'),
      }),
    ),
  );

  app.onError((err, c) => {
    const extra = { instance: c.req.path, requestId: c.get('requestId') };
    if (err instanceof ProblemError) {
      return problemResponse(
        problemBody(err.type, err.message, { ...extra, errors: err.errors }),
        err.headers,
      );
    }
    if (err instanceof HTTPException) {
      const type = err.status in ERROR_STATUSES ? ERROR_STATUSES[err.status as ErrorStatus].type : undefined;
      if (type && type !== 'internal-error') {
        const detail =
          type === 'malformed-json'
            ? 'The request body is not valid JSON.'
            : type === 'unsupported-media-type'
              ? `Send the body as ${
                  FORM_BODY_PATHS.has(c.req.path)
                    ? 'a form with Content-Type: application/x-www-form-urlencoded'
                    : 'JSON with Content-Type: application/json'
                }${
                  c.req.header('content-type')
                    ? ` (this one is ${c.req.header('content-type')?.slice(0, 100)})`
                    : ''
                }.`
              : err.message;
        return problemResponse(problemBody(type, detail || type, extra));
      }
    }
    // Log the cause for operators; the caller gets no internals, only the request id.
    log('error', 'unhandled error', {
      requestId: extra.requestId,
      path: c.req.path,
      error: String(err),
      stack: err instanceof Error ? err.stack : undefined,
    });
    return problemResponse(problemBody('internal-error', 'An unexpected error occurred.', extra));
  });

  return app;
}
