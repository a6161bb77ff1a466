// The rate limiter's added latency per request, median and p99.
//
// Method: N sequential requests to an API-key route (`GET /api/v1/keys/self`) through
// `wrangler dev --local`. The limiter reports its own cost in `Server-Timing: ratelimit;dur=…`
// (the Durable Object round trip, measured inside the Worker), so each request gives both the
// route's total latency and the limiter's part of it; the same route without the limiter is
// the total minus that part. Several keys are used so no request is refused (600/min each).
import { fmt, percentile, printTable } from './lib/stats.mjs';

const REQUESTS_PER_KEY = 400;
const KEYS = 3;

/**
 * @param {string} url
 * @param {{ email: string; password: string }} admin
 */
export async function benchLimiter(url, admin) {
  const login = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(admin),
  });
  if (!login.ok) throw new Error(`admin login failed: ${login.status} ${await login.text()}`);
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  /** @type {string[]} */
  const keys = [];
  for (let i = 0; i < KEYS; i++) {
    const res = await fetch(`${url}/api/admin/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, origin: url },
      body: JSON.stringify({ name: `bench-${i}`, scopes: ['integrity:check'] }),
    });
    if (res.status !== 201) throw new Error(`key issue failed: ${res.status} ${await res.text()}`);
    keys.push(/** @type {{ key: string }} */ (await res.json()).key);
  }

  /** @type {number[]} */ const total = [];
  /** @type {number[]} */ const limiter = [];
  /** @type {number[]} */ const without = [];
  for (const [k, key] of keys.entries()) {
    for (let i = 0; i < REQUESTS_PER_KEY; i++) {
      const started = performance.now();
      const res = await fetch(`${url}/api/v1/keys/self`, { headers: { 'X-Service-Key': key } });
      await res.arrayBuffer();
      const elapsed = performance.now() - started;
      if (res.status !== 200) throw new Error(`unexpected ${res.status}`);
      if (k === 0 && i < 50) continue; // warm-up
      const dur = Number(
        /ratelimit;dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '')?.[1] ?? Number.NaN,
      );
      total.push(elapsed);
      limiter.push(dur);
      without.push(elapsed - dur);
    }
  }
  const row = (/** @type {string} */ name, /** @type {number[]} */ v) => [
    name,
    fmt(percentile(v, 50)),
    fmt(percentile(v, 99)),
  ];
  console.log(`\nRate limiter (${total.length} sequential requests, GET /api/v1/keys/self)`);
  printTable(
    ['measure', 'p50', 'p99'],
    [
      row('route with limiter', total),
      row('limiter (Server-Timing)', limiter),
      row('route without limiter', without),
    ],
  );
  return {
    requests: total.length,
    limiterP50: percentile(limiter, 50),
    limiterP99: percentile(limiter, 99),
    routeP50: percentile(total, 50),
    routeP99: percentile(total, 99),
    withoutP50: percentile(without, 50),
    withoutP99: percentile(without, 99),
  };
}
