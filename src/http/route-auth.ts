/**
 * Route-level auth, declared once per route so the OpenAPI `security`, the enforcing
 * middleware and the documented refusals (added by `defineRoute`) can never disagree.
 */
import type { ApiKeyScope, Role } from '../db/schema';
import { requireApiKey, requireSession } from '../middleware/auth';
import { SECURITY } from './openapi';

/**
 * Cookie session, optionally restricted to roles. A child's account without their guardian's
 * consent is refused (403 `guardian-consent-required`) unless the route is one of the few
 * declared with `sessionAuthBeforeGuardianConsent` (DPDP §9: nothing beyond the signup).
 */
export const sessionAuth = (...roles: Role[]) => ({
  security: [...SECURITY.session],
  /** Which roles may call the operation (all signed-in users when absent). */
  ...(roles.length > 0 ? { 'x-roles': roles } : {}),
  middleware: requireSession({ roles }),
});

/**
 * Cookie session that a child may use before their guardian has consented: reading their own
 * profile and guardian status, naming a guardian, logging out and erasure. Keep this list short.
 */
export const sessionAuthBeforeGuardianConsent = (options: { recentSignIn?: string } = {}) => ({
  security: [...SECURITY.session],
  'x-before-guardian-consent': true,
  ...(options.recentSignIn ? { 'x-recent-sign-in': true } : {}),
  middleware: requireSession({ roles: [], beforeGuardianConsent: true, ...options }),
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
