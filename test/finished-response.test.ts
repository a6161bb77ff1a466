import { env } from 'cloudflare:test';
import type { MiddlewareHandler } from 'hono';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/http/create-app';
import { finishedResponse, publicJson } from '../src/http/finished-response';
import { noneMatch } from '../src/lib/etag';
import type { SessionUser } from '../src/lib/principals';
import type { AppBindings } from '../src/middleware/context';
import { ipRateLimit } from '../src/middleware/rate-limit';
import { isFinished } from '../src/middleware/response-headers';
import { candidateWithCertificate } from './harness';
import { call } from './helpers';

/**
 * The public hot paths build their response once with every header (`publicJson`,
 * `finishedResponse`) instead of letting the middleware add the security, CORS and rate-limit
 * headers one by one. Same rules, so the same headers: each case answers one request through a
 * route written the ordinary way (`c.body`) and one through the finished response, in the
 * service's own app (createApp: request id, security headers, CORS), and compares everything.
 */
const JSON_BODY = '{"ok":true}';
const ETAG = 'W/"abc"';
const CACHE = 'public, max-age=30';

/** Two apps answering the public leaderboard path, rate limited per IP like the real route. */
function apps(extra?: MiddlewareHandler<AppBindings>) {
  const ordinary = createApp();
  const finished = createApp();
  const own = {
    ETag: ETAG,
    'Cache-Control': CACHE,
    'Access-Control-Allow-Origin': '*',
    'Cross-Origin-Resource-Policy': 'cross-origin',
  };
  const pass: MiddlewareHandler<AppBindings> = async (_c, next) => next();
  ordinary.get('/api/leaderboard', extra ?? pass, ipRateLimit(), (c) =>
    c.req.header('If-None-Match') === ETAG
      ? c.body(null, 304, own)
      : c.body(JSON_BODY, 200, { ...own, 'Content-Type': 'application/json' }),
  );
  finished.get('/api/leaderboard', extra ?? pass, ipRateLimit(), (c) =>
    publicJson(c, JSON_BODY, ETAG, CACHE),
  );
  // A path that is no public read: no CORS, and a personal answer when a user is set.
  ordinary.get('/api/private', extra ?? pass, (c) =>
    c.body(JSON_BODY, 200, { 'Content-Type': 'application/json' }),
  );
  finished.get('/api/private', extra ?? pass, (c) =>
    finishedResponse(c, JSON_BODY, 200, { 'Content-Type': 'application/json' }),
  );
  return { ordinary, finished };
}

/** Every header, with the per-request values (request id, limiter timing) normalised. */
function headersOf(res: Response): [string, string][] {
  return [...res.headers].map(([name, value]): [string, string] => [
    name,
    name === 'x-request-id'
      ? '<id>'
      : name === 'server-timing'
        ? value.replace(/dur=[\d.]+/, 'dur=<ms>')
        : value,
  ]);
}

async function both(path: string, init: RequestInit, extra?: MiddlewareHandler<AppBindings>) {
  const { ordinary, finished } = apps(extra);
  // Each app counts its own, never-used address (a random /64: limits count IPv6 per /64),
  // so both see the same remaining quota. 250 random IPv4 addresses collided now and then.
  const hex = () => Math.floor(Math.random() * 0x10000).toString(16);
  const ip = () => ({ 'CF-Connecting-IP': `2001:db8:${hex()}:${hex()}::1` });
  const a = await ordinary.fetch(
    new Request(`http://localhost${path}`, { ...init, headers: { ...ip(), ...init.headers } }),
    env,
  );
  const b = await finished.fetch(
    new Request(`http://localhost${path}`, { ...init, headers: { ...ip(), ...init.headers } }),
    env,
  );
  return { a, b };
}

describe('a finished response carries exactly the headers the middleware would add', () => {
  it('200 on a public read: CORS, security headers, rate limit, request id', async () => {
    const { a, b } = await both('/api/leaderboard', {});
    expect(b.status).toBe(200);
    expect(await b.text()).toBe(JSON_BODY);
    expect(headersOf(b)).toEqual(headersOf(a));
    // What the comparison covers, spelled out.
    expect(b.headers.get('access-control-allow-origin')).toBe('*');
    expect(b.headers.get('access-control-expose-headers')).toContain('RateLimit');
    expect(b.headers.get('x-frame-options')).toBe('DENY');
    expect(b.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(b.headers.get('ratelimit-policy')).toBe('"ip";q=60;w=60');
    expect(b.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('304 when the client holds the ETag, and the client request id echoed', async () => {
    const { a, b } = await both('/api/leaderboard', {
      headers: { 'If-None-Match': ETAG, 'X-Request-Id': 'partner-trace-7' },
    });
    expect(b.status).toBe(304);
    expect(headersOf(b)).toEqual(headersOf(a));
    expect(b.headers.get('x-client-request-id')).toBe('partner-trace-7');
  });

  it('off the public reads: no CORS; an authenticated answer is never stored', async () => {
    const user = { id: 'u1', role: 'candidate' } as SessionUser;
    const signedIn: MiddlewareHandler<AppBindings> = async (c, next) => {
      c.set('user', user);
      await next();
    };
    const { a, b } = await both('/api/private', {}, signedIn);
    expect(headersOf(b)).toEqual(headersOf(a));
    expect(b.headers.get('cache-control')).toBe('no-store');
    expect(b.headers.has('access-control-allow-origin')).toBe(false);
  });

  it('the middleware leave a finished response alone, and only that one', async () => {
    const seen: boolean[] = [];
    const observe: MiddlewareHandler<AppBindings> = async (c, next) => {
      await next();
      seen.push(isFinished(c));
    };
    const { ordinary, finished } = apps(observe);
    await finished.fetch(new Request('http://localhost/api/private'), env);
    await ordinary.fetch(new Request('http://localhost/api/private'), env);
    expect(seen).toEqual([true, false]);
  });
});

describe('If-None-Match (RFC 9110 §13.1.2)', () => {
  it('matches `*`, a list, and either form of the tag under weak comparison; nothing else', () => {
    expect(noneMatch('W/"abc"', 'W/"abc"')).toBe(true);
    expect(noneMatch('"abc"', 'W/"abc"')).toBe(true);
    expect(noneMatch('W/"abc"', '"abc"')).toBe(true);
    expect(noneMatch('"other", W/"abc"', 'W/"abc"')).toBe(true);
    expect(noneMatch(' * ', 'W/"abc"')).toBe(true);
    expect(noneMatch('"abcd", W/"ab"', 'W/"abc"')).toBe(false);
    expect(noneMatch('abc', 'W/"abc"')).toBe(false);
    expect(noneMatch(undefined, 'W/"abc"')).toBe(false);
    expect(noneMatch('', 'W/"abc"')).toBe(false);
  });

  it('a public read answers 304 to a cache that sends several tags', async () => {
    const { certificateNo } = await candidateWithCertificate(`Etag ${crypto.randomUUID().slice(0, 6)}`);
    const res = await call(`/api/verify/${certificateNo}`);
    expect(res.status).toBe(200);
    const etag = res.headers.get('etag') ?? '';
    expect(etag).toMatch(/^W\/"/);
    await res.arrayBuffer();
    const again = await call(`/api/verify/${certificateNo}`, {
      headers: { 'If-None-Match': `"stale", ${etag.replace(/^W\//, '')}` },
    });
    expect(again.status).toBe(304);
  });
});
