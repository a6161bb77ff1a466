/**
 * The per-kind handler registry of deferred jobs. A kind is one `JobKind` object, registered
 * once (see `src/services/jobs/kinds.ts`); the runner, the sweeper, the dead-letter consumer,
 * the health check and the admin routes then handle it with no other change.
 */
import type { Database } from '../../db/client';
import type { jobs } from '../../db/schema';

export type JobRow = typeof jobs.$inferSelect;

/** What a handler gets besides its payload. */
export type JobContext = {
  /**
   * Runs work that must not overlap the same kind of work elsewhere in this queue batch (whose
   * jobs run side by side): an export build holds up to ~26 MB of pages, several at once could
   * exceed the isolate's 128 MB.
   */
  serial: <T>(work: () => Promise<T>) => Promise<T>;
  env: Env;
  db: Database;
  job: JobRow;
  /** The clock of this run (tests move it). */
  now: Date;
  /**
   * Marks a point between two steps of the work. Does nothing in production; fault-injection
   * tests pass a hook that throws here to simulate a crash between steps.
   */
  step: (name: string) => Promise<void>;
};

export type JobKind<P> = {
  kind: string;
  /** Checks a stored payload; null when it is not one this kind understands (the job stalls). */
  parse: (payload: unknown) => P | null;
  /**
   * Does the work. Must be idempotent: it may run twice (a redelivered message, a lease that
   * expired while it was still running) and must resume after a crash at any point. Throw to
   * have it retried; throw `PermanentJobError` when retrying cannot help (the job stalls).
   */
  run: (payload: P, ctx: JobContext) => Promise<void>;
  /**
   * What to keep of the payload once the job is done (default: all of it). A kind that
   * returns something here also has its `subject_id` cleared: erasure keeps only the request id.
   */
  redact?: (payload: P) => Record<string, unknown>;
  /** Seconds after creation (or an administrator's retry) at which the sweeper gives up (default a day). */
  maxAgeSeconds?: number;
};

/** A failure no retry can fix: the job goes straight to `stalled` with this message. */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}

const registry = new Map<string, JobKind<unknown>>();

/** Adds a kind. Registering the same name twice replaces it (tests re-register their kinds). */
export function registerJobKind<P>(kind: JobKind<P>): JobKind<P> {
  // Each kind's `parse` is what produces the payload its `run` receives, so erasing P is safe.
  registry.set(kind.kind, kind as unknown as JobKind<unknown>);
  return kind;
}

export function jobKind(kind: string): JobKind<unknown> | undefined {
  return registry.get(kind);
}

export function registeredKinds(): string[] {
  return [...registry.keys()].sort();
}
