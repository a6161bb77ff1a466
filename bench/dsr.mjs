// Data-subject rights for a person with 1,000 submissions: the access export (time, size,
// memory) and the erasure cascade (time until the queue consumer has finished).
//
// Memory. workerd exposes no per-request heap figure, and its inspector answers only between
// requests (a `Runtime.getHeapUsage` sent during the export is answered after it), so the
// export's memory is measured where it can be, honestly:
//  1. The same export code (src/services/dsr/access-export.ts, bundled by esbuild) runs in a
//     Node worker thread over a copy of the seeded D1 file, under a V8 heap limit. The limit
//     is halved until the export no longer completes: the smallest limit that still completes
//     is its real peak heap need (what the collector could not free). The Workers limit is
//     128 MB per isolate, so the target is that this figure stays under 128 MB. The peak of
//     process.memoryUsage() at each chunk is reported beside it.
//  2. In workerd itself: the time to the last byte, the ZIP, and the resident memory of the
//     whole workerd process (Linux /proc: VmHWM after resetting it through
//     /proc/<pid>/clear_refs, against VmRSS before) — an upper bound, since the same process
//     also runs the local D1 (SQLite page cache), KV and Queue simulators.
import { readFileSync, writeFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { unzipSync } from 'fflate';
import { connectInspector } from './lib/inspector.mjs';
import { fmt, printTable } from './lib/stats.mjs';

const MB = 1024 * 1024;

/** @param {number} pid @param {'VmRSS' | 'VmHWM'} field */
function procMemory(pid, field) {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** @param {number} pid */
function resetPeak(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/**
 * The Worker isolate's used JS heap (V8, through wrangler dev's inspector), or null.
 * @param {number} port
 */
async function isolateHeap(port) {
  try {
    const inspector = await connectInspector(port);
    try {
      return /** @type {{ usedSize: number }} */ (await inspector.send('Runtime.getHeapUsage')).usedSize;
    } finally {
      inspector.close();
    }
  } catch {
    return null;
  }
}

/**
 * @typedef {{ id: string; email: string; name: string; role: string; sessionId: string }} ExportUser
 * @typedef {{ ok: true; ms: number; bytes: number; chunks: number; baseline: number; peakHeap: number; peakBuffers: number } | { ok: false; reason: string }} NodeExport
 */

/**
 * One export in a worker thread with `maxOldMb` of old generation (and 8 MB of young).
 * @param {{ bundle: string; file: string; user: ExportUser }} input
 * @param {number} maxOldMb
 * @returns {Promise<NodeExport>}
 */
function exportInWorker(input, maxOldMb) {
  return new Promise((resolve) => {
    const worker = new Worker(new URL('./lib/export-worker.mjs', import.meta.url), {
      workerData: input,
      resourceLimits: { maxOldGenerationSizeMb: maxOldMb, maxYoungGenerationSizeMb: 8 },
      stderr: true,
    });
    let settled = false;
    /** @param {NodeExport} r */
    const done = (r) => {
      if (!settled) resolve(r);
      settled = true;
    };
    worker.once('message', (m) => done({ ok: true, ...m }));
    worker.once('error', (e) =>
      done({ ok: false, reason: /** @type {{ code?: string }} */ (e).code ?? e.message }),
    );
    worker.once('exit', (code) => done({ ok: false, reason: `exit ${code}` }));
  });
}

/**
 * The smallest old-generation limit (MB, to `step`) under which the export completes.
 * @param {{ bundle: string; file: string; user: ExportUser }} input
 * @param {number} ceiling
 */
async function smallestHeap(input, ceiling, step = 2) {
  const atCeiling = await exportInWorker(input, ceiling);
  if (!atCeiling.ok) return { atCeiling, smallest: null, tries: 1 };
  let ok = ceiling;
  let failed = 0;
  let tries = 1;
  let best = atCeiling;
  while (ok - failed > step) {
    const mid = Math.floor((ok + failed) / 2);
    const r = await exportInWorker(input, mid);
    tries++;
    if (r.ok) {
      ok = mid;
      best = r;
    } else failed = mid;
  }
  return { atCeiling, smallest: ok, best, tries };
}

/**
 * @param {{
 *   url: string;
 *   inspectorPort: number;
 *   workerdPid: number | null;
 *   person: { userId: string; email: string; name: string; password: string; token: string; submissions: number; certificates: number; certificateNos: string[] };
 *   node: { bundle: string; file: string };
 *   limitMb: number;
 * }} o
 */
export async function benchDsr(o) {
  const cookie = `session=${o.person.token}`;

  // --- Access export in Node, under heap limits.
  const user = {
    id: o.person.userId,
    email: o.person.email,
    name: o.person.name,
    role: 'candidate',
    sessionId: crypto.randomUUID(),
  };
  const heap = await smallestHeap({ ...o.node, user }, o.limitMb);
  if (!heap.atCeiling.ok)
    throw new Error(`the export did not complete within a ${o.limitMb} MB heap: ${heap.atCeiling.reason}`);
  const nodeRun = /** @type {Extract<NodeExport, { ok: true }>} */ (heap.best);

  // --- Access export through the Worker.
  const pid = o.workerdPid;
  const rssBefore = pid === null ? null : procMemory(pid, 'VmRSS');
  const peakReset = pid !== null && resetPeak(pid);
  const heapBefore = await isolateHeap(o.inspectorPort);
  const started0 = performance.now();
  const res = await fetch(`${o.url}/api/dsr/access`, { headers: { cookie } });
  if (res.status !== 200) throw new Error(`DSR export answered ${res.status}: ${await res.text()}`);
  const zip = new Uint8Array(await res.arrayBuffer());
  const ms = performance.now() - started0;
  const rssPeak = pid !== null && peakReset ? procMemory(pid, 'VmHWM') : null;
  const heapAfter = await isolateHeap(o.inspectorPort);
  const files = unzipSync(zip);
  const submissionsFile = files['submissions.json'];
  const submissions = submissionsFile ? JSON.parse(new TextDecoder().decode(submissionsFile)).length : 0;
  const pdfs = Object.keys(files).filter((f) => f.startsWith('certificates/')).length;
  if (submissions !== o.person.submissions) {
    throw new Error(`export holds ${submissions} submissions, expected ${o.person.submissions}`);
  }
  if (pdfs !== o.person.certificates)
    throw new Error(`export holds ${pdfs} certificate PDFs, expected ${o.person.certificates}`);
  const unpacked = Object.values(files).reduce((n, f) => n + f.length, 0);
  const exportResult = {
    ms,
    zipBytes: zip.length,
    unpackedBytes: unpacked,
    files: Object.keys(files).length,
    submissions,
    certificatePdfs: pdfs,
    nodeMs: nodeRun.ms,
    nodeChunks: nodeRun.chunks,
    nodeHeapBaseline: nodeRun.baseline,
    nodePeakHeapUsed: nodeRun.peakHeap,
    nodePeakArrayBuffers: nodeRun.peakBuffers,
    smallestHeapLimitMb: heap.smallest,
    heapLimitTries: heap.tries,
    isolateHeapBefore: heapBefore,
    isolateHeapAfter: heapAfter,
    workerdRssBefore: rssBefore,
    workerdRssPeak: rssPeak,
  };

  // --- Erasure: request, then follow the receipt until the queue consumer has finished. It asks
  // for a sign-in within 15 minutes, and the seeded session is older by now: sign in again.
  const login = await fetch(`${o.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: o.url },
    body: JSON.stringify({ email: o.person.email, password: o.person.password }),
  });
  const fresh = /(?:^|,\s*)session=([^;]*)/.exec(login.headers.get('set-cookie') ?? '')?.[1];
  if (login.status !== 200 || !fresh)
    throw new Error(`sign-in before erasure answered ${login.status}: ${await login.text()}`);
  const started = performance.now();
  const del = await fetch(`${o.url}/api/dsr/erasure`, {
    method: 'DELETE',
    headers: { cookie: `session=${fresh}`, origin: o.url },
  });
  if (del.status !== 202) throw new Error(`erasure answered ${del.status}: ${await del.text()}`);
  const accepted = performance.now() - started;
  const { requestId } = /** @type {{ requestId: string }} */ (await del.json());
  /** @type {{ state: string; deletedCounts: Record<string, number> }} */
  let receipt = { state: 'in_progress', deletedCounts: {} };
  while (receipt.state !== 'completed') {
    if (performance.now() - started > 120_000) throw new Error('erasure did not complete within 120 s');
    await new Promise((r) => setTimeout(r, 100));
    const res = await fetch(`${o.url}/api/dsr/erasure/${requestId}`);
    receipt = /** @type {typeof receipt} */ (await res.json());
  }
  const erasureMs = performance.now() - started;
  const gone = await fetch(`${o.url}/api/verify/${o.person.certificateNos[0]}`);
  await gone.arrayBuffer();
  if (gone.status !== 404) throw new Error(`an erased person's certificate still verifies (${gone.status})`);
  const me = await fetch(`${o.url}/api/me`, { headers: { cookie } });
  await me.arrayBuffer();
  if (me.status !== 401) throw new Error(`an erased person's session still works (${me.status})`);
  const erasureResult = {
    acceptedMs: accepted,
    completedMs: erasureMs,
    deletedCounts: receipt.deletedCounts,
  };

  const mb = (/** @type {number | null} */ b) => (b === null ? 'n/a' : `${(b / MB).toFixed(1)} MB`);
  console.log(
    `\nData-subject rights (a person with ${o.person.submissions.toLocaleString('en')} submissions)`,
  );
  printTable(
    ['measure', 'value'],
    [
      ['export via the Worker: time to the last byte', fmt(ms)],
      ['export: ZIP (unpacked, files)', `${mb(zip.length)} (${mb(unpacked)}, ${exportResult.files} files)`],
      [
        'export in Node: smallest V8 heap it completes in',
        `${heap.smallest} MB old generation + 8 MB young (${heap.tries} runs; Workers allow 128 MB)`,
      ],
      [
        'export in Node: peak heap used / ArrayBuffers',
        `${mb(nodeRun.peakHeap)} / ${mb(nodeRun.peakBuffers)} (at ${nodeRun.chunks} chunks)`,
      ],
      [
        'export: Worker isolate JS heap, before → after',
        `${mb(heapBefore)} → ${mb(heapAfter)} (inspector; garbage included)`,
      ],
      [
        'export: workerd process RSS, before → peak',
        `${mb(rssBefore)} → ${mb(rssPeak)} (whole process, upper bound)`,
      ],
      ['erasure: 202 Accepted', fmt(accepted)],
      ['erasure: until the receipt is completed', fmt(erasureMs)],
      [
        'erasure: rows deleted',
        Object.entries(receipt.deletedCounts)
          .filter(([, n]) => n > 0)
          .map(([t, n]) => `${t} ${n}`)
          .join(', '),
      ],
    ],
  );
  return { export: exportResult, erasure: erasureResult };
}
