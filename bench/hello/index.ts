// The baseline of `npm run bench`: hello world on Hono, served by `wrangler dev --local` like
// the service. `GET /` is the hello-world every hot path is compared with.
//
// More routes measure what the local runtime costs on its own, with no service code: `GET /kv`
// is hello world plus one KV read (what a hot path would cost if every hit read KV), `GET
// /limiter` is hello world plus one call to the service's own rate-limiter Durable Object, the
// shard that counts the caller's `CF-Connecting-IP` (what the leaderboard needs at minimum, as
// every request is counted), and `GET /shaped?bytes=N` answers with a response of a verification's
// shape: N bytes of JSON (the bench passes the size of the service's answer as sent: ~3.8 KB, the
// gzip of ~14 KB of JSON, most of it the signed credential) and the headers the service sends on it. None is part of the
// hello-world figure.
import { Hono } from 'hono';
import type { RateLimiter } from '../../src/durable/rate-limiter';

export { RateLimiter } from '../../src/durable/rate-limiter';

type Bindings = { CACHE: KVNamespace; RATE_LIMITER: DurableObjectNamespace<RateLimiter> };

const app = new Hono<{ Bindings: Bindings }>();

app.get('/', (c) => c.json({ hello: 'world' }));

/**
 * The hello-world as a page: the baseline of the rows that answer HTML (the embed). `wrangler dev`
 * passes every `text/html` answer through its proxy's `HTMLRewriter` (live-reload injection:
 * decompress, parse, compress again), a step production does not have; a page pays it as the
 * embed does, as `GET /` pays the proxy's other costs as the JSON rows do (docs/decisions/0280).
 */
const PAGE =
  '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Hello</title></head><body><p>Hello, world.</p></body></html>\n';
app.get('/page', (c) => c.html(PAGE));

/** A cached payload of the size of the service's (about 1 KB of JSON), written on the first miss. */
const KEY = 'payload';
const PAYLOAD = JSON.stringify({ hello: 'world', padding: 'x'.repeat(1000) });

async function cached(kv: KVNamespace): Promise<string> {
  const hit = await kv.getWithMetadata<{ etag: string }>(KEY);
  if (hit.value !== null) return hit.value;
  await kv.put(KEY, PAYLOAD, { metadata: { etag: 'W/"1"' } });
  return PAYLOAD;
}

app.get('/kv', async (c) => c.body(await cached(c.env.CACHE), 200, { 'Content-Type': 'application/json' }));

// The service counts the public per-IP limit in 64 shard objects, in memory (`hitKey`); the floor
// makes the same call. (It used one object per address with storage written behind, as the
// service did before issue 18: that also left 200 objects' flushes and cleanup alarms running
// into whatever the bench measured next.)
const SHARDS = 64;
/** FNV-1a of the address: which shard (the service keys it with a secret; the floor need not). */
function shardOf(ip: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < ip.length; i++) h = Math.imul(h ^ ip.charCodeAt(i), 0x01000193);
  return (h >>> 0) % SHARDS;
}

app.get('/limiter', async (c) => {
  const ip = c.req.header('CF-Connecting-IP') ?? 'unknown';
  const decision = await c.env.RATE_LIMITER.getByName(`ip-shard:${shardOf(ip)}`).hitKey(ip, 60, 60);
  if (!decision.allowed) return c.json({ error: 'rate limited' }, 429);
  return c.body(PAYLOAD, 200, { 'Content-Type': 'application/json' });
});

/** The headers of a verification hit (src/lib/finished-response.ts `publicJson` and the envelope). */
const VERIFICATION_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'ETag, X-Request-Id, RateLimit, RateLimit-Policy, Retry-After',
  'Cache-Control': 'public, max-age=60',
  'Content-Security-Policy':
    "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'Content-Type': 'application/json',
  'Cross-Origin-Resource-Policy': 'cross-origin',
  ETag: 'W/"mwvpj0va-6624"',
  'Referrer-Policy': 'no-referrer',
  'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
};
const shapedBodies = new Map<number, string>();

app.get('/shaped', (c) => {
  const bytes = Math.min(Math.max(Number(c.req.query('bytes')) || 0, 16), 1_000_000);
  let body = shapedBodies.get(bytes);
  if (body === undefined) {
    body = JSON.stringify({ padding: 'x'.repeat(bytes - 14) });
    shapedBodies.set(bytes, body);
  }
  return c.body(body, 200, { ...VERIFICATION_HEADERS, 'X-Request-Id': crypto.randomUUID() });
});

export default app;

/**
 * The same hello-world under `/__hello` (`GET /__hello`, `GET /__hello/page`), for the service's
 * bench entry (bench/worker/index.ts) to answer from the service's own runtime: the baseline of
 * `BENCH_PAIRING=interleave` (decision 0292), loaded in the same process, in the same
 * milliseconds, as the row it is compared with.
 */
export const mountedHello = new Hono<{ Bindings: Bindings }>().route('/__hello', app);
