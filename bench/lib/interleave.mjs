// Two targets loaded in turn, in short windows, by one set of keep-alive connections
// (BENCH_PAIRING=interleave, decision 0292).
//
// Each window gives all `connections` to one target for `windowMs` (each connection sends its
// next request until the window's end, and the window closes when the last answer is in), then
// the next window goes to the other target: A B A B … for `seconds`. A target's rate in a window
// is the requests it answered over the window's length; the slice reads each target's median
// window rate. This machine stalls for 100–400 ms a few times a second (docs/performance.md,
// 2026-11-29 09:00 UTC): a stall lands in a few windows of whichever target holds the connections
// then, and the median sets those windows aside, where a whole 2-second run keeps them (it
// strayed 15–20 % from one run to the next with nothing changed).
import http from 'node:http';
import { percentile } from './stats.mjs';

/**
 * @typedef {{ base: string; next: () => { path: string; headers?: Record<string, string> } }} Target
 * @typedef {{
 *   rps: number;
 *   windowRps: number;
 *   p50: number;
 *   p99: number;
 *   requests: number;
 *   non2xx: number;
 *   statuses: Record<string, number>;
 *   errors: number;
 *   seconds: number;
 *   windows: number;
 * }} SideResult
 */

/** @type {Map<string, http.Agent>} one keep-alive pool per Worker, reused by every slice */
const agents = new Map();

/** @param {string} base @param {number} connections */
function agentOf(base, connections) {
  const key = `${base} ${connections}`;
  let agent = agents.get(key);
  if (!agent) {
    agent = new http.Agent({ keepAlive: true, maxSockets: connections });
    agents.set(key, agent);
  }
  return agent;
}

/** Closes the pooled connections (at the end of the bench). */
export function closeInterleaveAgents() {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}

/** @param {number[]} v */
const median = (v) => {
  const s = [...v].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? /** @type {number} */ (s[mid]) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
};

/**
 * @param {Target} target
 * @param {number} connections
 * @param {Record<string, string>} extraHeaders
 */
function side(target, connections, extraHeaders) {
  const url = new URL(target.base);
  return {
    target,
    host: url.hostname,
    port: Number(url.port),
    agent: agentOf(target.base, connections),
    extraHeaders,
    /** @type {number[]} */ latencies: [],
    /** @type {number[]} */ windowRates: [],
    /** @type {Record<string, number>} */ statuses: {},
    requests: 0,
    errors: 0,
    ms: 0,
  };
}

/**
 * One request; resolves when its body has been read.
 * @param {ReturnType<typeof side>} s
 * @returns {Promise<void>}
 */
function send(s) {
  const { path, headers } = s.target.next();
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.request(
      { host: s.host, port: s.port, path, agent: s.agent, headers: { ...s.extraHeaders, ...headers } },
      (res) => {
        res.on('data', () => {});
        res.on('end', () => {
          s.latencies.push(performance.now() - started);
          const code = String(res.statusCode);
          s.statuses[code] = (s.statuses[code] ?? 0) + 1;
          s.requests++;
          resolve();
        });
        res.on('error', () => {
          s.errors++;
          resolve();
        });
      },
    );
    req.on('error', () => {
      s.errors++;
      resolve();
    });
    req.end();
  });
}

/**
 * Loads `a` and `b` in alternating windows for `seconds`, with `connections` keep-alive
 * connections per target.
 * @param {{ a: Target; b: Target; connections: number; seconds: number; windowMs: number; headers?: Record<string, string> }} o
 * @returns {Promise<{ ratio: number; a: SideResult; b: SideResult }>} `ratio`: a's median window rate over b's
 */
export async function interleave({ a, b, connections, seconds, windowMs, headers = {} }) {
  const sides = [side(a, connections, headers), side(b, connections, headers)];
  const end = performance.now() + seconds * 1000;
  for (let turn = 0; performance.now() < end; turn++) {
    const s = /** @type {ReturnType<typeof side>} */ (sides[turn % 2]);
    const started = performance.now();
    const closes = started + windowMs;
    const before = s.requests;
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() < closes) await send(s);
      }),
    );
    const ms = performance.now() - started;
    s.ms += ms;
    s.windowRates.push(((s.requests - before) * 1000) / ms);
  }
  /** @param {ReturnType<typeof side>} s @returns {SideResult} */
  const result = (s) => ({
    rps: (s.requests * 1000) / s.ms,
    windowRps: median(s.windowRates),
    p50: Math.round(percentile(s.latencies, 50)),
    p99: Math.round(percentile(s.latencies, 99)),
    requests: s.requests,
    non2xx: Object.entries(s.statuses).reduce((n, [code, c]) => (code.startsWith('2') ? n : n + c), 0),
    statuses: s.statuses,
    errors: s.errors,
    seconds: s.ms / 1000,
    windows: s.windowRates.length,
  });
  const [ra, rb] = [
    result(/** @type {ReturnType<typeof side>} */ (sides[0])),
    result(/** @type {ReturnType<typeof side>} */ (sides[1])),
  ];
  return { ratio: ra.windowRps / rb.windowRps, a: ra, b: rb };
}
