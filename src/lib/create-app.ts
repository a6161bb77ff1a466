import { OpenAPIHono } from '@hono/zod-openapi';
import { HTTPException } from 'hono/http-exception';
import { methodNotAllowed } from 'hono/method-not-allowed';
import { requestId } from 'hono/request-id';
import { bodyLimits } from '../middleware/body-limits';
import { publicCors } from '../middleware/public-cors';
import { securityHeaders } from '../middleware/security-headers';
import { services } from '../middleware/services';
import { checkBaseUrl } from '../services/deployment-checks';
import { ERROR_STATUSES, type ErrorStatus, ProblemError, problemBody, problemResponse } from './problem';
import type { AppBindings, AppOpenAPI } from './types';
import { validationHook } from './validation';

/** A feature router. It inherits the zod hook, so every route's validation errors look alike. */
export function createRouter(): AppOpenAPI {
  return new OpenAPIHono<AppBindings>({ strict: false, defaultHook: validationHook });
}

/** The root app: request id, security headers, body limits, problem+json for every error. */
export function createApp(): AppOpenAPI {
  const app = createRouter();

  // Always our own id: a client-chosen X-Request-Id is never adopted (it would let anyone forge
  // or collide log correlation); a well-formed one is echoed as X-Client-Request-Id instead.
  app.use(requestId({ headerName: '' }));
  app.use(securityHeaders()); // also sets X-Request-Id on every response, problems included
  app.use(publicCors()); // public reads: CORS preflights (204) and `Access-Control-Allow-Origin: *`
  app.use(async (c, next) => {
    checkBaseUrl(c.env.PUBLIC_BASE_URL, c.req.url); // once per isolate; logs a mismatch (GET /api/health shows it)
    await next();
  });
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) =>
        problemResponse(
          problemBody('method-not-allowed', `${c.req.method} is not allowed on ${c.req.path}.`, {
            instance: c.req.path,
            requestId: c.get('requestId'),
          }),
          { Allow: methods.join(', ') },
        ),
    }),
  );
  app.use('/api/*', bodyLimits());
  app.use(services());

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
        const detail = type === 'malformed-json' ? 'The request body is not valid JSON.' : err.message;
        return problemResponse(problemBody(type, detail || type, extra));
      }
    }
    // Log the cause for operators; the caller gets no internals, only the request id.
    console.error(
      JSON.stringify({
        level: 'error',
        requestId: extra.requestId,
        path: c.req.path,
        error: String(err),
        stack: err instanceof Error ? err.stack : undefined,
      }),
    );
    return problemResponse(problemBody('internal-error', 'An unexpected error occurred.', extra));
  });

  return app;
}
