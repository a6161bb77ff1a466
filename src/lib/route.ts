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
  /** Error statuses beyond the ones the route's shape implies. */
  errors?: readonly ErrorStatus[];
};

type ResponseDoc = RouteConfig['responses'][string];

/** The route as `createRoute` returns it. Error responses are documented but not in the type: handlers throw them. */
type DefinedRoute<R extends RouteSpec> = Omit<R, 'errors'> & { getRoutingPath(): string };

export function defineRoute<R extends RouteSpec>(spec: R): DefinedRoute<R> {
  const { errors = [], ...config } = spec;
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
  return createRoute({
    ...config,
    // A route's own declaration of a status (an HTML error page, say) wins over the standard one.
    responses: { ...errorResponses(...ordered), ...success },
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
