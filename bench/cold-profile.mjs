// Where a cold isolate's first request spends its time (issue 54): `node bench/cold-profile.mjs
// [path] [runs]` starts the production build (split into modules, as bench/cold.mjs does) in a
// fresh `wrangler dev`, attaches the CPU profiler of the Worker's isolate through the inspector,
// sends the one request, and prints the isolate's CPU by function (self and inclusive), the
// request's time, and the same for the hello-world's page. Nothing is judged: it is a tool for
// reading the cold row of `npm run bench`, not a row of it. Writes the profiles to
// .wrangler/cold-profile/*.cpuprofile (open them in Chrome DevTools).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEV_VARS, ensureDevVars } from '../scripts/lib/dev-vars.mjs';
import { spawnWrangler } from '../scripts/lib/wrangler.mjs';
import { COLD_CERTIFICATE_NO, portOpen, seedColdPayload } from './cold.mjs';
import { connectInspector } from './lib/inspector.mjs';
import { buildWorker, prepareState, ROOT } from './lib/server.mjs';

const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

/** @param {{ nodes: any[]; samples: number[]; timeDeltas: number[] }} profile */
function summarise(profile, top = 18) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const key = (/** @type {any} */ n) =>
    `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber + 1}:${n.callFrame.columnNumber + 1}`;
  const selfOf = new Map();
  const inclusive = new Map();
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    const node = byId.get(id);
    selfOf.set(key(node), (selfOf.get(key(node)) ?? 0) + dt);
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const k = key(byId.get(at));
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + dt);
    }
  });
  const busy = [...selfOf].filter(([k]) => !k.startsWith('(idle)')).reduce((s, [, v]) => s + v, 0);
  const list = (/** @type {Map<string, number>} */ m) =>
    [...m]
      .filter(([k]) => !/^\((root|idle|program)\)/.test(k))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]) => `    ${v.toFixed(2).padStart(7)} ms  ${k}`)
      .join('\n');
  return `  busy ${busy.toFixed(2)} ms\n  self:\n${list(selfOf)}\n  inclusive:\n${list(inclusive)}`;
}

/** @param {{ config: string; persistTo: string; path: string; name: string }} o */
async function profileFirst({ config, persistTo, path, name }) {
  const port = 8791;
  const inspectorPort = port + 10_000;
  const child = spawnWrangler(
    [
      'dev',
      '--local',
      '--port',
      String(port),
      '--ip',
      '127.0.0.1',
      '--persist-to',
      persistTo,
      '--log-level',
      'error',
      '--show-interactive-dev-session=false',
      '--inspector-port',
      String(inspectorPort),
      '--config',
      config,
      '--env-file',
      DEV_VARS,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'], detached: true, env: { ...process.env, CI: 'true' } },
  );
  try {
    while (!(await portOpen(port))) await sleep(100);
    await sleep(4000);
    const inspector = await connectInspector(inspectorPort);
    await inspector.send('Profiler.enable');
    await inspector.send('Profiler.setSamplingInterval', { interval: 50 });
    await inspector.send('Profiler.start');
    const t = performance.now();
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      headers: { accept: 'text/html,application/json;q=0.9' },
    });
    const bytes = (await res.arrayBuffer()).byteLength;
    const ms = performance.now() - t;
    const { profile } = await inspector.send('Profiler.stop');
    inspector.close();
    const dir = join(ROOT, '.wrangler', 'cold-profile');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${name.replace(/\W+/g, '_')}.cpuprofile`), JSON.stringify(profile));
    console.log(
      `${name}: ${res.status}, ${bytes} B, first request ${ms.toFixed(1)} ms\n${summarise(profile)}`,
    );
  } finally {
    if (child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGTERM');
        await sleep(1500);
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    }
  }
}

const path = process.argv[2] || `/verify/${COLD_CERTIFICATE_NO}`;
const runs = Number(process.argv[3] ?? 1);
ensureDevVars();
const persistTo = await prepareState('.wrangler/cold-profile-state');
await seedColdPayload(persistTo);
const [serviceConfig, helloConfig] = await Promise.all([
  buildWorker('wrangler.toml', '.wrangler/cold-profile-build', undefined, { split: true }),
  buildWorker('bench/hello/wrangler.toml', '.wrangler/cold-profile-build-hello'),
]);
for (let i = 0; i < runs; i++) {
  await profileFirst({
    config: helloConfig,
    persistTo: join(ROOT, '.wrangler', 'cold-profile-hello'),
    path: '/page',
    name: `hello-page-${i + 1}`,
  });
  await profileFirst({ config: serviceConfig, persistTo, path, name: `service-${i + 1}` });
}
