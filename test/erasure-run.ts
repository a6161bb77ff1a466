import { env } from 'cloudflare:test';
import { getDb } from '../src/db/client';
import { ERASURE_JOB, type ErasureReceiptView, erasureReceipt } from '../src/services/dsr/erasure/request';
import { jobFor, runJob } from '../src/services/jobs/jobs';

/**
 * Runs the erasure cascade of a request that `DELETE /api/dsr/erasure` accepted, the way the queue
 * consumer does: through its job's lease. The request's job is also on the test Worker's queue,
 * whose consumer may take it at the same moment; calling `runErasureCascade` directly would then run
 * the cascade twice at once (which the lease prevents in production) and count rows twice. When the
 * consumer holds the lease, this waits for it to finish. Returns the receipt.
 */
export async function runErasureJob(requestId: string, timeoutMs = 20_000): Promise<ErasureReceiptView> {
  const db = getDb(env.DB);
  const job = await jobFor(db, ERASURE_JOB, requestId);
  if (!job) throw new Error(`no erasure job for request ${requestId}`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const outcome = await runJob(db, env, job.id);
    if (outcome === 'stalled') throw new Error(`the erasure job of ${requestId} stalled`);
    if (outcome === 'done' || outcome === 'skipped') break;
    if (Date.now() > deadline) throw new Error(`the erasure job of ${requestId} is still running`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const receipt = await erasureReceipt(db, requestId);
  if (!receipt) throw new Error(`no erasure receipt for request ${requestId}`);
  return receipt;
}
