// The public reads on a cache hit, side by side with a hello-world Hono Worker.
//
// Method (the default since decision 0292, `BENCH_PAIRING=interleave`): every row is paired with
// the same hello-world (bench/hello) answered by the row's own runtime process (bench/worker/index.ts
// serves it at `/__hello`), one set of keep-alive connections giving 20 ms windows to each in turn
// for 2 × `seconds`; a slice's ratio is the row's median window rate over the hello-world's. This
// machine's stalls (100–400 ms, a few a second) land in a few windows, which the medians set aside,
// and the two sides share one process, so neither can be the one that happened to run slower. The
// rest of this comment describes `BENCH_PAIRING=alternate`, the method before it (decision 0220),
// whose rounds, medians, warm-up and rows are unchanged.
//
// Method (alternate): both Workers run under `wrangler dev --local` in this run. Caches are filled first
// (every certificate number used, every leaderboard domain, the agreement rate, the public
// documents) and each target gets a short untimed warm-up. Then autocannon loads one target at
// a time with the same connections, in short slices that alternate with the hello-world
// (H, control, H, verify, H, agreement, H, leaderboard, H, …, H, then the same pass again), so
// drift on a shared machine hits both sides. A slice's ratio is the row's throughput over the
// mean of the two hello-world slices around it; a round is `slices` such passes over every row,
// and a round's ratio is the median of its slices' ratios (docs/decisions/0220): a burst of the
// host's other work lands in one or two slices of a row, which the median sets aside, instead of
// in a whole 10-second run. Every target must hold in every round. The control is the hello-world
// itself, measured as if it were a path: its ratio is 1 but for the machine, so its rounds show
// how far a round strays with nothing changed. With BENCH_EXTRA=1 the rounds also measure the
// floors, routes of the hello-world Worker itself (bench/hello): one KV read, one call to the
// service's RateLimiter Durable Object, and an answer of a verification's size and headers —
// what the local runtime costs with no service code — and the leaderboard and embed over 10,000
// addresses. Each run also records the CPU time the Worker's processes spent per request (Linux
// /proc).
//
// The leaderboard is limited to 60 requests/min per `CF-Connecting-IP`. The load sends a
// rotating `CF-Connecting-IP` from a pool of 1,000 addresses (round robin), so the limiter runs
// on every request but never refuses: each address gets 1/1,000 of the requests, a few per
// slice, and the row's slices come round about every 40 seconds. Any non-2xx fails the run.
// Another row sends a never-seen address with every request (the leaderboard and the embed
// page): the traffic of a page embedded for many first-time visitors.
//
// The embed page is HTML, and `wrangler dev` passes every HTML answer through its proxy's
// `HTMLRewriter` (decompress, parse, compress again), which production does not do: its slices are
// judged against the hello-world's page (`GET /page`, H P X P H), which pays the same step, and its
// ratio to the JSON `GET /` is printed beside them (docs/decisions/0280).
//
// D1 rows read come from the service's own `X-D1-Rows-Read` header (D1's `meta.rows_read`,
// summed per request; see bench/worker/d1-stats.ts), on the misses that fill the caches and
// on a sample of hits.
import { hottest, profileWhile } from './lib/inspector.mjs';
import { closeInterleaveAgents, interleave } from './lib/interleave.mjs';
import { BROWSER_HEADERS, load, pool } from './lib/load.mjs';
import { printTable } from './lib/stats.mjs';

// Recurring visitors (issue 43): 1,000 addresses round robin, so that none passes the 60/min
// limit within a 10-second run at up to ~6,000 requests/s (a real visitor sends a few a minute).
const IP_POOL = 1000;
const TEN_K = 10_000;
const ip = (/** @type {number} */ i) => `198.18.${Math.floor(i / 250)}.${(i % 250) + 1}`;

/**
 * @param {string} url
 * @param {Record<string, string>} [headers]
 */
async function get(url, headers = {}) {
  const started = performance.now();
  const res = await fetch(url, { headers: { ...BROWSER_HEADERS, ...headers, 'X-D1-Stats': '1' } });
  const body = await res.arrayBuffer();
  return {
    status: res.status,
    // What crossed the wire (a gzipped answer is decoded by fetch: its Content-Length is the size sent).
    bytes: Number(res.headers.get('content-length') ?? body.byteLength),
    ms: performance.now() - started,
    rowsRead: Number(res.headers.get('x-d1-rows-read') ?? Number.NaN),
    queries: Number(res.headers.get('x-d1-queries') ?? Number.NaN),
    unmetered: Number(res.headers.get('x-d1-unmetered') ?? 0),
  };
}

/** @param {number[]} v */
const mean = (v) => v.reduce((a, b) => a + b, 0) / v.length;
/** @param {number[]} v */
const median = (v) => {
  const s = [...v].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? /** @type {number} */ (s[m]) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};

/** @typedef {'verify' | 'agreement' | 'leaderboard'} HotPath */
const PATHS = /** @type {const} */ (['verify', 'agreement', 'leaderboard']);
/** @typedef {HotPath | 'floorKv' | 'floorLimiter' | 'floorShaped' | 'control'} Measured */
/** @typedef {'leaderboardFresh' | 'leaderboardTenK' | 'embedFresh' | 'embedTenK' | 'verifyKeyspace' | PublicRow} Extra */
/**
 * The other public reads (issue 43), measured every round like the hot paths: the embed page with
 * a new IP per request (what an embed on a partner's page sees), its loader script, the Open Badges
 * documents a credential names (issuer, achievement and key, in turn), a status list and the JWKS.
 * @typedef {'embedFresh' | 'embedScript' | 'obDocs' | 'statusList' | 'jwks'} PublicRow
 */
export const PUBLIC_ROWS = /** @type {const} */ ([
  'embedFresh',
  'embedScript',
  'obDocs',
  'statusList',
  'jwks',
]);
/**
 * The rows that answer HTML, judged against the hello-world's page (`GET /page`) rather than its
 * JSON `GET /`: under `wrangler dev` every `text/html` answer goes through the dev proxy's
 * `HTMLRewriter`, which production does not have (docs/decisions/0280). Their ratio to `GET /`
 * is printed too.
 */
const HTML_ROWS = new Set(['embedFresh', 'embedTenK']);

/** In the keyspace run, one request in this many asks for a certificate that exists. */
const KEYSPACE_KNOWN_EVERY = 10;
/**
 * `interleave`'s window (decision 0292): long enough for every connection to be answered a few
 * times (p50 7–11 ms), short enough that a slice holds ~100 windows per side.
 */
const WINDOW_MS = 20;

/**
 * @param {{
 *   hello: import('./lib/server.mjs').RunningWorker;
 *   helloControl: import('./lib/server.mjs').RunningWorker;
 *   service: import('./lib/server.mjs').RunningWorker;
 *   certificates: string[];
 *   keyspace: string[];
 *   domains: string[];
 *   connections: number;
 *   seconds: number;
 *   rounds: number;
 *   slices: number;
 *   pairing: 'interleave' | 'together' | 'alternate';
 *   extra?: boolean;
 *   profile?: { inspectorPort: number };
 *   only?: string[];
 *   goals?: Record<string, number>;
 * }} opts `only`: measure just these paths (BENCH_ONLY=verification or leaderboard); `profile`: also take a CPU profile of the service's isolate under each path's load
 */
export async function benchHotPaths(opts) {
  const o = {
    ...opts,
    hello: opts.hello.url,
    helloControl: opts.helloControl.url,
    service: opts.service.url,
  };
  // The hello-world and its control run whatever is measured.
  const wanted = (/** @type {string} */ name) =>
    name === 'hello' || name === 'control' || !o.only || o.only.includes(name);
  const workerOf = (/** @type {string} */ base) =>
    base === o.hello ? opts.hello : base === o.helloControl ? opts.helloControl : opts.service;
  // --- Fill the caches (misses), recording what a miss reads from D1.
  /** @param {{ status: number; ms: number; rowsRead: number; queries: number; unmetered: number }[]} rs */
  const missStats = (rs) => ({
    requests: rs.length,
    msMean: mean(rs.map((r) => r.ms)),
    msMax: Math.max(...rs.map((r) => r.ms)),
    rowsReadMean: mean(rs.map((r) => r.rowsRead)),
    rowsReadMax: Math.max(...rs.map((r) => r.rowsRead)),
    queriesMean: mean(rs.map((r) => r.queries)),
    unmetered: rs.reduce((n, r) => n + r.unmetered, 0),
  });
  const misses = {
    verify: await pool(o.certificates.length, 8, (i) => get(`${o.service}/api/verify/${o.certificates[i]}`)),
    agreement: [await get(`${o.service}/api/public/agreement-rate`)],
    leaderboard: await pool(o.domains.length + 1, 4, (i) =>
      get(`${o.service}/api/leaderboard${i < o.domains.length ? `?domain=${o.domains[i]}` : ''}`, {
        'CF-Connecting-IP': ip(i),
      }),
    ),
  };
  for (const name of PATHS) {
    const bad = misses[name].find((r) => r.status !== 200);
    if (bad) throw new Error(`${name}: cache fill answered ${bad.status}`);
  }
  // The Open Badges documents a seeded credential names (its issuer, achievement and key).
  const sample = /** @type {{ brief: { id: string }; organisation: { id: string } | null }} */ (
    await (await fetch(`${o.service}/api/verify/${o.certificates[0]}`)).json()
  );
  const jwksBody = /** @type {{ keys: { kid: string }[] }} */ (
    await (await fetch(`${o.service}/.well-known/jwks.json`)).json()
  );
  const obPaths = [
    `/ob/issuers/${sample.organisation?.id ?? 'platform'}`,
    `/ob/achievements/${sample.brief.id}`,
    new URL(jwksBody.keys[0]?.kid ?? '', o.service).pathname,
  ];
  const statusListPath = '/ob/status-lists/revocation/0';
  const publicMisses = {
    obDocs: await pool(obPaths.length, 1, (i) => get(`${o.service}${obPaths[i]}`)),
    statusList: [await get(`${o.service}${statusListPath}`)],
    jwks: [await get(`${o.service}/.well-known/jwks.json`)],
    embedScript: [await get(`${o.service}/embed/leaderboard.js`)],
    embedFresh: await pool(o.domains.length, 4, (i) =>
      get(`${o.service}/embed/leaderboard?domain=${o.domains[i]}`, { 'CF-Connecting-IP': ip(i) }),
    ),
  };
  for (const [name, rs] of Object.entries(publicMisses)) {
    const bad = rs.find((r) => r.status !== 200);
    if (bad) throw new Error(`${name}: cache fill answered ${bad.status}`);
  }
  let obTurn = 0;
  /** The mean size of a verification's answer as sent (the shaped floor answers with as many bytes). */
  const shapedBytes = Math.round(mean(misses.verify.map((r) => r.bytes)));
  // The limiter knows every pooled address before the timed runs (the floor Worker's too).
  await pool(IP_POOL, 8, (i) =>
    get(`${o.service}/api/leaderboard?domain=${o.domains[i % o.domains.length]}`, {
      'CF-Connecting-IP': ip(i),
    }),
  );
  await pool(IP_POOL, 8, (i) => get(`${o.hello}/limiter`, { 'CF-Connecting-IP': ip(i) }));
  let floorIpTurn = 0;
  let ipTurn = IP_POOL; // the round robin continues where the warm-up stopped
  let freshTurn = 0;
  const fresh = () => {
    const n = freshTurn++;
    return `10.${Math.floor(n / 62_500) % 250}.${Math.floor(n / 250) % 250}.${(n % 250) + 1}`;
  };
  // 10,000 distinct addresses, round robin (each one at most a few times a minute).
  let tenKTurn = 0;
  const tenK = () => {
    const n = tenKTurn++ % TEN_K;
    return `172.${16 + Math.floor(n / 62_500)}.${Math.floor(n / 250) % 250}.${(n % 250) + 1}`;
  };

  // --- Targets: each request's path (and headers) from a rotating source.
  let certTurn = 0;
  let keyspaceTurn = 0;
  let keyspaceKnownTurn = 0;
  let domainTurn = 0;
  const board = () => `/api/leaderboard?domain=${o.domains[domainTurn++ % o.domains.length]}`;
  const targets = {
    hello: { base: o.hello, next: () => ({ path: '/' }) },
    // The hello-world as a page: the baseline of the HTML rows (HTML_ROWS).
    helloPage: { base: o.hello, next: () => ({ path: '/page' }) },
    // The same hello-world answered by the service's own runtime (bench/worker/index.ts): the
    // baselines of `interleave` (decision 0292), and its control (the hello-world against itself).
    helloInProcess: { base: o.service, next: () => ({ path: '/__hello' }) },
    helloPageInProcess: { base: o.service, next: () => ({ path: '/__hello/page' }) },
    controlInProcess: { base: o.service, next: () => ({ path: '/__hello?control' }) },
    // The hello-world measured as if it were a path: its ratio to itself is 1 but for the
    // machine's noise, so its rounds show how far a round can stray with nothing changed.
    control: { base: o.helloControl, next: () => ({ path: '/' }) },
    verify: {
      base: o.service,
      next: () => ({ path: `/api/verify/${o.certificates[certTurn++ % o.certificates.length]}` }),
    },
    // A million-number keyspace (issue 18): valid numbers, nearly all never issued and never
    // asked for before (misses in the isolate's memory, in KV and in D1: 404), one request in
    // KEYSPACE_KNOWN_EVERY for an issued certificate.
    verifyKeyspace: {
      base: o.service,
      next: () => {
        const n = keyspaceTurn++;
        const no =
          n % KEYSPACE_KNOWN_EVERY === 0
            ? o.certificates[keyspaceKnownTurn++ % o.certificates.length]
            : o.keyspace[n % o.keyspace.length];
        return { path: `/api/verify/${no}` };
      },
    },
    agreement: { base: o.service, next: () => ({ path: '/api/public/agreement-rate' }) },
    leaderboard: {
      base: o.service,
      next: () => ({ path: board(), headers: { 'CF-Connecting-IP': ip(ipTurn++ % IP_POOL) } }),
    },
    leaderboardFresh: {
      base: o.service,
      next: () => ({ path: board(), headers: { 'CF-Connecting-IP': fresh() } }),
    },
    leaderboardTenK: {
      base: o.service,
      next: () => ({ path: board(), headers: { 'CF-Connecting-IP': tenK() } }),
    },
    embedFresh: {
      base: o.service,
      next: () => ({ path: `/embed${board().slice(4)}`, headers: { 'CF-Connecting-IP': fresh() } }),
    },
    embedTenK: {
      base: o.service,
      next: () => ({ path: `/embed${board().slice(4)}`, headers: { 'CF-Connecting-IP': tenK() } }),
    },
    embedScript: { base: o.service, next: () => ({ path: '/embed/leaderboard.js' }) },
    obDocs: {
      base: o.service,
      next: () => ({ path: /** @type {string} */ (obPaths[obTurn++ % obPaths.length]) }),
    },
    statusList: { base: o.service, next: () => ({ path: statusListPath }) },
    jwks: { base: o.service, next: () => ({ path: '/.well-known/jwks.json' }) },
    floorKv: { base: o.hello, next: () => ({ path: '/kv' }) },
    // A response of a verification hit's size and headers from the hello-world: what the local
    // runtime (its dev proxy included) costs to carry that answer, with no service code.
    floorShaped: { base: o.hello, next: () => ({ path: `/shaped?bytes=${shapedBytes}` }) },
    floorLimiter: {
      base: o.hello,
      next: () => ({ path: '/limiter', headers: { 'CF-Connecting-IP': ip(floorIpTurn++ % IP_POOL) } }),
    },
  };
  /**
   * @param {keyof typeof targets} name @param {number} seconds
   * @param {boolean} [cpu] measure the Worker's CPU per request (not when another load runs on the same Worker)
   */
  const run = async (name, seconds, cpu = true) => {
    const worker = workerOf(targets[name].base);
    const cpuBefore = cpu ? worker.cpuSeconds() : null;
    const r = await load({ ...targets[name], connections: o.connections, seconds });
    const cpuAfter = cpu ? worker.cpuSeconds() : null;
    // The keyspace run expects 404 for the numbers never issued; anything else non-2xx fails.
    const expected404 = name === 'verifyKeyspace' ? (r.statuses['404'] ?? 0) : 0;
    if (r.non2xx - expected404 > 0 || r.errors > 0) {
      throw new Error(
        `${name}: ${r.non2xx} non-2xx and ${r.errors} failed requests under load (statuses ${JSON.stringify(r.statuses)})`,
      );
    }
    // CPU the Worker's processes (wrangler, its dev proxy, workerd) spent per request.
    const cpuMs =
      cpuBefore === null || cpuAfter === null ? Number.NaN : ((cpuAfter - cpuBefore) * 1000) / r.requests;
    return { ...r, cpuMs };
  };

  /**
   * One interleaved slice (decision 0292): `name` and `baseline` in alternating windows.
   * @param {keyof typeof targets} name @param {keyof typeof targets} baseline @param {number} seconds
   */
  const paired = async (name, baseline, seconds) => {
    const r = await interleave({
      a: targets[name],
      b: targets[baseline],
      connections: o.connections,
      seconds,
      windowMs: WINDOW_MS,
      headers: BROWSER_HEADERS,
    });
    for (const [side, label] of /** @type {const} */ ([
      [r.a, name],
      [r.b, baseline],
    ])) {
      const expected404 = label === 'verifyKeyspace' ? (side.statuses['404'] ?? 0) : 0;
      if (side.non2xx - expected404 > 0 || side.errors > 0) {
        throw new Error(
          `${label}: ${side.non2xx} non-2xx and ${side.errors} failed requests under load (statuses ${JSON.stringify(side.statuses)})`,
        );
      }
    }
    // The judged figure is the median window rate; CPU per request cannot be told apart when
    // both run in one process.
    /** @param {import('./lib/interleave.mjs').SideResult} x */
    const asRun = (x) => ({ ...x, rps: x.windowRps, cpuMs: Number.NaN });
    return { ratio: r.ratio, a: asRun(r.a), b: asRun(r.b) };
  };

  // --- Untimed warm-up of every target (JIT, connection pools, KV and limiter objects).
  for (const name of /** @type {const} */ ([
    'hello',
    'helloPage',
    ...(o.pairing === 'interleave' ? /** @type {const} */ (['helloInProcess', 'helloPageInProcess']) : []),
    'control',
    ...PATHS,
    'leaderboardFresh',
    'verifyKeyspace',
    ...PUBLIC_ROWS,
    ...(o.extra ? /** @type {const} */ (['floorKv', 'floorLimiter', 'floorShaped']) : []),
  ]))
    if (wanted(name)) await run(name, 2);

  /** @type {Record<'hello' | 'helloPage' | Measured | Extra, (import('./lib/load.mjs').LoadResult & { cpuMs: number })[]>} */
  const runs = {
    hello: [],
    helloPage: [],
    control: [],
    verify: [],
    agreement: [],
    leaderboard: [],
    floorKv: [],
    floorShaped: [],
    floorLimiter: [],
    leaderboardFresh: [],
    leaderboardTenK: [],
    embedFresh: [],
    embedTenK: [],
    verifyKeyspace: [],
    embedScript: [],
    obDocs: [],
    statusList: [],
    jwks: [],
  };
  /** @type {Record<Measured | Extra, number[]>} */
  const ratios = {
    control: [],
    verify: [],
    agreement: [],
    leaderboard: [],
    floorKv: [],
    floorShaped: [],
    floorLimiter: [],
    leaderboardFresh: [],
    leaderboardTenK: [],
    embedFresh: [],
    embedTenK: [],
    verifyKeyspace: [],
    embedScript: [],
    obDocs: [],
    statusList: [],
    jwks: [],
  };
  /**
   * Each row's ratio in every slice of every round: a slice is one short run of the row between
   * two of the hello-world (H X H), and a round is `o.slices` passes over every row, interleaved
   * (H v H a H l H … H v H a H …), so each row's slices are spread over the whole round and a
   * burst of the host's other work lands in at most one or two of them.
   * @type {Record<Measured | Extra, number[][]>}
   */
  const slices = /** @type {Record<Measured | Extra, number[][]>} */ (
    Object.fromEntries(
      Object.keys(ratios).map((name) => [
        name,
        Array.from({ length: o.rounds }, () => /** @type {number[]} */ ([])),
      ]),
    )
  );
  /**
   * The HTML rows' slices against the hello-world's JSON `GET /` as well (printed, not judged): a
   * page's slice is H P X P H (P: the hello-world's page), judged on X over the mean of the Ps.
   * @type {Record<string, number[][]>}
   */
  const vsJson = Object.fromEntries(
    [...HTML_ROWS].map((name) => [
      name,
      Array.from({ length: o.rounds }, () => /** @type {number[]} */ ([])),
    ]),
  );
  /** @type {(import('./lib/load.mjs').LoadResult & { cpuMs: number }) | null} */
  let before = null;
  /**
   * One slice of a row. `together` (the default): the row and the hello-world are loaded at the
   * same time, each with its own connections, and the slice's ratio is their throughputs' ratio:
   * whatever else the host runs during those seconds slows both alike. `alternate`: the row
   * between two hello-world runs (H X H), its throughput over their mean.
   * @param {Measured | Extra} name @param {number} round
   */
  const measure = async (name, round) => {
    const baseline = HTML_ROWS.has(name) ? 'helloPage' : 'hello';
    if (o.pairing === 'interleave') {
      // The row and the hello-world in turn, in WINDOW_MS windows, in the same runtime process
      // (the service's, or the hello-world's for the floors), for 2 × o.seconds: each has the
      // connections about o.seconds in all, as in H X H. The slice reads the median window rates.
      const row = name === 'control' ? 'controlInProcess' : name;
      const own = targets[row].base === o.service;
      const base = own ? (baseline === 'helloPage' ? 'helloPageInProcess' : 'helloInProcess') : baseline;
      const r = await paired(row, base, 2 * o.seconds);
      runs[name].push(r.a);
      runs[baseline].push(r.b);
      slices[name][round]?.push(r.ratio);
      return;
    }
    if (o.pairing === 'together') {
      // Two loads on one Worker (the control, the floors) cannot tell their CPU apart.
      const shared = targets[name].base === o.hello;
      const [r, h] = await Promise.all([run(name, o.seconds, !shared), run(baseline, o.seconds, !shared)]);
      runs[name].push(r);
      runs[baseline].push(h);
      slices[name][round]?.push(r.rps / h.rps);
      return;
    }
    before ??= await run('hello', o.seconds);
    if (runs.hello.length === 0) runs.hello.push(before);
    const pageBefore = baseline === 'helloPage' ? await run('helloPage', o.seconds) : null;
    const r = await run(name, o.seconds);
    const pageAfter = baseline === 'helloPage' ? await run('helloPage', o.seconds) : null;
    const after = await run('hello', o.seconds);
    runs[name].push(r);
    runs.hello.push(after);
    const json = r.rps / ((before.rps + after.rps) / 2);
    if (pageBefore && pageAfter) {
      runs.helloPage.push(pageBefore, pageAfter);
      slices[name][round]?.push(r.rps / ((pageBefore.rps + pageAfter.rps) / 2));
      vsJson[name]?.[round]?.push(json);
    } else slices[name][round]?.push(json);
    before = after;
  };
  // Every target row, every round (issue 43); the floors and the 10,000-address rows only when
  // asked for (`extra`: BENCH_EXTRA=1), as they explain figures but are no target.
  const rows = /** @type {(Measured | Extra)[]} */ ([
    'control',
    ...PATHS,
    'leaderboardFresh',
    'verifyKeyspace',
    ...PUBLIC_ROWS,
    ...(o.extra
      ? /** @type {const} */ (['floorKv', 'floorLimiter', 'floorShaped', 'leaderboardTenK', 'embedTenK'])
      : []),
  ]).filter(wanted);
  // One untimed pass over the rows as the rounds load them (both Workers at once): without it,
  // the first round of a trial read 0.06–0.17 below the next two on every leaderboard row.
  for (const name of rows)
    await Promise.all([
      run(name, o.seconds, false),
      ...(o.pairing === 'together' ? [run('hello', o.seconds, false)] : []),
    ]);
  // `interleave`: the in-process hello-world against the hello-world Worker, each loaded alone in
  // turn (H W H W …, 5 pairs): whether the service's runtime answers the baseline as fast as a
  // runtime of its own does. Printed and stored, not judged.
  /** @type {number[]} */
  const baselineVsWorker = [];
  if (o.pairing === 'interleave') {
    for (let i = 0; i < 5; i++) {
      const inProcess = await run('helloInProcess', o.seconds, false);
      const worker = await run('hello', o.seconds, false);
      baselineVsWorker.push(inProcess.rps / worker.rps);
    }
  }
  for (let round = 0; round < o.rounds; round++) {
    for (let slice = 0; slice < o.slices; slice++) for (const name of rows) await measure(name, round);
    // Progress: each row's ratio in the round just finished (the median of its slices).
    const done = rows.map((name) => `${name} ${median(slices[name][round] ?? []).toFixed(2)}`);
    console.log(`  round ${round + 1} of ${o.rounds}: ${done.join(', ')}`);
  }
  closeInterleaveAgents();
  // A round's ratio is the median of its slices; every target must hold in every round.
  for (const name of rows) ratios[name] = (slices[name] ?? []).map((s) => median(s));

  // --- Optional: where the Worker's own CPU time goes under each load (self time, top entries).
  /** @type {Record<string, { name: string; ms: number; share: number }[]>} */
  const profiles = {};
  if (o.profile) {
    for (const name of /** @type {const} */ ([...PATHS, 'leaderboardFresh', 'verifyKeyspace'])) {
      if (!wanted(name)) continue;
      const inspectorPort = o.profile.inspectorPort;
      const { profile } = await profileWhile(inspectorPort, () => run(name, o.seconds));
      profiles[name] = hottest(profile, 15);
      console.log(`\nCPU profile of the service isolate under ${name} (self time)`);
      printTable(
        ['share', 'ms', 'function'],
        (profiles[name] ?? []).map((h) => [`${(h.share * 100).toFixed(1)} %`, h.ms.toFixed(0), h.name]),
      );
    }
  }

  // --- D1 rows read on cache hits: a sequential sample per path. Each sampled path is asked once
  // first, so that the sample measures hits: a cache entry may have come due since the path's last
  // timed run (the /ob/ documents' KV entries live 300 s, their max-age), and that one refill is a
  // miss by design.
  await pool(obPaths.length, 1, (i) => get(`${o.service}${obPaths[i]}`));
  for (const path of [
    statusListPath,
    '/.well-known/jwks.json',
    '/embed/leaderboard.js',
    '/api/public/agreement-rate',
  ])
    await get(`${o.service}${path}`);
  const SAMPLE = 100;
  const hits = {
    verify: await pool(SAMPLE, 1, (i) =>
      get(`${o.service}/api/verify/${o.certificates[i % o.certificates.length]}`),
    ),
    agreement: await pool(SAMPLE, 1, () => get(`${o.service}/api/public/agreement-rate`)),
    leaderboard: await pool(SAMPLE, 1, () =>
      get(`${o.service}${board()}`, { 'CF-Connecting-IP': ip(ipTurn++ % IP_POOL) }),
    ),
    embedFresh: await pool(SAMPLE, 1, () =>
      get(`${o.service}/embed${board().slice(4)}`, { 'CF-Connecting-IP': fresh() }),
    ),
    embedScript: await pool(SAMPLE, 1, () => get(`${o.service}/embed/leaderboard.js`)),
    obDocs: await pool(SAMPLE, 1, (i) => get(`${o.service}${obPaths[i % obPaths.length]}`)),
    statusList: await pool(SAMPLE, 1, () => get(`${o.service}${statusListPath}`)),
    jwks: await pool(SAMPLE, 1, () => get(`${o.service}/.well-known/jwks.json`)),
  };
  /** @param {{ rowsRead: number; queries: number; unmetered: number }[]} rs */
  const hitStats = (rs) => ({
    requests: rs.length,
    rowsReadMax: Math.max(...rs.map((r) => r.rowsRead)),
    queriesMax: Math.max(...rs.map((r) => r.queries)),
    unmetered: rs.reduce((n, r) => n + r.unmetered, 0),
  });

  /** @param {(import('./lib/load.mjs').LoadResult & { cpuMs: number })[]} rs */
  const summary = (rs) => ({
    rps: median(rs.map((r) => r.rps)),
    p50: median(rs.map((r) => r.p50)),
    p99: median(rs.map((r) => r.p99)),
    cpuMsPerRequest: median(rs.map((r) => r.cpuMs)),
    requests: rs.reduce((n, r) => n + r.requests, 0),
    runs: rs.map((r) => Math.round(r.rps)),
  });
  /** @param {Measured | Extra} name */
  const pathResult = (name) => ({
    ...summary(runs[name]),
    ratio: median(ratios[name]),
    /** Each round's ratio (the median of its slices). */
    ratios: ratios[name].map((r) => Math.round(r * 1000) / 1000),
    /** The lowest round: what a target is judged on. */
    minRatio: ratios[name].length > 0 ? Math.min(...ratios[name]) : Number.NaN,
    slices: (slices[name] ?? []).map((round) => round.map((r) => Math.round(r * 1000) / 1000)),
    ...(HTML_ROWS.has(name)
      ? {
          baseline: 'the hello-world page (GET /page)',
          /** Each round's ratio to the hello-world's JSON `GET /` instead (not judged). */
          ratiosVsJson: (vsJson[name] ?? [])
            .filter((s) => s.length > 0)
            .map((s) => Math.round(median(s) * 1000) / 1000),
        }
      : {}),
  });
  const result = {
    connections: o.connections,
    secondsPerRun: o.seconds,
    pairing: o.pairing,
    ...(o.pairing === 'interleave'
      ? {
          windowMs: WINDOW_MS,
          /** The in-process hello-world's throughput over the hello-world Worker's (alone, in turn). */
          baselineVsWorker: {
            ratio: median(baselineVsWorker),
            runs: baselineVsWorker.map((r) => Math.round(r * 1000) / 1000),
          },
        }
      : {}),
    rounds: o.rounds,
    hello: summary(runs.hello),
    helloPage: runs.helloPage.length > 0 ? summary(runs.helloPage) : null,
    paths: {
      verify: { ...pathResult('verify'), d1Hit: hitStats(hits.verify), d1Miss: missStats(misses.verify) },
      agreement: {
        ...pathResult('agreement'),
        d1Hit: hitStats(hits.agreement),
        d1Miss: missStats(misses.agreement),
      },
      leaderboard: {
        ...pathResult('leaderboard'),
        d1Hit: hitStats(hits.leaderboard),
        d1Miss: missStats(misses.leaderboard),
        ipPool: IP_POOL,
        // Round robin over the pool: no address got more than this in the whole section.
        maxRequestsPerAddress: Math.ceil(ipTurn / IP_POOL),
      },
    },
    leaderboardFreshAddresses: { ...pathResult('leaderboardFresh'), addresses: freshTurn },
    leaderboardTenK: { ...pathResult('leaderboardTenK'), addresses: Math.min(tenKTurn, TEN_K) },
    embedTenK: pathResult('embedTenK'),
    // Issue 43: the other public reads, every round, with D1 rows on a hit and on the miss that filled them.
    public: Object.fromEntries(
      PUBLIC_ROWS.map((name) => [
        name,
        { ...pathResult(name), d1Hit: hitStats(hits[name]), d1Miss: missStats(publicMisses[name]) },
      ]),
    ),
    verifyKeyspace: {
      ...pathResult('verifyKeyspace'),
      keyspace: o.keyspace.length,
      requested: keyspaceTurn,
      knownShare: 1 / KEYSPACE_KNOWN_EVERY,
      notFound: runs.verifyKeyspace.reduce((n, r) => n + (r.statuses['404'] ?? 0), 0),
    },
    runtimeFloor: {
      kvRead: pathResult('floorKv'),
      limiter: pathResult('floorLimiter'),
      verificationShaped: { ...pathResult('floorShaped'), bytes: shapedBytes },
    },
    control: pathResult('control'),
    ...(o.profile ? { profiles } : {}),
  };

  /** @type {Record<PublicRow, string>} */
  const PUBLIC_LABELS = {
    embedFresh: 'GET /embed/leaderboard, a new IP per request (vs the hello page¹)',
    embedScript: 'GET /embed/leaderboard.js',
    obDocs: 'GET /ob/issuers|achievements|keys/… (in turn)',
    statusList: 'GET /ob/status-lists/revocation/0',
    jwks: 'GET /.well-known/jwks.json',
  };
  const label = {
    verify: 'GET /api/verify/{certificateNo}',
    agreement: 'GET /api/public/agreement-rate',
    leaderboard: `GET /api/leaderboard?domain=… (${IP_POOL} rotating IPs)`,
  };
  /** @param {{ rps: number; p50: number; p99: number; cpuMsPerRequest: number }} p */
  const cells = (p) => [
    p.rps.toFixed(0),
    `${p.p50} ms`,
    `${p.p99} ms`,
    Number.isNaN(p.cpuMsPerRequest) ? 'n/a' : `${p.cpuMsPerRequest.toFixed(2)} ms`,
  ];
  /**
   * A measured path's label, figures, median ratio and per-round ratios.
   * @param {string} name
   * @param {{ rps: number; p50: number; p99: number; cpuMsPerRequest: number; ratio: number; ratios: number[] }} p
   * @param {number} [goal] the row's target (its floor), printed beside the median
   */
  const ratioRow = (name, p, goal) => [
    name,
    ...cells(p),
    goal === undefined
      ? p.ratio.toFixed(2)
      : `${p.ratio.toFixed(2)} (every round ≥ ${goal}: ${Math.min(...p.ratios) >= goal ? 'met' : 'MISSED'})`,
    p.ratios.map((r) => r.toFixed(2)).join(' '),
  ];
  console.log(
    `\nPublic reads on a cache hit (${o.connections} connections each; ${o.rounds} rounds of ${o.slices} ` +
      (o.pairing === 'interleave'
        ? `interleaved ${2 * o.seconds}-second slices per row, each the row and the hello-world in the same runtime in turn, ` +
          `${WINDOW_MS} ms each, a slice's ratio their median window rates'; `
        : `interleaved ${o.seconds}-second slices per row, ${o.pairing === 'together' ? 'each loaded together with the hello-world' : 'each between two of the hello-world'}; `) +
      "a round's ratio is the median of its slices' ratios; every round must meet the row's goal)",
  );
  if (o.pairing === 'interleave')
    console.log(
      `The hello-world in the service's runtime against the hello-world Worker, each alone in turn: ` +
        `${baselineVsWorker.map((r) => r.toFixed(2)).join(' ')} (median ${median(baselineVsWorker).toFixed(2)}; not judged)`,
    );
  printTable(
    [
      'path',
      'req/s',
      'p50',
      'p99',
      'CPU/req',
      'ratio',
      'ratio per round',
      'D1 rows: hit (max)',
      'miss: D1 rows, time (mean)',
    ],
    [
      ['hello-world GET / (bench/hello)', ...cells(result.hello), '1', '', '', ''],
      ...(result.helloPage
        ? [['hello-world page GET /page (the HTML rows¹)', ...cells(result.helloPage), '1', '', '', '']]
        : []),
      [
        ...ratioRow(
          `control: ${o.pairing === 'together' ? 'a second hello-world process' : o.pairing === 'interleave' ? "the hello-world against itself, in the service's runtime" : 'the hello-world against itself'} (noise)`,
          result.control,
        ),
        '',
        '',
      ],
      ...PATHS.map((name) => {
        const p = result.paths[name];
        return [
          ...ratioRow(label[name], p, o.goals?.[name]),
          String(p.d1Hit.rowsReadMax),
          `${Math.round(p.d1Miss.rowsReadMean)} rows, ${p.d1Miss.msMean.toFixed(0)} ms`,
        ];
      }),
      [...ratioRow('floor: hello + 1 KV read (bench/hello /kv)', result.runtimeFloor.kvRead), '', ''],
      [...ratioRow('floor: hello + 1 limiter DO call (/limiter)', result.runtimeFloor.limiter), '', ''],
      [
        ...ratioRow(
          `floor: hello answering a verification's shape (${shapedBytes} B, its headers)`,
          result.runtimeFloor.verificationShaped,
        ),
        '',
        '',
      ],
      [
        ...ratioRow(
          'GET /api/leaderboard, a new IP per request',
          result.leaderboardFreshAddresses,
          o.goals?.leaderboardFresh,
        ),
        '',
        '',
      ],
      [...ratioRow(`GET /api/leaderboard, ${TEN_K} distinct IPs`, result.leaderboardTenK), '', ''],
      ...PUBLIC_ROWS.map((name) => {
        const p = result.public[name];
        return [
          ...ratioRow(PUBLIC_LABELS[name], p, o.goals?.[name]),
          String(p.d1Hit.rowsReadMax),
          `${Math.round(p.d1Miss.rowsReadMean)} rows, ${p.d1Miss.msMean.toFixed(0)} ms`,
        ];
      }),
      [
        ...ratioRow(`GET /embed/leaderboard, ${TEN_K} distinct IPs (vs the hello page¹)`, result.embedTenK),
        '',
        '',
      ],
      [
        ...ratioRow(
          `GET /api/verify, ${(o.keyspace.length / 1e6).toFixed(0)} M-number keyspace (${100 - 100 / KEYSPACE_KNOWN_EVERY} % never issued: 404)`,
          result.verifyKeyspace,
          o.goals?.verifyKeyspace,
        ),
        '',
        '',
      ],
      // BENCH_ONLY: the paths not measured have no rounds.
    ].filter((row) => row[0]?.startsWith('hello-world') || row[6] !== ''),
  );
  if (o.pairing === 'interleave')
    console.log(
      "¹ judged against the hello-world's page in the same runtime, which wrangler's dev proxy rewrites as it rewrites every HTML answer (decision 0280).",
    );
  for (const name of HTML_ROWS) {
    const p = name === 'embedTenK' ? result.embedTenK : result.public.embedFresh;
    if (!p.ratiosVsJson || p.ratiosVsJson.length === 0) continue;
    console.log(
      `¹ ${name}: judged against the hello-world's page, which wrangler's dev proxy rewrites as it rewrites every HTML answer ` +
        `(decision 0280); against the JSON GET / its rounds read ${p.ratiosVsJson.map((r) => r.toFixed(2)).join(' ')}.`,
    );
  }
  return result;
}

/**
 * One real certificate end to end: the seeded number passes the check character, the service
 * verifies it, shows the holder's name only with `public_verification` consent, and the signed
 * credential verifies against the service's published JWKS.
 * @param {string} service
 * @param {{ no: string; named: boolean }[]} certificates
 * @param {import('./lib/bundle.mjs').Domain} domain
 */
export async function checkVerification(service, certificates, domain) {
  const jwks = /** @type {{ keys: unknown[] }} */ (
    await (await fetch(`${service}/.well-known/jwks.json`)).json()
  );
  /** @type {{ no: string; named: boolean; holder: boolean; status: string; signature: string }[]} */
  const checked = [];
  for (const named of [true, false]) {
    const cert = certificates.find((c) => c.named === named);
    if (!cert) continue;
    if (!domain.parseCertificateNumber(cert.no).ok) throw new Error(`${cert.no} fails its check character`);
    const res = await fetch(`${service}/api/verify/${cert.no}`);
    if (res.status !== 200) throw new Error(`verify ${cert.no}: ${res.status}`);
    const body =
      /** @type {{ status: string; holder: { name: string } | null; credential: { jwt: string } }} */ (
        await res.json()
      );
    const verdict = await domain.verifyCredential(body.credential.jwt, jwks);
    if (!verdict.valid) throw new Error(`credential of ${cert.no} does not verify: ${verdict.reason}`);
    if (body.status !== 'active' || (body.holder !== null) !== named) {
      throw new Error(
        `verify ${cert.no}: status ${body.status}, holder ${JSON.stringify(body.holder)} (consent ${named})`,
      );
    }
    checked.push({
      no: cert.no,
      named,
      holder: body.holder !== null,
      status: body.status,
      signature: 'valid',
    });
  }
  const typo = `${certificates[0]?.no.slice(0, -1)}${certificates[0]?.no.endsWith('0') ? '1' : '0'}`;
  const typoRes = await fetch(`${service}/api/verify/${typo}`);
  await typoRes.arrayBuffer();
  const typoStatus = typoRes.status;
  if (typoStatus !== 400) throw new Error(`a mistyped number answered ${typoStatus}, not 400`);
  return { checked, typoStatus };
}
