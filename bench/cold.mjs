// Cold requests (issue 54): the first request to a fresh isolate of the service, against the
// first request to a fresh hello-world Worker (bench/hello), as a ratio. `BENCH_ONLY=cold npm run
// bench` runs it alone (about two minutes, no seeding: an empty migrated database).
//
// A cold request on Cloudflare is the isolate's startup (evaluating the Worker's script) plus the
// first request through code nothing has run yet. Locally, workerd evaluates the script when the
// process starts, before any request, so the two are measured apart and added:
// - startup: each bundle's main module evaluated in a fresh workerd, timed from outside (median
//   of 9; scripts/lib/startup-time.mjs, decision 0337), the service's as `npm run deploy` uploads
//   it (split into modules, decision 0326);
// - first request: per round and row, a fresh workerd (Miniflare, as `wrangler dev` runs it, without
//   its dev proxy) on a fresh copy of the row's state; the local storage's own object started first
//   through a second Worker bound to the same KV namespace (the isolate under test is untouched:
//   production's KV is a service that is always running, while the local one is a Durable Object
//   with SQLite opened on first use, +4–6 ms that no deployed isolate pays; decision 0338); then
//   one request to the row's path, timed to its last byte from Node, and a second for reference.
// The ratio judged is (startup + first request) of the row over the same for the hello-world, the
// median of the rounds. The hello-world's `/kv` with the local storage cold too is shown, not judged.
//
// The certificate asked for is in KV and nowhere else (`seedColdPayload`), with its page drawn by
// an earlier visit (`seedColdPage`): what a cold isolate in a new location meets when a visitor
// opens a certificate link verified and viewed elsewhere before (the payload and its pages are in
// KV for an hour after any verification; decision 0339). The database stays empty; a KV miss would
// take the full path through the app (decision 0324).
import { cpSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { convertV4MiniflareOptions, Miniflare } from 'miniflare';
import { encode } from 'uqr';
import { DEV_VARS } from '../scripts/lib/dev-vars.mjs';
import { modulesOf, startupMedian, workerOf } from '../scripts/lib/startup-time.mjs';
import { runWrangler, spawnWrangler } from '../scripts/lib/wrangler.mjs';
import { buildWorker, prepareState, ROOT } from './lib/server.mjs';

/** A well-formed certificate number (check character included) that no empty database holds. */
export const COLD_CERTIFICATE_NO = 'VP-DEM0-CERT-1FY3';

/**
 * A verification payload of the shape and size the service caches (≈ 14 KB with its credential),
 * put in the local KV of the state directory as `verification` would have left it there.
 * @param {string} persistTo
 */
export async function seedColdPayload(persistTo) {
  const b64 = (/** @type {unknown} */ v) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const issuedAt = new Date(Date.now() - 86_400_000).toISOString();
  const claims = {
    iss: 'https://verify.example.org',
    sub: 'did:example:holder',
    jti: `urn:certificate:${COLD_CERTIFICATE_NO}`,
    vc: {
      '@context': [
        'https://www.w3.org/ns/credentials/v2',
        'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json',
      ],
      type: ['VerifiableCredential', 'OpenBadgeCredential'],
      credentialSubject: { achievement: { name: 'Cold start', description: 'x'.repeat(6000) } },
    },
  };
  const payload = {
    certificateNo: COLD_CERTIFICATE_NO,
    status: 'active',
    valid: true,
    brief: { id: '00000000-0000-4000-8000-000000000001', title: 'Build a REST API for a small library' },
    domain: 'web-development',
    employer: { name: 'Cold Start Organisation' },
    organisation: {
      id: '00000000-0000-4000-8000-000000000002',
      name: 'Cold Start Organisation',
      verification: 'verified',
    },
    issuedAt,
    validUntil: null,
    revokedAt: null,
    holder: { name: 'Cold Reader' },
    credential: {
      format: 'vc-jwt',
      jwt: `${b64({ alg: 'EdDSA', kid: 'cold' })}.${b64(claims)}.${'s'.repeat(86)}`,
    },
    jwksUrl: 'https://verify.example.org/.well-known/jwks.json',
  };
  const builtAt = Date.now();
  // As the app writes it (src/services/certificates.ts `shareQrMeta`): the page's share-link QR
  // code on the service's origin (wrangler.toml's PUBLIC_BASE_URL), encoded as
  // src/domain/pages/qr.ts does and packed as its `packModules` does (decision 0328).
  const base = 'http://localhost:8787';
  const link = Array.from(new TextEncoder().encode(`${base}/verify/${COLD_CERTIFICATE_NO}`));
  const code = encode(link, { ecc: 'M', boostEcc: false, border: 0 });
  const packed = new Uint8Array(Math.ceil((code.size * code.size) / 8));
  code.data.forEach((row, y) => {
    row.forEach((dark, x) => {
      const i = y * code.size + x;
      if (dark) packed[i >> 3] |= 0x80 >> (i & 7);
    });
  });
  const qr = {
    base,
    size: code.size,
    mask: code.maskPattern,
    modules: Buffer.from(packed).toString('base64'),
  };
  await runWrangler(
    [
      'kv',
      'key',
      'put',
      `verify:v1:${COLD_CERTIFICATE_NO}`,
      JSON.stringify(payload),
      '--binding',
      'CACHE',
      '--local',
      '--persist-to',
      persistTo,
      '--metadata',
      JSON.stringify({ etag: `W/"1-${builtAt.toString(36)}"`, builtAt, qr }),
    ],
    { capture: true },
  );
}

/** @param {number} ms */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** @param {number[]} xs */
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

/** @param {number} port */
export async function portOpen(port) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** @param {string} url */
async function timed(url) {
  const t = performance.now();
  const res = await fetch(url, { headers: { accept: 'text/html,application/json;q=0.9' } });
  await res.arrayBuffer();
  return { ms: performance.now() - t, status: res.status };
}

/**
 * One fresh `wrangler dev`: waits for its port, lets it settle, times the first request to `path`.
 * `via`: `proxy`, wrangler's public port (its dev proxy, a Worker of its own in front of the
 * Worker, which passes every text/html answer through an HTMLRewriter: decision 0280), or
 * `runtime`, the Worker's own runtime socket (Miniflare's entry, as wrangler's proxy reaches it:
 * the URL wrangler logs as `userWorkerUrl` at debug level), which production's edge stands in for.
 * @param {{ config: string, port: number, persistTo: string, path: string, settleMs: number, via?: 'proxy' | 'runtime' }} o
 */
export async function firstRequest({ config, port, persistTo, path, settleMs, via = 'proxy' }) {
  const args = ['dev', '--local', '--port', String(port), '--ip', '127.0.0.1', '--persist-to', persistTo];
  args.push(
    '--log-level',
    via === 'runtime' ? 'debug' : 'error',
    '--show-interactive-dev-session=false',
    '--inspector-port',
    String(port + 10_000),
  );
  args.push('--config', config, '--env-file', DEV_VARS);
  const child = spawnWrangler(args, {
    stdio: ['ignore', via === 'runtime' ? 'pipe' : 'ignore', 'inherit'],
    detached: true,
    env: { ...process.env, CI: 'true' },
  });
  /** @type {string | null} */
  let runtimeUrl = null;
  if (via === 'runtime') {
    let log = '';
    child.stdout?.on('data', (/** @type {Buffer} */ chunk) => {
      if (runtimeUrl !== null) return;
      log = (log + chunk.toString('utf8')).slice(-20_000);
      const m = /"userWorkerUrl":\{"protocol":"http:","hostname":"([\d.]+)","port":"(\d+)"\}/.exec(log);
      if (m) runtimeUrl = `http://${m[1]}:${m[2]}`;
    });
  }
  try {
    const deadline = Date.now() + 120_000;
    while (!(await portOpen(port)) || (via === 'runtime' && runtimeUrl === null)) {
      if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}`);
      if (Date.now() > deadline) throw new Error('wrangler dev did not listen within 120 s');
      await sleep(100);
    }
    await sleep(settleMs);
    const url = `${runtimeUrl ?? `http://127.0.0.1:${port}`}${path}`;
    const first = await timed(url);
    const warm = [];
    for (let i = 0; i < 5; i++) warm.push((await timed(url)).ms);
    return { first: first.ms, status: first.status, warm: median(warm) };
  } finally {
    if (child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGTERM');
        await sleep(1500);
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
  }
}

/** `CACHE`'s local namespace ids: the service's (wrangler.toml) and the hello-world's (bench/hello). */
const SERVICE_KV = '00000000000000000000000000000000';
const HELLO_KV = '00000000000000000000000000000001';

/**
 * A fresh workerd (Miniflare, as `wrangler dev` runs it, without its dev proxy) on `config`'s build,
 * its KV namespace `kvId` persisted in `persist`; with `warmer`, a second Worker bound to the same
 * namespace, which reads a key of its own when asked (the local storage's object started).
 * @param {{ config: string; persist: string; kvId: string; warmer?: boolean }} o
 */
export function freshWorkerd({ config, persist, kvId, warmer = false }) {
  const worker = workerOf(config);
  const modules = modulesOf(worker.dir).sort(
    (a, b) => Number(b.path === '/index.js') - Number(a.path === '/index.js'),
  );
  const options = convertV4MiniflareOptions({
    name: 'cold',
    compatibilityDate: worker.compatibilityDate,
    compatibilityFlags: worker.compatibilityFlags,
    modulesRoot: '/',
    modules,
    bindings: { PUBLIC_BASE_URL: 'http://localhost:8787', LOG_LEVEL: 'error' },
    kvNamespaces: { CACHE: kvId },
    resourcePersistencePath: join(persist, 'v3'),
    handleRuntimeStdio: () => {},
  });
  if (warmer) {
    const second = convertV4MiniflareOptions({
      name: 'storage-warmer',
      modules: true,
      script:
        'export default { async fetch(request, env) { await env.CACHE.get("bench:storage-warmer"); return new Response("warm"); } }',
      compatibilityDate: worker.compatibilityDate,
      kvNamespaces: { CACHE: kvId },
    });
    options.workers.push(...second.workers);
  }
  return new Miniflare(options);
}

/** One request to `mf`, timed to its last byte (ms); anything but a 200 fails the run. */
async function timedDispatch(/** @type {Miniflare} */ mf, /** @type {string} */ path) {
  const t = performance.now();
  const response = await mf.dispatchFetch(`http://localhost:8787${path}`, {
    headers: { accept: 'text/html,application/json;q=0.9' },
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
  return performance.now() - t;
}

/**
 * The first and second request to `path` of a fresh workerd on `config`'s build, its state a fresh
 * copy of `state`; with `warmStorage`, the local KV's object started first through the warmer.
 * @param {{ config: string; path: string; state: string; kvId: string; warmStorage: boolean; settleMs: number }} o
 */
export async function firstInFreshWorkerd({ config, path, state, kvId, warmStorage, settleMs }) {
  const persist = join(ROOT, '.wrangler', 'bench-cold-run');
  rmSync(persist, { recursive: true, force: true });
  cpSync(state, persist, { recursive: true });
  const mf = freshWorkerd({ config, persist, kvId, warmer: warmStorage });
  try {
    await mf.ready;
    if (warmStorage) {
      const warmer = /** @type {{ fetch(url: string): Promise<Response> }} */ (
        /** @type {unknown} */ (await mf.getWorker('storage-warmer'))
      );
      await (await warmer.fetch('http://localhost/')).arrayBuffer();
    }
    await sleep(settleMs);
    const first = await timedDispatch(mf, path);
    return { first, second: await timedDispatch(mf, path) };
  } finally {
    await mf.dispose();
  }
}

/**
 * The certificate's page drawn by an earlier visit, as the service keeps it (decision 0339): a
 * fresh workerd on `state` answers the page in `langs` once and keeps it in KV (through
 * `waitUntil`, waited for here).
 * @param {{ config: string; state: string; langs?: string[] }} o
 */
export async function seedColdPage({ config, state, langs = ['en'] }) {
  const mf = freshWorkerd({ config, persist: state, kvId: SERVICE_KV });
  try {
    await mf.ready;
    const kv = /** @type {{ get(key: string): Promise<string | null> }} */ (
      /** @type {unknown} */ (await mf.getKVNamespace('CACHE'))
    );
    for (const lang of langs) {
      await timedDispatch(mf, `/verify/${COLD_CERTIFICATE_NO}?lang=${lang}`);
      const key = `verify-page:v1:${COLD_CERTIFICATE_NO}:${lang}`;
      const deadline = Date.now() + 10_000;
      while ((await kv.get(key)) === null) {
        if (Date.now() > deadline) throw new Error(`${key} was not kept`);
        await sleep(50);
      }
    }
  } finally {
    await mf.dispose();
  }
}

/**
 * @param {{ rounds?: number, settleMs?: number, goal?: number }} [o]
 */
export async function benchCold({ rounds = 9, settleMs = 300, goal = 1.5 } = {}) {
  const persistTo = await prepareState('.wrangler/bench-cold-state');
  await seedColdPayload(persistTo);
  const [serviceConfig, helloConfig] = await Promise.all([
    // As `npm run deploy` uploads it: split into modules (scripts/build-worker.mjs, decision 0326).
    buildWorker('wrangler.toml', '.wrangler/bench-cold-build', undefined, { split: true }),
    buildWorker('bench/hello/wrangler.toml', '.wrangler/bench-cold-build-hello'),
  ]);
  await seedColdPage({ config: serviceConfig, state: persistTo });
  // The hello-world's state holds its `/kv` payload (written by its first `/kv` on an empty state),
  // so its `/kv` row is one KV read, as the service's rows are.
  const helloState = await prepareState('.wrangler/bench-cold-hello');
  {
    const seeding = freshWorkerd({ config: helloConfig, persist: helloState, kvId: HELLO_KV });
    await seeding.ready;
    await timedDispatch(seeding, '/kv');
    await seeding.dispose();
  }
  // Startup: each bundle's main module evaluated in a fresh workerd, timed from outside
  // (scripts/lib/startup-time.mjs; `wrangler check startup`'s sampler reads one ~10 ms interval
  // or nothing, the same on both sides, which hid the first requests' difference: decision 0337).
  const startupRuns = {
    service: await startupMedian({ ...workerOf(serviceConfig), runs: 9 }),
    hello: await startupMedian({ ...workerOf(helloConfig), runs: 9 }),
  };
  const startup = { service: startupRuns.service.ms, hello: startupRuns.hello.ms };
  console.log(
    `  startup (main module evaluated in a fresh workerd, ms; median of 9): service ${startup.service.toFixed(2)} [${startupRuns.service.samples.join(', ')}], hello-world ${startup.hello.toFixed(2)} [${startupRuns.hello.samples.join(', ')}]`,
  );
  // Each judged row against the hello-world answer of its kind: JSON against `/`, the page against
  // `/page`. The hello-world's `/kv` (its answer plus one KV read) is shown for reference, with the
  // local storage started and not.
  const hello = (/** @type {string} */ path, warmStorage = true) => ({
    name: `hello-world ${path}${warmStorage ? '' : ' (storage cold)'}`,
    config: helloConfig,
    path,
    state: helloState,
    kvId: HELLO_KV,
    warmStorage,
    startup: startup.hello,
    /** @type {string | undefined} */
    baseline: undefined,
  });
  const service = (
    /** @type {string} */ name,
    /** @type {string} */ path,
    /** @type {string} */ baseline,
  ) => ({
    name,
    config: serviceConfig,
    path,
    state: persistTo,
    kvId: SERVICE_KV,
    warmStorage: true,
    startup: startup.service,
    baseline,
  });
  const rows = [
    hello('/'),
    hello('/page'),
    hello('/kv'),
    hello('/kv', false),
    service('/api/verify/{no}', `/api/verify/${COLD_CERTIFICATE_NO}`, 'hello-world /'),
    service('/verify/{no}', `/verify/${COLD_CERTIFICATE_NO}`, 'hello-world /page'),
  ];
  /** @type {Record<string, { first: number, second: number }[]>} */
  const byRow = Object.fromEntries(rows.map((r) => [r.name, []]));
  for (let round = 0; round < rounds; round++) {
    const line = [];
    for (const row of rows) {
      const m = await firstInFreshWorkerd({ ...row, settleMs });
      byRow[row.name]?.push(m);
      line.push(`${row.name} ${m.first.toFixed(1)}`);
    }
    console.log(`  round ${round + 1} (first request, ms): ${line.join(', ')}`);
  }
  const summary = rows.map((row) => {
    const runs = byRow[row.name] ?? [];
    const first = median(runs.map((r) => r.first));
    return {
      row: row.name,
      baseline: row.baseline,
      startupMs: row.startup,
      firstMs: first,
      warmMs: median(runs.map((r) => r.second)),
      coldMs: row.startup + first,
    };
  });
  const references = summary.filter((s) => !s.baseline);
  const helloRoot = references[0];
  if (!helloRoot) throw new Error('no hello-world row');
  const judged = summary
    .filter((s) => s.baseline)
    .map((s) => {
      const base = references.find((r) => r.row === s.baseline) ?? helloRoot;
      return {
        ...s,
        firstRatio: s.firstMs / base.firstMs,
        coldRatio: s.coldMs / base.coldMs,
        met: s.coldMs / base.coldMs <= goal,
      };
    });
  console.log(`\nCold requests (median of ${rounds} rounds; cold = startup + first request; ms):`);
  console.log(
    '  row                          startup  first  second    cold  ×base(first) ×base(cold)  base',
  );
  for (const s of [...references, ...judged]) {
    const r = /** @type {{ firstRatio?: number, coldRatio?: number }} */ (s);
    console.log(
      `  ${s.row.padEnd(28)} ${s.startupMs.toFixed(1).padStart(7)} ${s.firstMs.toFixed(1).padStart(6)} ${s.warmMs.toFixed(1).padStart(7)} ${s.coldMs.toFixed(1).padStart(7)}   ${r.firstRatio === undefined ? '     -' : r.firstRatio.toFixed(2).padStart(6)}       ${r.coldRatio === undefined ? '     -' : r.coldRatio.toFixed(2).padStart(6)}     ${s.baseline ?? ''}`,
    );
  }
  return {
    goal,
    startup,
    startupSamples: { service: startupRuns.service.samples, hello: startupRuns.hello.samples },
    rows: judged,
    hello: helloRoot,
    met: judged.every((j) => j.met),
  };
}
