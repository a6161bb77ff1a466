// The Worker's V8 isolate through the DevTools protocol (wrangler dev's inspector port): CPU
// profiles of a load (`BENCH_PROFILE=1 npm run bench`) and the isolate's JS heap. workerd
// answers inspector messages between requests only, so the heap cannot be sampled in the middle
// of one.

/**
 * @param {number} inspectorPort
 * @returns {Promise<{ send: (method: string, params?: object) => Promise<any>; close: () => void }>}
 */
export async function connectInspector(inspectorPort) {
  const targets = /** @type {{ webSocketDebuggerUrl: string; title?: string }[]} */ (
    await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json()
  );
  const target = targets.find((t) => !t.title?.includes('Miniflare')) ?? targets[0];
  if (!target) throw new Error(`no inspector target on port ${inspectorPort}`);
  // wrangler's inspector proxy accepts only local origins.
  const ws = new WebSocket(
    target.webSocketDebuggerUrl,
    /** @type {any} */ ({ headers: { Origin: 'http://localhost' } }),
  );
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  let id = 0;
  /** @type {Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>} */
  const pending = new Map();
  ws.onmessage = (event) => {
    const msg = JSON.parse(String(event.data));
    const waiter = msg.id === undefined ? undefined : pending.get(msg.id);
    if (!waiter) return;
    pending.delete(msg.id);
    if (msg.error) waiter.reject(new Error(`${msg.error.message}`));
    else waiter.resolve(msg.result);
  };
  return {
    send: (method, params = {}) =>
      new Promise((resolve, reject) => {
        const n = ++id;
        pending.set(n, { resolve, reject });
        ws.send(JSON.stringify({ id: n, method, params }));
      }),
    close: () => ws.close(),
  };
}

/**
 * Self time per function of a V8 CPU profile, largest first.
 * @param {{ nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[]; samples: number[]; timeDeltas: number[] }} profile
 * @param {number} [top]
 */
export function hottest(profile, top = 25) {
  /** @type {Map<number, string>} */
  const names = new Map();
  for (const n of profile.nodes) {
    const file = n.callFrame.url.split('/').slice(-2).join('/');
    names.set(n.id, `${n.callFrame.functionName || '(anonymous)'} ${file}:${n.callFrame.lineNumber + 1}`);
  }
  /** @type {Map<string, number>} */
  const self = new Map();
  let total = 0;
  profile.samples.forEach((nodeId, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    const name = names.get(nodeId) ?? '?';
    self.set(name, (self.get(name) ?? 0) + dt);
  });
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, us]) => ({ name, ms: us / 1000, share: us / total }));
}

/**
 * Runs `work` under the CPU profiler of the Worker's isolate.
 * @template T
 * @param {number} inspectorPort
 * @param {() => Promise<T>} work
 */
export async function profileWhile(inspectorPort, work) {
  const inspector = await connectInspector(inspectorPort);
  try {
    await inspector.send('Profiler.enable');
    await inspector.send('Profiler.setSamplingInterval', { interval: 200 });
    await inspector.send('Profiler.start');
    const result = await work();
    const { profile } = await inspector.send('Profiler.stop');
    return { result, profile };
  } finally {
    inspector.close();
  }
}
