/**
 * Write coalescing for one KV key (issue 18): KV accepts about one write per second per key, and
 * every rating changes the public agreement rate and a leaderboard. A key is written at once when
 * its last write is at least `intervalMs` old; otherwise one trailing write is scheduled for
 * `lastWrite + intervalMs`, and every request until it runs joins it. So a key is written at most
 * once per interval whatever the request rate, and the public value is never staler than one
 * interval (plus the write itself). Pure: the Durable Object `KvCoalescer` keeps the state.
 */
export const KV_WRITE_INTERVAL_MS = 1_000;

export type CoalesceState = {
  /** When the key was last written (ms; 0: never). */
  lastWrite: number;
  /** When the scheduled trailing write runs (null: none scheduled). */
  dueAt: number | null;
};

export type CoalesceDecision =
  /** Write now: the caller writes, and `lastWrite` is now. */
  | { action: 'write'; at: number }
  /** A trailing write was scheduled for `at` (arm an alarm). */
  | { action: 'schedule'; at: number }
  /** A trailing write is already scheduled for `at`; nothing to do. */
  | { action: 'joined'; at: number };

export const INITIAL_COALESCE_STATE: CoalesceState = { lastWrite: 0, dueAt: null };

/** A change to the key's value was made at `now`: decide when it is written. */
export function requestWrite(
  state: CoalesceState,
  now: number,
  intervalMs: number = KV_WRITE_INTERVAL_MS,
): [CoalesceState, CoalesceDecision] {
  if (state.dueAt !== null) return [state, { action: 'joined', at: state.dueAt }];
  if (now - state.lastWrite >= intervalMs)
    return [
      { lastWrite: now, dueAt: null },
      { action: 'write', at: now },
    ];
  const at = state.lastWrite + intervalMs;
  return [
    { lastWrite: state.lastWrite, dueAt: at },
    { action: 'schedule', at },
  ];
}

/** The scheduled write runs at `now` (an alarm): whether there was one to run. */
export function runScheduled(state: CoalesceState, now: number): [CoalesceState, boolean] {
  if (state.dueAt === null) return [state, false];
  return [{ lastWrite: now, dueAt: null }, true];
}

/**
 * Simulates `changes` (times, ms, ascending) against one key with alarms that fire exactly when
 * due: the writes made and the longest time a change waited for the write that published it.
 * Used by the unit test and `npm run bench` (1,000 ratings in one minute).
 */
export function simulateCoalescing(
  changes: readonly number[],
  intervalMs: number = KV_WRITE_INTERVAL_MS,
): { writes: number[]; maxStalenessMs: number } {
  let state = INITIAL_COALESCE_STATE;
  const writes: number[] = [];
  const waiting: number[] = [];
  let maxStalenessMs = 0;
  const publish = (at: number) => {
    writes.push(at);
    for (const t of waiting) maxStalenessMs = Math.max(maxStalenessMs, at - t);
    waiting.length = 0;
  };
  for (const t of changes) {
    if (state.dueAt !== null && state.dueAt <= t) {
      const due = state.dueAt;
      [state] = runScheduled(state, due);
      publish(due);
    }
    let decision: CoalesceDecision;
    [state, decision] = requestWrite(state, t, intervalMs);
    waiting.push(t);
    if (decision.action === 'write') publish(t);
  }
  if (state.dueAt !== null) publish(state.dueAt);
  return { writes, maxStalenessMs };
}
