import type { Context } from 'hono';
import { TrieRouter } from 'hono/router/trie-router';
import { problemBody, problemResponse } from '../lib/problem';
import type { AppBindings } from '../middleware/context';
import { isFinished } from './response-headers';

type RouteList = ReadonlyArray<{ method: string; path: string }>;

/**
 * 405 with `Allow` when a path has routes but none for this method (RFC 9110 §15.5.6), as Hono's
 * `methodNotAllowed` middleware answers it, for the root app only (it is never mounted under a
 * prefix). Run by the request envelope on the response going out, in place of a middleware layer
 * of its own. Hono's runs its route lookups on every 404, the handlers' own included; a 404 a
 * handler built (`finishedResponse`: a number never issued on GET /api/verify, the keyspace's
 * common case) came from a route that matched this method, so it is left alone here without a
 * lookup (issue 18: the lookups were 6 % of the isolate's time on those misses).
 */
export function methodNotAllowed(routes: () => RouteList): (c: Context<AppBindings>) => void {
  let router: TrieRouter<string[]> | undefined;
  const methodRouter = () => {
    if (router) return router;
    const byPath = new Map<string, Set<string>>();
    for (const route of routes()) {
      if (route.method === 'ALL' || route.method === 'HEAD') continue;
      const methods = byPath.get(route.path) ?? new Set<string>();
      methods.add(route.method);
      if (route.method === 'GET') methods.add('HEAD');
      byPath.set(route.path, methods);
    }
    router = new TrieRouter<string[]>();
    for (const [path, methods] of byPath) router.add('ALL', path, [...methods]);
    return router;
  };
  return (c) => {
    if (c.res.status !== 404 || c.error || isFinished(c)) return;
    const allowed = new Set<string>();
    for (const [methods] of methodRouter().match('ALL', c.req.path)[0]) {
      for (const method of methods) allowed.add(method);
    }
    if (allowed.size === 0 || allowed.has(c.req.method)) return;
    // Setting `c.res` copies the 404's headers onto the new response (as Hono's does): not these.
    c.res.headers.delete('Allow');
    c.res.headers.delete('Content-Length');
    c.res = problemResponse(
      problemBody('method-not-allowed', `${c.req.method} is not allowed on ${c.req.path}.`, {
        instance: c.req.path,
        requestId: c.get('requestId'),
      }),
      { Allow: [...allowed].join(', ') },
    );
  };
}
