// Load generation with autocannon (pure JS, in this process).
/// <reference path="./autocannon.d.ts" />
import autocannon from 'autocannon';

/**
 * @typedef {{
 *   rps: number;
 *   p50: number;
 *   p99: number;
 *   requests: number;
 *   non2xx: number;
 *   statuses: Record<string, number>;
 *   errors: number;
 *   seconds: number;
 * }} LoadResult
 */

/**
 * What a browser sends (Chrome's `Accept-Encoding`), on every request of every target: verifiers
 * and embed visitors are browsers, and in production the Workers runtime hands every Worker
 * `br, gzip` whatever the visitor sent. The service answers a verification gzipped when the
 * visitor accepts it (src/lib/content-coding.ts); the hello-world answers the same as without it.
 */
export const BROWSER_HEADERS = Object.freeze({ 'Accept-Encoding': 'gzip, deflate, br, zstd' });

/**
 * Loads `base` with `connections` keep-alive connections for `seconds`. Every request goes
 * through `next()` for its path and headers, for every target alike (a fixed path included),
 * so the client spends the same work per request whatever is measured.
 * @param {{ base: string; connections: number; seconds: number; next: () => { path: string; headers?: Record<string, string> } }} o
 * @returns {Promise<LoadResult>}
 */
export async function load({ base, connections, seconds, next }) {
  const result = await autocannon({
    url: base,
    connections,
    duration: seconds,
    pipelining: 1,
    timeout: 30,
    requests: [
      {
        method: 'GET',
        setupRequest: (/** @type {Record<string, unknown>} */ req) => {
          const { path, headers } = next();
          return {
            ...req,
            path,
            headers: { .../** @type {object} */ (req.headers ?? {}), ...BROWSER_HEADERS, ...headers },
          };
        },
      },
    ],
  });
  const total = result.requests.total;
  return {
    rps: total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: total,
    non2xx: result.non2xx,
    statuses: Object.fromEntries(
      Object.entries(/** @type {Record<string, { count: number }>} */ (result.statusCodeStats ?? {})).map(
        ([code, v]) => [code, v.count],
      ),
    ),
    errors: result.errors + result.timeouts,
    seconds: result.duration,
  };
}

/**
 * `n` requests through a small pool of concurrent fetches (warm-up, cache fill).
 * @template T
 * @param {number} n
 * @param {number} concurrency
 * @param {(i: number) => Promise<T>} task
 * @returns {Promise<T[]>}
 */
export async function pool(n, concurrency, task) {
  /** @type {T[]} */
  const out = new Array(n);
  let i = 0;
  const worker = async () => {
    while (i < n) {
      const mine = i++;
      out[mine] = await task(mine);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, concurrency) }, worker));
  return out;
}
