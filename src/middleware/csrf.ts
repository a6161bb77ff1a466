import type { Context } from 'hono';
import { ProblemError } from '../lib/problem';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The service's own origin plus `ALLOWED_ORIGINS` (comma-separated). */
export function allowedOrigins(env: Pick<Env, 'PUBLIC_BASE_URL' | 'ALLOWED_ORIGINS'>): Set<string> {
  const list = [env.PUBLIC_BASE_URL, ...(env.ALLOWED_ORIGINS ?? '').split(',')];
  const origins = new Set<string>();
  for (const entry of list) {
    try {
      if (entry.trim()) origins.add(new URL(entry.trim()).origin);
    } catch {
      // A malformed entry in configuration allows nothing.
    }
  }
  return origins;
}

/**
 * Cookie-authenticated unsafe requests must come from an allowed origin: `Origin` in the
 * allow-list, the request's own origin, or `Sec-Fetch-Site: same-origin`. (JSON bodies are
 * enforced separately: a body that is not `application/json` is a 415, which a cross-site
 * form cannot send without a CORS preflight we never grant.)
 */
export function assertSameSiteRequest<E extends { Bindings: Env }>(c: Context<E>): void {
  if (SAFE_METHODS.has(c.req.method)) return;
  if (c.req.header('Sec-Fetch-Site') === 'same-origin') return;
  const origin = c.req.header('Origin');
  if (origin && (origin === new URL(c.req.url).origin || allowedOrigins(c.env).has(origin))) return;
  throw new ProblemError(
    'forbidden',
    origin
      ? `Origin ${origin} is not allowed to make this request.`
      : 'Cookie-authenticated requests that change state must send an allowed Origin header.',
  );
}
