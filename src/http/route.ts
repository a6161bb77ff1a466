/**
 * `defineRoute`: `createRoute` that knows the standard responses, so a route lists only what
 * is particular to it. What a route declares implies what it can answer:
 * - a JSON body: 400 (malformed JSON), 413, 415, 422;
 * - path parameters: 400 and 404; query parameters: 400;
 * - an auth declaration (`sessionAuth`, `apiKeyAuth`): 401, 403 and 429, and the rate-limit
 *   headers on its success responses;
 * - any unsafe method under `/api/`: 413 (the body limit applies whether or not a body is declared);
 * - any unsafe method: 400 (a text or JSON body that is not UTF-8 is refused whether or not the route
 *   reads one, src/middleware/strict-utf8.ts);
 * - every route: 500.
 * `errors` adds the rest (409, or 429 for a public route with its own limit).
 */
import { createRoute, type RouteConfig, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import {
  API_KEY_CHALLENGE,
  type ErrorStatus,
  errorResponses,
  RATE_LIMIT_HEADERS,
  SESSION_CHALLENGE,
} from '../lib/problem';
import { IDEMPOTENCY_HEADER, idempotency, REPLAYED_HEADER } from '../middleware/idempotency';

type RouteSpec = RouteConfig & {
  /**
   * Required: the stable camelCase name generated clients give the operation (`getBrief`).
   * Never rename one under `/api/v1/`: the frozen contract treats that as breaking.
   */
  operationId: string;
  /** Error statuses beyond the ones the route's shape implies. */
  errors?: readonly ErrorStatus[];
  /**
   * Honours `Idempotency-Key` (src/middleware/idempotency.ts): runs the idempotency middleware
   * after the route's auth, documents the header, the `Idempotent-Replayed` response header and
   * the 400/409/422 refusals. For every POST that creates something or triggers work.
   */
  idempotent?: boolean;
};

const OPERATION_ID = /^[a-z][a-zA-Z0-9]*$/;

/**
 * The 403 of a cookie-authenticated write: besides role, the CSRF defence refuses a request
 * whose `Origin` is not allowed (src/middleware/csrf.ts). Generated clients meet it first.
 */
const ORIGIN_403 = {
  description:
    'Not allowed for this caller: the role does not permit it, or (cookie-authenticated writes) the request has no ' +
    "allowed `Origin`. Send `Origin` equal to this server's own origin (or one listed in `ALLOWED_ORIGINS`), as " +
    'browsers do; non-browser clients set it themselves, e.g. `Origin: https://api.example.com`.',
  example: {
    type: '/problems/forbidden',
    title: 'Forbidden',
    status: 403,
    detail: 'Cookie-authenticated requests that change state must send an allowed Origin header.',
  },
};

type ResponseDoc = RouteConfig['responses'][string];

/** The route as `createRoute` returns it. Error responses are documented but not in the type: handlers throw them. */
type DefinedRoute<R extends RouteSpec> = Omit<R, 'errors' | 'idempotent'> & { getRoutingPath(): string };

/** The `Idempotency-Key` request header, as every idempotent operation documents it. */
const IDEMPOTENCY_KEY_PARAMETER = {
  name: IDEMPOTENCY_HEADER,
  in: 'header' as const,
  required: false,
  description:
    'Makes a retry safe (draft-ietf-httpapi-idempotency-key-header): a unique key per request, e.g. a UUID ' +
    '(1–255 visible ASCII characters, bare or as a quoted string). For 24 hours per caller, a retry with the same ' +
    'key and the same request gets the first response again, with `Idempotent-Replayed: true`; the same key with a ' +
    'different method, path or body is a 422 (`idempotency-key-mismatch`); a retry while the first is still running ' +
    'is a 409 (`idempotency-key-in-use`). Responses with a 5xx or 429 status are not kept, so a retry runs again.',
  schema: {
    type: 'string' as const,
    minLength: 1,
    maxLength: 255,
    example: '0f8c1f4e-6a2b-4c2e-9a57-0d6f3e1b2c4d',
  },
};

const REPLAYED_RESPONSE_HEADER = {
  [REPLAYED_HEADER]: {
    description:
      '`true` when this response is the stored response of an earlier request with the same `Idempotency-Key`.',
    schema: { type: 'string' as const, enum: ['true'] },
  },
};

const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

/**
 * An optional JSON body: nothing at all sent with `Content-Type: application/json` (as many clients
 * do on every POST) is no body, not malformed JSON. The validator parses the body text, so the
 * empty text is given to it as `{}`, the same as an absent body. Runs after the idempotency
 * middleware, whose fingerprint covers the bytes as sent. Hono caches each body as a promise
 * (its type says otherwise); a version that stops reading that cache fails
 * test/api-key-lifecycle.test.ts.
 */
const emptyOptionalJsonBody: MiddlewareHandler = async (c, next) => {
  const contentType = c.req.header('content-type');
  if (contentType && JSON_MEDIA_TYPE.test(contentType) && (await c.req.text()) === '')
    (c.req.bodyCache as { text?: Promise<string> }).text = Promise.resolve('{}');
  await next();
};

export function defineRoute<R extends RouteSpec>(spec: R): DefinedRoute<R> {
  const { errors = [], idempotent = false, ...config } = spec;
  let middleware: RouteConfig['middleware'] = config.middleware;
  let parameters: unknown[] | undefined = config.parameters;
  if (!OPERATION_ID.test(config.operationId)) {
    throw new Error(`operationId ${config.operationId} of ${config.path} is not camelCase`);
  }
  const statuses = new Set<ErrorStatus>(errors);
  const add = (...list: ErrorStatus[]) => {
    for (const status of list) statuses.add(status);
  };
  const authenticated = (config.security ?? []).length > 0;
  if (config.request?.body) add(400, 413, 415, 422);
  if (config.request?.params) add(400, 404);
  if (config.request?.query || config.request?.headers) add(400);
  if (authenticated) add(401, 403, 429);
  // Every write under /api/ is capped in size, and a JSON body in depth (64 levels, whether the route
  // reads a body or not: src/middleware/json-depth.ts).
  if (config.method !== 'get' && config.path.startsWith('/api/')) add(413, 422);
  if (config.method !== 'get') add(400);
  if (idempotent) {
    if (!authenticated)
      throw new Error(`${config.operationId}: Idempotency-Key is scoped to a caller; the route has no auth`);
    add(400, 409, 422);
    const own = middleware === undefined ? [] : Array.isArray(middleware) ? middleware : [middleware];
    middleware = [...own, idempotency()];
    parameters = [...(parameters ?? []), IDEMPOTENCY_KEY_PARAMETER];
  }
  if (config.request?.body && config.request.body.required !== true) {
    const own = middleware === undefined ? [] : Array.isArray(middleware) ? middleware : [middleware];
    middleware = [...own, emptyOptionalJsonBody];
  }

  const success: Record<string, ResponseDoc> = {};
  for (const [status, response] of Object.entries(config.responses)) {
    if (!status.startsWith('2') || '$ref' in response) {
      success[status] = response;
      continue;
    }
    const headers = {
      ...(authenticated && !response.headers ? RATE_LIMIT_HEADERS : {}),
      ...response.headers,
      ...(idempotent ? REPLAYED_RESPONSE_HEADER : {}),
    };
    success[status] = Object.keys(headers).length > 0 ? { ...response, headers } : response;
  }
  const ordered = [...statuses].sort((a, b) => a - b);
  const standard: Record<string, ResponseDoc> = errorResponses(...ordered);
  // Every 401 names its challenge (RFC 9110 §11.6.1): `API_KEY_CHALLENGE` (src/lib/problem.ts) on
  // partner routes, `SESSION_CHALLENGE` on the others.
  const unauthenticated = standard[401];
  if (unauthenticated && 'content' in unauthenticated) {
    const challenge = (config.security ?? []).some((s) => 'serviceKey' in s)
      ? API_KEY_CHALLENGE
      : SESSION_CHALLENGE;
    standard[401] = {
      ...unauthenticated,
      headers: {
        'WWW-Authenticate': { description: `The challenge: \`${challenge}\`.`, schema: { type: 'string' } },
      },
    };
  }
  // A caller's refusals (wrong scope or role) are counted against its limit first, so they carry
  // the limit's headers (src/middleware/auth.ts); an Origin refusal comes before the count.
  const refused = standard[403];
  if (authenticated && refused && 'content' in refused)
    standard[403] = { ...refused, headers: { ...refused.headers, ...RATE_LIMIT_HEADERS } };
  // A retry while the first request with its key still runs: 409 `idempotency-key-in-use`.
  const inUse = standard[409];
  if (idempotent && inUse && 'content' in inUse)
    standard[409] = {
      ...inUse,
      headers: {
        ...inUse.headers,
        'Retry-After': {
          description:
            'With `idempotency-key-in-use`: seconds to wait before retrying with the same key (the first request is still running).',
          schema: { type: 'integer' },
        },
      },
    };
  const cookieWrite = config.method !== 'get' && (config.security ?? []).some((s) => 'sessionCookie' in s);
  const forbidden = standard[403];
  if (cookieWrite && forbidden && 'content' in forbidden && forbidden.content) {
    standard[403] = {
      ...forbidden,
      description: ORIGIN_403.description,
      content: Object.fromEntries(
        Object.entries(forbidden.content).map(([type, media]) => [
          type,
          { ...media, example: ORIGIN_403.example },
        ]),
      ),
    };
  }
  return createRoute({
    ...config,
    ...(middleware === undefined ? {} : { middleware }),
    ...(parameters === undefined ? {} : { parameters }),
    // A route's own declaration of a status (an HTML error page, say) wins over the standard one.
    responses: { ...standard, ...success },
  }) as unknown as DefinedRoute<R>;
}

/** `{id}`: the path parameter of every resource addressed by an opaque id. */
export const IdParams = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'id', in: 'path' } }),
});

/**
 * `schema | null` for a named (component) schema. `schema.nullable()` would make the component
 * itself nullable, so every use of it, even a plain 200 body, would be typed `| null`; this keeps
 * the component non-nullable and puts the null where it can occur (see `normalizeSchemas`).
 */
export const nullableRef = <T extends z.ZodType>(schema: T) => z.union([schema, z.null()]);
