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
// - first request: a fresh `wrangler dev` process per round; once its port accepts connections and
//   it has had time to settle (nothing has been sent to it), one request to the row's path, timed
//   to its last byte; then the same request warm (median of 5) for reference.
// The ratio judged is (startup + first request) of the row over the same for the hello-world.
//
// The certificate asked for is in KV and nowhere else (`seedColdPayload`): what a cold isolate in
// a new location meets when a visitor opens a certificate link verified elsewhere before (the
// payload is in KV for an hour after any verification). The database stays empty; a KV miss would
// take the full path through the app (decision 0324).
import { connect } from 'node:net';
import { join } from 'node:path';
import { encode } from 'uqr';
import { DEV_VARS } from '../scripts/lib/dev-vars.mjs';
import { startupMedian, workerOf } from '../scripts/lib/startup-time.mjs';
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

/**
 * @param {{ rounds?: number, settleMs?: number, goal?: number }} [o]
 */
export async function benchCold({ rounds = 3, settleMs = 5000, goal = 1.5 } = {}) {
  const persistTo = await prepareState('.wrangler/bench-cold-state');
  await seedColdPayload(persistTo);
  // Both bundled once beforehand (as the hot rows are: bench/lib/server.mjs), so a round's
  // `wrangler dev` starts the bundle as is instead of bundling while its port already listens.
  const [serviceConfig, helloConfig] = await Promise.all([
    // As `npm run deploy` uploads it: split into modules (scripts/build-worker.mjs, decision 0326).
    buildWorker('wrangler.toml', '.wrangler/bench-cold-build', undefined, { split: true }),
    buildWorker('bench/hello/wrangler.toml', '.wrangler/bench-cold-build-hello'),
  ]);
  const helloState = join(ROOT, '.wrangler', 'bench-cold-hello');
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
  // `/page` (wrangler dev passes every text/html answer through its proxy's HTMLRewriter, a step
  // production does not have: a page pays it as the hello-world page does; decision 0280). The
  // hello-world's `/kv` (its answer plus one KV read) is shown for reference: the local floor of
  // any answer KV holds, not judged.
  const hello = (/** @type {string} */ path) => ({
    name: `hello-world ${path}`,
    config: helloConfig,
    path,
    state: helloState,
    startup: startup.hello,
    /** @type {string | undefined} */
    baseline: undefined,
  });
  const rows = [
    hello('/'),
    hello('/page'),
    hello('/kv'),
    {
      name: `/api/verify/{no}`,
      config: serviceConfig,
      path: `/api/verify/${COLD_CERTIFICATE_NO}`,
      state: persistTo,
      startup: startup.service,
      baseline: 'hello-world /',
    },
    {
      name: `/verify/{no}`,
      config: serviceConfig,
      path: `/verify/${COLD_CERTIFICATE_NO}`,
      state: persistTo,
      startup: startup.service,
      baseline: 'hello-world /page',
    },
  ];
  /** @type {Record<string, { first: number, status: number, warm: number }[]>} */
  const byRow = Object.fromEntries(rows.map((r) => [r.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const row of rows) {
      const m = await firstRequest({
        config: row.config,
        port: 8790,
        persistTo: row.state,
        path: row.path,
        settleMs,
      });
      byRow[row.name]?.push(m);
      console.log(
        `  round ${round + 1} ${row.name}: first ${m.first.toFixed(1)} ms (${m.status}), warm ${m.warm.toFixed(1)} ms`,
      );
    }
  }
  const summary = rows.map((row) => {
    const runs = byRow[row.name] ?? [];
    const first = median(runs.map((r) => r.first));
    return {
      row: row.name,
      baseline: 'baseline' in row ? row.baseline : undefined,
      startupMs: row.startup,
      firstMs: first,
      warmMs: median(runs.map((r) => r.warm)),
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
  console.log('\nCold requests (median of rounds; cold = startup CPU + first request):');
  console.log('  row                 startup  first   warm    cold    ×base(first) ×base(cold)  base');
  for (const s of [...references, ...judged]) {
    const r = /** @type {{ firstRatio?: number, coldRatio?: number }} */ (s);
    console.log(
      `  ${s.row.padEnd(18)} ${s.startupMs.toFixed(1).padStart(7)} ${s.firstMs.toFixed(1).padStart(6)} ${s.warmMs.toFixed(1).padStart(6)} ${s.coldMs.toFixed(1).padStart(7)}   ${r.firstRatio === undefined ? '     -' : r.firstRatio.toFixed(2).padStart(6)}       ${r.coldRatio === undefined ? '     -' : r.coldRatio.toFixed(2).padStart(6)}     ${s.baseline ?? ''}`,
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
