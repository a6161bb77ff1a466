// The baseline of `npm run bench`: hello world on Hono, served by `wrangler dev --local` like
// the service. `GET /` is the hello-world every hot path is compared with.
//
// Two more routes measure what the local runtime's bindings cost on their own, with no service
// code: `GET /kv` is hello world plus one KV read (what a hot path would cost if every hit read
// KV), `GET /limiter` is hello world plus one call to the service's own rate-limiter Durable
// Object, the shard that counts the caller's `CF-Connecting-IP` (what the leaderboard needs at
// minimum, as every request is counted). Neither is part of the hello-world figure.
import { Hono } from 'hono';
import type { RateLimiter } from '../../src/durable/rate-limiter';

export { RateLimiter } from '../../src/durable/rate-limiter';

type Bindings = { CACHE: KVNamespace; RATE_LIMITER: DurableObjectNamespace<RateLimiter> };

const app = new Hono<{ Bindings: Bindings }>();

app.get('/', (c) => c.json({ hello: 'world' }));

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

export default app;
