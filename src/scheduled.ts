import { getDb } from './db/client';
import { refreshPublicAgreement } from './services/agreement-rate';
import { backfillErasureJobs, purgePseudonymisedLogs } from './services/dsr/erasure';
import { sweepJobs } from './services/jobs/sweeper';
import { runRetention } from './services/retention';
import { sweepExpiredSessions } from './services/sessions';
import './services/jobs/kinds';

/**
 * Cron trigger (every 15 minutes): keep the agreement window rolling, drop expired sessions, and
 * sweep the deferred jobs (re-enqueue the lost, stall the overdue). Each part runs whatever the
 * others do: one failing does not stop the sweep.
 */
export async function runScheduled(env: Env, now = new Date()): Promise<void> {
  const results = await Promise.allSettled([
    refreshPublicAgreement(env, now),
    sweepExpiredSessions(getDb(env.DB), now),
    purgePseudonymisedLogs(getDb(env.DB), now),
    runRetention(env, now),
    backfillErasureJobs(getDb(env.DB), now).then(() => sweepJobs(env, now)),
  ]);
  const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  for (const f of failed)
    console.error(JSON.stringify({ level: 'error', msg: 'scheduled task failed', error: String(f.reason) }));
  if (failed.length > 0) throw failed[0]!.reason;
}
