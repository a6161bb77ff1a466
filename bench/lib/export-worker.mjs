// Worker thread: runs the service's DSR access export (bundled from src/ by esbuild) over a copy
// of the local D1 file, under a V8 heap limit set by the parent, and reports what it used.
// The parent lowers the limit until the export no longer completes: the smallest limit that
// still works is the export's real peak heap requirement (garbage included only as far as the
// collector could not reclaim it).
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { nodeD1 } from './d1-node.mjs';

/** @type {{ bundle: string; file: string; user: { id: string; email: string; name: string; role: string; sessionId: string } }} */
const input = workerData;
const { startAccessExport, getDb } = /** @type {import('./bundle.mjs').Domain} */ (
  await import(pathToFileURL(input.bundle).href)
);
const db = nodeD1(input.file);
let peakHeap = 0;
let peakBuffers = 0;
const sample = () => {
  const m = process.memoryUsage();
  peakHeap = Math.max(peakHeap, m.heapUsed);
  peakBuffers = Math.max(peakBuffers, m.arrayBuffers);
};
const baseline = process.memoryUsage().heapUsed;
const started = performance.now();
// The bench's person granted no Open Badges API client access: the export lists `OAUTH_KV` once
// (src/services/portability/grants.ts) and finds nothing, as in the Worker.
const OAUTH_KV = { list: async () => ({ keys: [], list_complete: true, cacheStatus: null }) };
const { body } = await startAccessExport(
  getDb(db),
  { DB: db, OAUTH_KV, PUBLIC_BASE_URL: 'http://localhost:8787' },
  input.user,
);
const reader = body.getReader();
let bytes = 0;
let chunks = 0;
for (;;) {
  const { done, value } = await reader.read();
  sample();
  if (done) break;
  bytes += value.length;
  chunks++;
}
const ms = performance.now() - started;
db.close();
parentPort?.postMessage({ ms, bytes, chunks, baseline, peakHeap, peakBuffers });
