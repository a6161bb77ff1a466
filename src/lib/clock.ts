import { onForgetIsolateState } from './isolate-state';

/**
 * The service's clock for rules that depend on the calendar at request time (a child's age).
 * Production reads the system time; tests move it (`clock.now = () => new Date(...)`, then
 * `resetClock()`), and the Worker sees the same module in the test isolate.
 */
export const clock = { now: (): Date => new Date() };

export const resetClock = onForgetIsolateState((): void => {
  clock.now = () => new Date();
});
