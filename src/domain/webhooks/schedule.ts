/**
 * When a failed delivery is tried again: after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (one
 * first attempt plus seven retries, 27 h 35 min 5 s in all), then it is dead-lettered. An
 * endpoint whose attempts have all failed for `DISABLE_AFTER_FAILING_MS` is disabled.
 */
export const RETRY_DELAYS_SECONDS = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600] as const;

/** Attempts a delivery gets before it is dead-lettered. */
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

/** Five days of nothing but failures disables an endpoint. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3600 * 1000;

/** Seconds to wait after failed attempt number `attempt` (1-based), or null when it was the last. */
export function retryDelaySeconds(attempt: number): number | null {
  return attempt >= 1 && attempt < MAX_ATTEMPTS ? (RETRY_DELAYS_SECONDS[attempt - 1] ?? null) : null;
}

/** How long a rotated-out secret keeps signing. */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 3600 * 1000;

/** How long one attempt waits for the receiver's answer. */
export const DELIVERY_TIMEOUT_MS = 10_000;
