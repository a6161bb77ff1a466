/**
 * The change feed of verification payloads (issue 18): which certificate numbers' public
 * verification changed recently (revocation, re-signing, consent, correction, suspension,
 * erasure), so that every isolate can keep verification payloads in memory for a long time and
 * still forget a changed one within seconds.
 *
 * One log, kept by the `KvCoalescer` object of `VERIFY_CHANGES_KEY` and published to KV at most
 * once a second. Isolates read it at most once per refresh interval and forget what changed
 * since the value they applied last. The log holds the changes of the last `CHANGES_WINDOW_MS`
 * and at most `MAX_CHANGES` numbers; a larger change (an organisation of many certificates
 * suspended) empties it and sets `clearedAt`, and isolates then forget every payload. Pure: no
 * bindings here.
 */

/** How far back the log reaches. An isolate that looked longer ago forgets everything. */
export const CHANGES_WINDOW_MS = 5 * 60_000;
/** Most numbers in the log (≈ 30 bytes each in JSON); beyond it, `clearedAt` stands for them. */
export const MAX_CHANGES = 2_000;
/**
 * Clock margin between the machines that stamp changes and those that compare with them: a
 * change is applied to everything loaded up to this long after it.
 */
export const CLOCK_SKEW_MS = 1_000;

export type ChangeLog = {
  /** The log holds every change made since this time (ms). */
  from: number;
  /** Every payload built before this time may be stale (0: never cleared). */
  clearedAt: number;
  /** `[certificateNo, changedAt]`, oldest first, one entry per number (its latest change). */
  changes: [string, number][];
};

/** The value in KV: the log, and when it was written (which identifies a version). */
export type PublishedChanges = ChangeLog & { writtenAt: number };

export const emptyChangeLog = (now: number): ChangeLog => ({ from: now, clearedAt: 0, changes: [] });

/** Drops changes older than the window; `from` moves up with them. */
export function pruneChanges(log: ChangeLog, now: number, windowMs: number = CHANGES_WINDOW_MS): ChangeLog {
  const cutoff = now - windowMs;
  if (log.from >= cutoff) return log;
  return {
    from: cutoff,
    clearedAt: log.clearedAt >= cutoff ? log.clearedAt : 0,
    changes: log.changes.filter(([, at]) => at >= cutoff),
  };
}

/** `numbers` changed at `now`. Over `maxChanges`, the log is emptied and `clearedAt` is now. */
export function addChanges(
  log: ChangeLog,
  numbers: readonly string[],
  now: number,
  maxChanges: number = MAX_CHANGES,
): ChangeLog {
  const pruned = pruneChanges(log, now);
  const added = new Set(numbers);
  const changes = pruned.changes.filter(([no]) => !added.has(no));
  for (const no of added) changes.push([no, now]);
  if (changes.length > maxChanges) return { from: pruned.from, clearedAt: now, changes: [] };
  return { from: pruned.from, clearedAt: pruned.clearedAt, changes };
}

/**
 * What an isolate forgets on reading `value`, having applied the value written at `seen` last
 * (null: none yet). `all`: every payload (the log does not reach back far enough, was cleared
 * since, or is gone); else the numbers changed since (with the clock margin).
 */
export function changesSince(
  value: PublishedChanges | null,
  seen: number | null,
): { all: boolean; numbers: [string, number][] } {
  if (value === null) return { all: seen !== null, numbers: [] };
  if (seen === null) return { all: true, numbers: [] };
  if (value.writtenAt === seen) return { all: false, numbers: [] };
  const since = seen - CLOCK_SKEW_MS;
  if (value.from > since || value.clearedAt > since) return { all: true, numbers: [] };
  return { all: false, numbers: value.changes.filter(([, at]) => at > since) };
}

/** Whether a value read from KV is the shape `PublishedChanges` promises. */
export function isPublishedChanges(value: unknown): value is PublishedChanges {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.writtenAt === 'number' &&
    typeof v.from === 'number' &&
    typeof v.clearedAt === 'number' &&
    Array.isArray(v.changes) &&
    v.changes.every(
      (c) => Array.isArray(c) && c.length === 2 && typeof c[0] === 'string' && typeof c[1] === 'number',
    )
  );
}
