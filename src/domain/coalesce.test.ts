import { describe, expect, it } from 'vitest';
import { INITIAL_COALESCE_STATE, requestWrite, runScheduled, simulateCoalescing } from './coalesce';

describe('KV write coalescing', () => {
  it('writes at once when the last write is a second old, else schedules one trailing write that later changes join', () => {
    let [state, d] = requestWrite(INITIAL_COALESCE_STATE, 10_000);
    expect(d).toEqual({ action: 'write', at: 10_000 });
    [state, d] = requestWrite(state, 10_200);
    expect(d).toEqual({ action: 'schedule', at: 11_000 });
    [state, d] = requestWrite(state, 10_900);
    expect(d).toEqual({ action: 'joined', at: 11_000 });
    const [afterAlarm, ran] = runScheduled(state, 11_000);
    state = afterAlarm;
    expect(ran).toBe(true);
    expect(runScheduled(state, 11_001)[1]).toBe(false);
    [state, d] = requestWrite(state, 11_500);
    expect(d).toEqual({ action: 'schedule', at: 12_000 });
    [, d] = requestWrite({ lastWrite: 11_000, dueAt: null }, 12_000);
    expect(d).toEqual({ action: 'write', at: 12_000 });
  });

  it('1,000 ratings in one minute write a key at most 60 times, none staler than a second', () => {
    const t0 = 1_700_000_000_000;
    const changes = Array.from({ length: 1000 }, (_, i) => t0 + i * 60);
    const { writes, maxStalenessMs } = simulateCoalescing(changes);
    expect(writes.length).toBeLessThanOrEqual(61); // 60 per minute plus the trailing write after the last change
    expect(writes.length).toBeGreaterThanOrEqual(59);
    for (let i = 1; i < writes.length; i++) expect(writes[i]! - writes[i - 1]!).toBeGreaterThanOrEqual(1000);
    expect(maxStalenessMs).toBeLessThanOrEqual(1000);
    // A burst of 1,000 in the same millisecond: one write now, one trailing write.
    expect(simulateCoalescing(Array.from({ length: 1000 }, () => t0)).writes).toEqual([t0, t0 + 1000]);
    // Slow changes are each written at once.
    const slow = simulateCoalescing([t0, t0 + 5000, t0 + 9000]);
    expect(slow).toEqual({ writes: [t0, t0 + 5000, t0 + 9000], maxStalenessMs: 0 });
  });
});
