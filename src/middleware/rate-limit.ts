import type { Context, MiddlewareHandler } from 'hono';
import { sha256Hex } from '../domain/secrets';
import type { RateDecision } from '../durable/rate-limiter';
import { ProblemError } from '../lib/problem';
import type { AppBindings } from '../lib/types';

/** The seed's three limits (§8), all per 60-second sliding window. */
export const RATE_LIMITS = {
  apikey: { limit: 600, windowSeconds: 60 },
  user: { limit: 60, windowSeconds: 60 },
  ip: { limit: 60, windowSeconds: 60 },
} as const;

export type LimitKind = keyof typeof RATE_LIMITS;

/** `RateLimit-Policy` and `RateLimit` in draft-ietf-httpapi-ratelimit-headers-11 syntax. */
export function rateLimitHeaders(kind: LimitKind, d: RateDecision): Record<string, string> {
  const { windowSeconds } = RATE_LIMITS[kind];
  return {
    'RateLimit-Policy': `"${kind}";q=${d.limit};w=${windowSeconds}`,
    RateLimit: `"${kind}";r=${d.remaining};t=${d.resetSeconds}`,
  };
}

/** Most keys remembered as full at once; beyond that the oldest refusal is forgotten (and asked again). */
const MAX_FULL_KEYS = 10_000;

/**
 * Keys whose object has refused a request, with the time (this isolate's clock, ms) its oldest
 * counted request leaves the window. Until then the object would refuse every request for the
 * key: refusals are not counted, and other isolates can only fill the window further. So the
 * isolate refuses by itself without asking, and a client hammering past its limit costs its
 * object one call per isolate per window instead of one per request. Exact to within the round
 * trip that brought the refusal: the wait starts when the answer arrives, so at most a few
 * milliseconds longer than the object would refuse.
 */
const fullUntil = new Map<string, number>();

/** A refusal answered from `fullUntil`, in the object's own terms. */
function knownRefusal(limit: number, retryAfterMs: number): RateDecision {
  return { allowed: false, limit, remaining: 0, resetSeconds: Math.ceil(retryAfterMs / 1000), retryAfterMs };
}

/**
 * Counts this request with the key's Durable Object (one object per `kind:id`), unless the
 * key is known to be full (see `fullUntil`). `cached` tells whether the object was asked.
 */
export async function consumeRateLimit(
  env: Pick<Env, 'RATE_LIMITER'>,
  kind: LimitKind,
  id: string,
  now: number = Date.now(),
): Promise<RateDecision & { cached: boolean }> {
  const { limit, windowSeconds } = RATE_LIMITS[kind];
  const key = `${kind}:${id}`;
  const until = fullUntil.get(key);
  if (until !== undefined) {
    if (now < until) return { ...knownRefusal(limit, until - now), cached: true };
    fullUntil.delete(key);
  }
  const decision = await env.RATE_LIMITER.getByName(key).hit(limit, windowSeconds);
  if (!decision.allowed) {
    if (fullUntil.size >= MAX_FULL_KEYS) {
      const oldest = fullUntil.keys().next().value;
      if (oldest !== undefined) fullUntil.delete(oldest);
    }
    fullUntil.set(key, Date.now() + decision.retryAfterMs);
  }
  return { ...decision, cached: false };
}

/**
 * Counts the request and refuses it with a `quota-exceeded` problem when over the limit.
 * The headers go on every response of a limited route, errors included.
 */
export async function enforceRateLimit<E extends { Bindings: Env }>(
  c: Context<E>,
  kind: LimitKind,
  id: string,
  next: () => Promise<void>,
): Promise<void> {
  const started = performance.now();
  const decision = await consumeRateLimit(c.env, kind, id);
  // What the limiter adds to the request, for clients' devtools and for `npm run bench`.
  const timing = `ratelimit;dur=${(performance.now() - started).toFixed(2)}${decision.cached ? ';desc="known full"' : ''}`;
  const headers = { ...rateLimitHeaders(kind, decision), 'Server-Timing': timing };
  if (!decision.allowed) {
    throw new ProblemError(
      'quota-exceeded',
      `Rate limit of ${decision.limit} requests per ${RATE_LIMITS[kind].windowSeconds} seconds reached for this ${kind === 'apikey' ? 'API key' : kind === 'user' ? 'user' : 'IP address'}.`,
      { headers: { ...headers, 'Retry-After': String(decision.resetSeconds) } },
    );
  }
  await next();
  for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
}

/** Per client IP (`CF-Connecting-IP`), for public routes such as the leaderboard. */
export function ipRateLimit(): MiddlewareHandler<AppBindings> {
  return (c, next) => enforceRateLimit(c, 'ip', c.req.header('CF-Connecting-IP') ?? 'unknown', next);
}

/** Login attempts allowed per email address and client IP in a 15-minute sliding window. */
export const LOGIN_ATTEMPTS = { limit: 10, windowSeconds: 15 * 60 } as const;

/**
 * Brute-force slowing for `POST /api/auth/login`. One RateLimiter object per email address
 * (hashed: no personal data names a Durable Object) and client IP counts the attempts since
 * the last successful login: `begin` counts one and refuses (429) once 10 fall within 15
 * minutes, before any password is checked, so a locked-out guesser costs no PBKDF2 work;
 * `succeeded` clears the count. Counting attempts rather than failures keeps the limit exact
 * under a parallel burst, as the object answers one `hit` at a time.
 */
export async function loginAttempts(env: Env, email: string, ip: string | undefined) {
  const { limit, windowSeconds } = LOGIN_ATTEMPTS;
  const key = `login:${await sha256Hex(email.trim().toLowerCase())}:${ip ?? 'unknown'}`;
  const limiter = env.RATE_LIMITER.getByName(key);
  return {
    async begin(): Promise<void> {
      const decision = await limiter.hit(limit, windowSeconds);
      if (decision.allowed) return;
      throw new ProblemError(
        'quota-exceeded',
        `Too many login attempts for this account from this address: ${limit} in ${windowSeconds / 60} minutes.`,
        {
          headers: {
            'RateLimit-Policy': `"login";q=${limit};w=${windowSeconds}`,
            RateLimit: `"login";r=0;t=${decision.resetSeconds}`,
            'Retry-After': String(decision.resetSeconds),
          },
        },
      );
    },
    succeeded: () => limiter.reset(),
  };
}
