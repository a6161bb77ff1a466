import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import type { ApiKeyScope, Role } from '../db/schema';
import type { UsageOutcome } from '../durable/rate-limiter';
import { clock } from '../lib/clock';
import { log } from '../lib/log';
import { API_KEY_CHALLENGE, ProblemError } from '../lib/problem';
import type { ApiKeyEnv, SessionEnv } from '../middleware/context';
import { lastUsedIsStale, resolveApiKey, touchApiKey } from '../services/api-keys';
import { needsGuardianConsent } from '../services/guardians';
import { assertRecentSignIn } from '../services/recent-sign-in';
import { resolveSession } from '../services/sessions';
import { assertSameSiteRequest } from './csrf';
import { enforceRateLimit } from './rate-limit';
import { SESSION_COOKIE, setSessionCookie } from './session-cookie';

/**
 * Session routes: a live session cookie (401), an allowed origin for unsafe methods (403), then
 * 60 requests/min per user (429), then one of `roles` when given (403), a child's guardian
 * consent unless the route is allowed before it (403 `guardian-consent-required`), and a recent
 * sign-in when the route asks for one (403 `recent-sign-in-required`: `recentSignIn` names the act).
 */
export function requireSession(
  options: { roles: Role[]; beforeGuardianConsent?: boolean; recentSignIn?: string } = { roles: [] },
): MiddlewareHandler<SessionEnv> {
  const { roles } = options;
  return async (c, next) => {
    const token = getCookie(c, SESSION_COOKIE);
    const resolved = token ? await resolveSession(c.var.db, token) : null;
    if (!resolved) throw new ProblemError('unauthenticated', 'A valid session cookie is required.');
    assertSameSiteRequest(c);
    const { user, renewedUntil } = resolved;
    c.set('user', user);
    // Counted before the role and guardian checks: a refused request is a request, so calling
    // routes of another role does not escape the limit (and its 403 carries the RateLimit headers).
    await enforceRateLimit(c, 'user', user.id, async () => {
      if (roles.length > 0 && !roles.includes(user.role)) {
        throw limitedRefusal(
          c.get('rateLimitHeaders'),
          'forbidden',
          `This action needs the ${roles.join(' or ')} role.`,
        );
      }
      if (!options.beforeGuardianConsent && (await needsGuardianConsent(c.var.db, user, clock.now())))
        throw limitedRefusal(
          c.get('rateLimitHeaders'),
          'guardian-consent-required',
          'This account belongs to a child: a parent or lawful guardian must approve it first (see GET /api/me/guardian).',
        );
      if (options.recentSignIn) assertRecentSignIn(user, options.recentSignIn, c.get('rateLimitHeaders'));
      await next();
      if (renewedUntil && token && !c.get('sessionEnded')) setSessionCookie(c, token, renewedUntil);
    });
  };
}

/**
 * A refusal made after the request was counted: it carries the `RateLimit` headers like every
 * other answer of a limited route (`enforceRateLimit` sets them only on responses that return).
 */
function limitedRefusal(
  rateLimitHeaders: Record<string, string> | undefined,
  type: 'forbidden' | 'guardian-consent-required',
  detail: string,
): ProblemError {
  return new ProblemError(type, detail, { headers: rateLimitHeaders ?? {} });
}

/** Which usage count a response of an API key falls in (5xx apart: our failures are not the partner's). */
export function usageOutcome(status: number): UsageOutcome {
  if (status === 429) return 'rateLimited';
  if (status >= 500) return 'serverError';
  if (status >= 400) return 'clientError';
  return 'success';
}

const apiKeyRefused = (detail: string) =>
  new ProblemError('unauthenticated', detail, { headers: { 'WWW-Authenticate': API_KEY_CHALLENGE } });

/**
 * Partner routes: a live `X-Service-Key` (401 with a `WWW-Authenticate` challenge; an expired key
 * says so), then 600 requests/min per key or the key's own lower limit (429), then `scope` when
 * given (403). Every request of a known key is counted by outcome in its limiter object, after the
 * response (`waitUntil`).
 */
export function requireApiKey(scope?: ApiKeyScope): MiddlewareHandler<ApiKeyEnv> {
  return async (c, next) => {
    const presented = c.req.header('X-Service-Key');
    const db = c.var.db;
    const resolved = presented ? await resolveApiKey(db, presented) : null;
    if (resolved?.status === 'expired') throw apiKeyRefused('This API key has expired; ask for a new one.');
    if (!resolved) throw apiKeyRefused('A valid X-Service-Key header is required.');
    const { key } = resolved;
    const at = Date.now();
    let status = 500;
    try {
      const { lastUsedAt: _lastUsedAt, ...principal } = key;
      c.set('apiKey', principal);
      if (lastUsedIsStale(key.lastUsedAt)) c.executionCtx.waitUntil(touchApiKey(db, key.id));
      // The scope is checked after the request is counted: a key calling operations it lacks the
      // scope for is limited like any other (429 once over), and its 403s carry the RateLimit headers.
      await enforceRateLimit(
        c,
        'apikey',
        key.id,
        async () => {
          if (scope && !key.scopes.includes(scope))
            throw limitedRefusal(
              c.get('rateLimitHeaders'),
              'forbidden',
              `This API key lacks the ${scope} scope.`,
            );
          await next();
        },
        key.ratelimitPerMinute,
      );
      status = c.res.status;
    } catch (err) {
      status = err instanceof ProblemError ? err.status : 500;
      throw err;
    } finally {
      c.executionCtx.waitUntil(
        recordUsage(c.env, key.id, usageOutcome(status), at).catch((err) =>
          log('error', 'usage: record failed', { error: String(err) }),
        ),
      );
    }
  };
}

/** Counts one request of an API key in its limiter object (written to D1 in batches by its alarm). */
export const recordUsage = (
  env: Pick<Env, 'RATE_LIMITER'>,
  apiKeyId: string,
  outcome: UsageOutcome,
  at: number,
) => env.RATE_LIMITER.getByName(`apikey:${apiKeyId}`).record(apiKeyId, outcome, at);
