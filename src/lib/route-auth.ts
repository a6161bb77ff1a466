/**
 * Route-level auth, declared once per route so the OpenAPI `security`, the enforcing
 * middleware and the documented refusals (added by `defineRoute`) can never disagree.
 */
import type { ApiKeyScope, Role } from '../db/schema';
import { requireApiKey, requireSession } from '../middleware/auth';
import { SECURITY } from './openapi';

/** Cookie session, optionally restricted to roles. */
export const sessionAuth = (...roles: Role[]) => ({
  security: [...SECURITY.session],
  /** Which roles may call the operation (all signed-in users when absent). */
  ...(roles.length > 0 ? { 'x-roles': roles } : {}),
  middleware: requireSession(...roles),
});

/** Partner API key, optionally with a scope. */
export const apiKeyAuth = (scope?: ApiKeyScope) => ({
  security: [...SECURITY.apiKey],
  /** The API-key scope the operation needs (any live key when absent). */
  ...(scope ? { 'x-scope': scope } : {}),
  middleware: requireApiKey(scope),
});

/** No credentials: the route is public. */
export const publicAccess = () => ({ security: [] as Record<string, string[]>[] });
