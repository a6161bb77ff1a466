import { describe, expect, it } from 'vitest';
import { ADMIT_AHEAD, IpAdmission } from './ip-admission';

const LIMIT = 60;
const WINDOW = 60_000;

describe('IpAdmission: the isolate side of the per-IP limit', () => {
  it('admits a new address by itself, with the headers a first request gets, and queues the hit for the report', () => {
    const a = new IpAdmission();
    const t0 = 1_000_000;
    expect(a.tryAdmit('198.51.100.1', LIMIT, WINDOW, t0)).toEqual({
      allowed: true,
      limit: 60,
      remaining: 59,
      resetSeconds: 60,
      retryAfterMs: 0,
    });
    const second = a.tryAdmit('198.51.100.1', LIMIT, WINDOW, t0 + 15_000);
    expect(second).toMatchObject({ remaining: 58, resetSeconds: 45 });
    expect(a.hasUnreported).toBe(true);
    expect(a.drain()).toEqual([['198.51.100.1', [t0, t0 + 15_000]]]);
    expect(a.hasUnreported).toBe(false);
  });

  it(`asks the shard once ${ADMIT_AHEAD} hits of one address are unreported, and once the count is within ${ADMIT_AHEAD} of the limit`, () => {
    const a = new IpAdmission();
    const t0 = 1_000_000;
    for (let i = 0; i < ADMIT_AHEAD; i++) expect(a.tryAdmit('ip', LIMIT, WINDOW, t0 + i)).not.toBeNull();
    expect(a.tryAdmit('ip', LIMIT, WINDOW, t0 + 20)).toBeNull();
    // The exact call carries the unreported hits; its own request is in flight meanwhile.
    const sent = a.takePending('ip', t0 + 20);
    expect(sent).toHaveLength(ADMIT_AHEAD);
    // While the call is out, what it carries still counts: 11 of 60.
    expect(a.tryAdmit('ip', LIMIT, WINDOW, t0 + 21)?.remaining).toBe(60 - 12);
    // The shard answers with a log of 49 (other isolates' hits included): 49 + the 1 pending = 50.
    const log = Array.from({ length: 49 }, (_, i) => t0 + i);
    a.settle('ip', sent, log, t0 + 20);
    expect(a.tryAdmit('ip', LIMIT, WINDOW, t0 + 22)).toBeNull();
  });

  it('forgets hits that left the window, so the address is admitted here again', () => {
    const a = new IpAdmission();
    const t0 = 1_000_000;
    const sent = a.takePending('ip', t0);
    a.settle(
      'ip',
      sent,
      Array.from({ length: 60 }, (_, i) => t0 - 59_000 + i * 10),
      t0,
    );
    expect(a.tryAdmit('ip', LIMIT, WINDOW, t0 + 1_000)).toBeNull();
    const later = a.tryAdmit('ip', LIMIT, WINDOW, t0 + 60_000);
    expect(later).toMatchObject({ allowed: true, remaining: 59 });
  });

  it('puts the hits of a failed call back for the next one', () => {
    const a = new IpAdmission();
    a.tryAdmit('ip', LIMIT, WINDOW, 1);
    a.tryAdmit('ip', LIMIT, WINDOW, 2);
    const report = a.drain();
    expect(report).toEqual([['ip', [1, 2]]]);
    a.settle('ip', report[0]![1], null);
    expect(a.drain()).toEqual([['ip', [1, 2]]]);
  });

  it('bounds its memory by forgetting idle addresses, never one with unreported hits', () => {
    const a = new IpAdmission(4);
    for (const ip of ['a', 'b', 'c', 'd']) a.tryAdmit(ip, LIMIT, WINDOW, 1);
    a.tryAdmit('e', LIMIT, WINDOW, 2);
    expect(a.size).toBe(5); // all four still owe a report
    const report = a.drain();
    for (const [ip, hits] of report) a.settle(ip, hits, hits);
    a.tryAdmit('f', LIMIT, WINDOW, 3);
    expect(a.size).toBe(4);
  });
});
