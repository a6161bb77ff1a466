import { describe, expect, it } from 'vitest';
import { DEFAULT_LEASE_SECONDS, leaseSeconds, retryDelaySeconds, sweepBackoffSeconds } from './jobs';

describe('job timing', () => {
  it('reads the lease setting, falling back to the default for anything but a sane whole number', () => {
    expect(leaseSeconds('2')).toBe(2);
    expect(leaseSeconds('300')).toBe(300);
    for (const bad of [undefined, '', '0', '-5', '1.5', 'soon', '86401'])
      expect(leaseSeconds(bad), String(bad)).toBe(DEFAULT_LEASE_SECONDS);
  });

  it('backs the queue off exponentially up to ten minutes', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(retryDelaySeconds)).toEqual([20, 40, 80, 160, 320, 600, 600]);
    expect(retryDelaySeconds(0)).toBe(20);
  });

  it('backs the sweeper off from one lease, doubling, capped at six hours', () => {
    expect([0, 1, 2, 3].map((a) => sweepBackoffSeconds(a, 300))).toEqual([300, 300, 600, 1200]);
    expect(sweepBackoffSeconds(20, 300)).toBe(6 * 60 * 60);
  });
});
