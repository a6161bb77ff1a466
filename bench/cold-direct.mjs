// The cold rows measured without wrangler's dev proxy (issue 54): `node bench/cold-direct.mjs
// [rounds]` builds the production split build and the hello-world as bench/cold.mjs does, seeds
// the certificate's payload in KV the same way, and for each row starts a fresh workerd
// (Miniflare, as `wrangler dev` runs it, on a copy of the seeded state) and times its first request
// and a second one from Node, the median of the rounds. Not a judged row: a finer instrument for
// the cold rows of `npm run bench`, whose first requests go through `wrangler dev`'s proxy (a Worker
// of its own, cold too, that rewrites every HTML answer) and spread by ± 5 ms and more. Here a row
// spreads by about ± 2 ms, and the hello-world's `/kv` shows what the first KV read of a fresh
// isolate costs locally (decision 0337).
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { convertV4MiniflareOptions, Miniflare } from 'miniflare';
import { modulesOf, workerOf } from '../scripts/lib/startup-time.mjs';
import { COLD_CERTIFICATE_NO, seedColdPayload } from './cold.mjs';
import { buildWorker, prepareState, ROOT } from './lib/server.mjs';

/** `CACHE`'s namespace id in wrangler.toml's local configuration (where the payload was seeded). */
const CACHE_ID = '00000000000000000000000000000000';

/** @param {number[]} xs */
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};

/** A fresh workerd (Miniflare, as `wrangler dev` runs it) on `config`'s build, its state in `persist`. */
function start(/** @type {string} */ config, /** @type {string} */ persist) {
  const worker = workerOf(config);
  const modules = modulesOf(worker.dir).sort(
    (a, b) => Number(b.path === '/index.js') - Number(a.path === '/index.js'),
  );
  return new Miniflare(
    convertV4MiniflareOptions({
      name: 'cold',
      compatibilityDate: worker.compatibilityDate,
      compatibilityFlags: worker.compatibilityFlags,
      modulesRoot: '/',
      modules,
      bindings: { PUBLIC_BASE_URL: 'http://localhost:8787', LOG_LEVEL: 'error' },
      kvNamespaces: { CACHE: CACHE_ID },
      resourcePersistencePath: join(persist, 'v3'),
      handleRuntimeStdio: () => {},
    }),
  );
}

/** One request to `mf`, timed to its last byte (ms); anything but a 200 fails the run. */
async function timed(/** @type {Miniflare} */ mf, /** @type {string} */ path) {
  const t = performance.now();
  const response = await mf.dispatchFetch(`http://localhost:8787${path}`, {
    headers: { accept: 'text/html' },
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
  return performance.now() - t;
}

/**
 * The first and the second request to `path` of a fresh workerd on `config`'s build, its state a
 * fresh copy of `state`, in ms to the last byte.
 * @param {{ config: string; path: string; state: string }} o
 */
async function firstAndSecond({ config, path, state }) {
  const persist = join(ROOT, '.wrangler', 'cold-direct-run');
  rmSync(persist, { recursive: true, force: true });
  cpSync(state, persist, { recursive: true });
  const mf = start(config, persist);
  try {
    await mf.ready;
    const first = await timed(mf, path);
    return { first, second: await timed(mf, path) };
  } finally {
    await mf.dispose();
  }
}

const rounds = Number(process.argv[2] ?? 9);
const state = await prepareState('.wrangler/cold-direct-state');
await seedColdPayload(state);
const [service, hello] = await Promise.all([
  buildWorker('wrangler.toml', '.wrangler/cold-direct-build', undefined, { split: true }),
  buildWorker('bench/hello/wrangler.toml', '.wrangler/cold-direct-hello'),
]);
// The hello-world's state holds its `/kv` payload (written by its first `/kv` on an empty state),
// so its `/kv` row is one KV read, as the service's rows are.
const helloState = await prepareState('.wrangler/cold-direct-hello-state');
const seeding = start(hello, helloState);
await seeding.ready;
await timed(seeding, '/kv');
await seeding.dispose();
const rows = [
  { name: 'hello-world /', config: hello, path: '/', state: helloState },
  { name: 'hello-world /page', config: hello, path: '/page', state: helloState },
  { name: 'hello-world /kv', config: hello, path: '/kv', state: helloState },
  {
    name: '/api/verify/{no}',
    config: service,
    path: `/api/verify/${COLD_CERTIFICATE_NO}`,
    state,
    base: 'hello-world /',
  },
  {
    name: '/verify/{no}',
    config: service,
    path: `/verify/${COLD_CERTIFICATE_NO}`,
    state,
    base: 'hello-world /page',
  },
];
/** @type {Record<string, { first: number; second: number }[]>} */
const byRow = Object.fromEntries(rows.map((r) => [r.name, []]));
for (let round = 0; round < rounds; round++)
  for (const row of rows) byRow[row.name]?.push(await firstAndSecond(row));
console.log(
  `First requests to a fresh workerd, no dev proxy (median of ${rounds}; ms, Node's round trip included):`,
);
const firstOf = (/** @type {string} */ name) => median((byRow[name] ?? []).map((m) => m.first));
for (const row of rows) {
  const runs = byRow[row.name] ?? [];
  const ratio = row.base ? `  ×${(firstOf(row.name) / firstOf(row.base)).toFixed(2)} ${row.base}` : '';
  console.log(
    `  ${row.name.padEnd(18)} first ${firstOf(row.name).toFixed(1).padStart(5)}  second ${median(
      runs.map((m) => m.second),
    )
      .toFixed(1)
      .padStart(5)}${ratio}  [${runs.map((m) => m.first.toFixed(1)).join(' ')}]`,
  );
}
