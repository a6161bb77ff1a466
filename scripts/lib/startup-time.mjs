// A Worker's startup (issue 54): its main module evaluated in a fresh workerd, timed from outside.
// `wrangler check startup` evaluates the bundle under V8's CPU profiler and reports the active time
// of the samples; workerd's profiler takes samples only between tasks (5–18 per startup, whatever
// interval is asked), so a startup of a few milliseconds reads as one ~10 ms interval or as 0.0
// ms, whichever way the samples fell (docs/performance.md, 2026-12-02; decision 0337). Here the
// same evaluation (an entry that imports the main module on request, in a fresh Miniflare, as
// wrangler's profiler builds it) is timed as the wall time of the request that imports it, less
// the runtime's round trip measured around it: compile and evaluation, to a fraction of a
// millisecond. The median of several fresh workerds is the figure.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { convertV4MiniflareOptions, Miniflare } from 'miniflare';

/**
 * The directory, compatibility date and flags of a built Worker: the compatibility settings of
 * `config` (a wrangler.toml; its top-level ones), the modules in `dir` (by default the config's
 * own directory, as bench/lib/server.mjs `buildWorker` writes one beside its bundle).
 * @param {string} config
 * @param {string} [dir]
 */
export function workerOf(config, dir = dirname(config)) {
  const toml = readFileSync(config, 'utf8');
  const date = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)?.[1];
  if (!date) throw new Error(`${config}: no compatibility_date`);
  const flags = /^compatibility_flags\s*=\s*\[([^\]]*)\]/m.exec(toml)?.[1] ?? '';
  return {
    dir,
    compatibilityDate: date,
    compatibilityFlags: [...flags.matchAll(/"([^"]+)"/g)].map((m) => m[1] ?? ''),
  };
}

/** Module types by file name, as wrangler.toml's rules give them (ESModule, Data, CompiledWasm). */
function moduleType(/** @type {string} */ name) {
  if (/\.(m?js)$/.test(name)) return 'ESModule';
  if (name.endsWith('.wasm')) return 'CompiledWasm';
  if (/\.(ttf|png|bin)$/.test(name)) return 'Data';
  if (/\.(txt|md|html)$/.test(name)) return 'Text';
  return null;
}

/** Every module file under `dir` (source maps and configs left out). */
export function modulesOf(/** @type {string} */ dir) {
  /** @type {{ type: any; path: string; contents: Uint8Array }[]} */
  const out = [];
  const walk = (/** @type {string} */ at) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else {
        const type = moduleType(name);
        if (type) out.push({ type, path: `/${relative(dir, path)}`, contents: readFileSync(path) });
      }
    }
  };
  walk(dir);
  return out;
}

/**
 * Starts a fresh Miniflare on `dir`'s modules with an entry that imports `main` when asked
 * (`/import`) and otherwise answers at once, and gives `work` a way to time requests to it.
 * @template T
 * @param {{ dir: string; main?: string; compatibilityDate: string; compatibilityFlags?: string[] }} o
 * @param {(mf: Miniflare) => Promise<T>} work
 */
async function withWorker({ dir, main = 'index.js', compatibilityDate, compatibilityFlags = [] }, work) {
  // (Miniflare 5 takes `workers: [...]`; wrangler converts the one-Worker options the same way.)
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      name: 'startup',
      compatibilityDate,
      compatibilityFlags,
      modulesRoot: '/',
      modules: [
        {
          type: 'ESModule',
          path: '/__startup_profile.mjs',
          contents: `export default { async fetch(request) {
            if (new URL(request.url).pathname === '/import') await import(${JSON.stringify(`/${main}`)});
            return new Response('ok');
          } };`,
        },
        ...modulesOf(dir),
      ],
      inspectorPort: 0,
      handleRuntimeStdio: () => {},
    }),
  );
  try {
    await mf.ready;
    return await work(mf);
  } finally {
    await mf.dispose();
  }
}

/** Wall time of one request to `mf`, to its last byte, in ms. */
async function timedFetch(/** @type {Miniflare} */ mf, /** @type {string} */ path) {
  const t = performance.now();
  const response = await mf.dispatchFetch(`https://example.com${path}`);
  const text = await response.text();
  if (!response.ok)
    throw new Error(`startup: the module did not evaluate (${response.status}): ${text.slice(0, 300)}`);
  return performance.now() - t;
}

/**
 * One fresh evaluation of `main`, timed from outside: the request that imports it, less the
 * median of requests that import nothing around it (the runtime's round trip). workerd's own
 * clock does not move while JavaScript runs (a Spectre mitigation), and its CPU profiler takes
 * samples only between tasks (5–18 per startup whatever interval is asked), so neither can time
 * a startup of a few milliseconds from inside; the wall time around it can, to a fraction of one.
 * @param {{ dir: string; main?: string; compatibilityDate: string; compatibilityFlags?: string[] }} o
 */
export function startupOnce(o) {
  return withWorker(o, async (mf) => {
    const before = [];
    for (let i = 0; i < 5; i++) before.push(await timedFetch(mf, '/'));
    const first = await timedFetch(mf, '/import');
    const after = [];
    for (let i = 0; i < 5; i++) after.push(await timedFetch(mf, '/'));
    const roundTrip = median([...before.slice(2), ...after]);
    return Math.max(0, first - roundTrip);
  });
}

/** @param {number[]} xs */
function median(xs) {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/**
 * The median startup of `runs` fresh evaluations (`startupOnce`), with every run's figure.
 * @param {Parameters<typeof startupOnce>[0] & { runs?: number }} o
 */
export async function startupMedian({ runs = 7, ...o }) {
  const all = [];
  for (let i = 0; i < runs; i++) all.push(await startupOnce(o));
  return { ms: median(all), samples: all.map((x) => Math.round(x * 100) / 100) };
}
