/**
 * The timing rules of deferred jobs (src/services/jobs/), as plain functions of the clock.
 */

/** The lease a consumer takes, from `JOB_LEASE_SECONDS` (default 300; at least 1, at most a day). */
export function leaseSeconds(setting: string | undefined): number {
  const n = Number(setting);
  return Number.isInteger(n) && n >= 1 && n <= 86_400 ? n : DEFAULT_LEASE_SECONDS;
}

export const DEFAULT_LEASE_SECONDS = 300;

/** Seconds before the queue redelivers a failed message: 20 s, 40 s, 80 s… capped at 10 minutes. */
export const retryDelaySeconds = (attempts: number) => Math.min(600, 10 * 2 ** Math.max(1, attempts));

/**
 * Seconds the sweeper waits before re-enqueuing a job again after it has taken `attempts`
 * leases: one lease, then doubling, capped at six hours, so a job that keeps dying does not
 * flood the queue while it waits for its deadline.
 */
export const sweepBackoffSeconds = (attempts: number, lease: number) =>
  Math.min(6 * 60 * 60, lease * 2 ** Math.max(0, attempts - 1));

/** The default maximum age of a job before the sweeper gives up and marks it stalled. */
export const DEFAULT_MAX_AGE_SECONDS = 24 * 60 * 60;
