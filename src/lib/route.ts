/**
 * `defineRoute`: `createRoute` that knows the standard responses, so a route lists only what
 * is particular to it. What a route declares implies what it can answer:
 * - a JSON body: 400 (malformed JSON), 413, 415, 422;
 * - path parameters: 400 and 404; query parameters: 400;
 * - an auth declaration (`sessionAuth`, `apiKeyAuth`): 401, 403 and 429, and the rate-limit
 *   headers on its success responses;
 * - any unsafe method under `/api/`: 413 (the body limit applies whether or not a body is declared);
 * - every route: 500.
 * `errors` adds the rest (409, or 429 for a public route with its own limit).
 */
import { createRoute, type RouteConfig, z } from '@hono/zod-openapi';
import { type ErrorStatus, errorResponses, RATE_LIMIT_HEADERS } from './problem';

type RouteSpec = RouteConfig & {
  /**
   * Required: the stable camelCase name generated clients give the operation (`getBrief`).
   * Never rename one under `/api/v1/`: the frozen contract treats that as breaking.
   */
  operationId: string;
  /** Error statuses beyond the ones the route's shape implies. */
  errors?: readonly ErrorStatus[];
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
type DefinedRoute<R extends RouteSpec> = Omit<R, 'errors'> & { getRoutingPath(): string };

export function defineRoute<R extends RouteSpec>(spec: R): DefinedRoute<R> {
  const { errors = [], ...config } = spec;
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
  if (config.method !== 'get' && config.path.startsWith('/api/')) add(413);

  const success: Record<string, ResponseDoc> = {};
  for (const [status, response] of Object.entries(config.responses)) {
    const limited = authenticated && status.startsWith('2') && !('$ref' in response) && !response.headers;
    success[status] = limited ? { ...response, headers: RATE_LIMIT_HEADERS } : response;
  }
  const ordered = [...statuses].sort((a, b) => a - b);
  const standard: Record<string, ResponseDoc> = errorResponses(...ordered);
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
