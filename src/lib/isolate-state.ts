/**
 * What a module keeps in the isolate's memory between requests (caches, limiter memory, memoised
 * checks), in one registry, so that it can all be forgotten at once.
 *
 * Production never forgets: an isolate's memory lives until the runtime evicts it, and every entry
 * kept here is bounded and correct for its own lifetime. The test suite runs many files in one
 * isolate (vitest.config.ts, `isolate: false`) and starts each file on empty storage
 * (test/storage-reset.ts); it calls `forgetIsolateState()` with it, so no file sees another's
 * memory. Durable Objects (which share the isolate in tests) compare `isolateEpoch()` with the
 * epoch they were last used in and empty themselves when it moved (src/durable/).
 */
const forgetters = new Set<() => void>();
let epoch = 0;

/** Registers how to forget a module's memory; returns the function it was given. */
export function onForgetIsolateState(forget: () => void): () => void {
  forgetters.add(forget);
  return forget;
}

/** Forgets everything registered, and moves the epoch (tests only: see above). */
export function forgetIsolateState(): void {
  epoch += 1;
  for (const forget of forgetters) forget();
}

/** How many times the isolate's memory was forgotten: 0 for an isolate's whole life in production. */
export function isolateEpoch(): number {
  return epoch;
}
