/**
 * Route-level auth, declared once per route so the OpenAPI `security`, the enforcing
 * middleware and the documented refusals can never disagree.
 */
import type { ApiKeyScope, Role } from '../db/schema';
import { requireApiKey, requireSession } from '../middleware/auth';
import { SECURITY } from './openapi';
import { errorResponses, RATE_LIMIT_HEADERS } from './problem';

/** Cookie session, optionally restricted to roles. Documents 401, 403 and 429. */
export const sessionAuth = (...roles: Role[]) => ({
  security: [...SECURITY.session],
  /** Which roles may call the operation (all signed-in users when absent). */
  ...(roles.length > 0 ? { 'x-roles': roles } : {}),
  middleware: requireSession(...roles),
});

/** Partner API key, optionally with a scope. Documents 401, 403 and 429. */
export const apiKeyAuth = (scope?: ApiKeyScope) => ({
  security: [...SECURITY.apiKey],
  /** The API-key scope the operation needs (any live key when absent). */
  ...(scope ? { 'x-scope': scope } : {}),
  middleware: requireApiKey(scope),
});

export const authErrors = () => errorResponses(401, 403, 429);

/** A success response of a rate-limited route, with the rate-limit headers documented. */
export function limitedResponse<T>(description: string, content: T) {
  return { description, headers: RATE_LIMIT_HEADERS, content };
}
