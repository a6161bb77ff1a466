import { getDb } from './db/client';
import { refreshPublicAgreement } from './services/agreement-rate';
import { purgeOldUsage } from './services/api-keys';
import { backfillErasureJobs, purgePseudonymisedLogs } from './services/dsr/erasure';
import { deleteExpiredExports } from './services/dsr/export-job';
import { endGuardianshipsAtMajority } from './services/guardians';
import { purgeExpiredIdempotencyKeys } from './services/idempotency';
import { issueAllPending, issueEarnedCertificates } from './services/issuance/issue';
import { sweepJobs } from './services/jobs/sweeper';
import { backfillOrganisationNameKeys } from './services/organisations/organisation';
import { runRetention } from './services/retention';
import { sweepExpiredSessions } from './services/sessions';
import { expireUnconfirmedSignups } from './services/unconfirmed-signups';
import { rebuildVerificationFilter } from './services/verification-filter';
import './services/jobs/kinds';
import { log } from './lib/log';

/** How far back the cron looks for ratings that earned a certificate none was issued for. */
const EARNED_LOOKBACK_MS = 24 * 60 * 60 * 1000;

/**
 * Cron trigger (every 15 minutes): keep the agreement window rolling, drop expired sessions, and
 * sweep the deferred jobs (re-enqueue the lost, stall the overdue), rebuild the verification
 * filter. Each part runs whatever the
 * others do: one failing does not stop the sweep.
 */
export async function runScheduled(env: Env, now = new Date()): Promise<void> {
  // One handle for every task: the services take it, and only the other bindings they use.
  const db = getDb(env.DB);
  const results = await Promise.allSettled([
    refreshPublicAgreement(db, env, now),
    sweepExpiredSessions(db, now),
    purgeExpiredIdempotencyKeys(db, now),
    purgeOldUsage(db, now.getTime()),
    purgePseudonymisedLogs(db, now),
    runRetention(db, env, now),
    // Signups whose address was never confirmed are closed after a week (nobody squats an address).
    expireUnconfirmedSignups(db, env, now),
    endGuardianshipsAtMajority(db, now),
    backfillErasureJobs(db, now).then(() => sweepJobs(db, env, now)),
    deleteExpiredExports(db, env, now),
    // The membership filter of issued numbers, so never-issued ones answer 404 from memory.
    rebuildVerificationFilter(db, env, now.getTime()),
    // Verified organisations without a stored name key (from before it existed, or re-keyed).
    backfillOrganisationNameKeys(db),
    // Backstops for issuance: earned but never created (a race between two last ratings), and
    // waiting under an organisation that is verified by now (a crash after the verification).
    issueEarnedCertificates(db, env, new Date(now.getTime() - EARNED_LOOKBACK_MS), now).then(() =>
      issueAllPending(db, env),
    ),
  ]);
  const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  for (const f of failed) log('error', 'scheduled task failed', { error: String(f.reason) });
  if (failed.length > 0) throw failed[0]!.reason;
}
