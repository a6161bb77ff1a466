import { describe, expect, it } from 'vitest';
import { agreementOverWindow, cohensKappa, demoAgreement, EMPTY_COUNTS, wilsonInterval } from './agreement';

describe("Cohen's kappa", () => {
  it('matches a hand-computed table', () => {
    // AI pass/employer pass 20, pass/fail 5, fail/pass 10, fail/fail 15 (n = 50)
    // po = 35/50 = 0.7; AI pass 25/50, employer pass 30/50
    // pe = 0.5·0.6 + 0.5·0.4 = 0.5; kappa = (0.7 − 0.5)/(1 − 0.5) = 0.4
    expect(cohensKappa({ passPass: 20, passFail: 5, failPass: 10, failFail: 15 })).toBeCloseTo(0.4, 10);
  });

  it('is 1 for perfect agreement across both categories and negative for systematic disagreement', () => {
    expect(cohensKappa({ passPass: 7, passFail: 0, failPass: 0, failFail: 3 })).toBeCloseTo(1, 10);
    // po = 0, pe = 0.5·0.5·2 = 0.5 → kappa = −1
    expect(cohensKappa({ passPass: 0, passFail: 5, failPass: 5, failFail: 0 })).toBeCloseTo(-1, 10);
  });

  it('is undefined (null) when all pairs agree on one category, and with no pairs', () => {
    expect(cohensKappa({ passPass: 12, passFail: 0, failPass: 0, failFail: 0 })).toBeNull();
    expect(cohensKappa(EMPTY_COUNTS)).toBeNull();
  });
});

describe('Wilson score interval (95%)', () => {
  it('matches hand-computed bounds', () => {
    // p = 0.7, n = 50, z² = 3.841459: centre = (0.7 + z²/100)/(1 + z²/50) = 0.738415/1.076829 = 0.685730
    // half = z·sqrt(0.21/50 + z²/10000)/(1 + z²/50) = 1.959964·0.067705/1.076829 = 0.123233 → [0.5625, 0.8090]
    const ci = wilsonInterval(35, 50)!;
    expect(ci.lower).toBeCloseTo(0.5625, 4);
    expect(ci.upper).toBeCloseTo(0.809, 4);
  });

  it('stays inside [0, 1] at the extremes: all agree and none agree', () => {
    const all = wilsonInterval(10, 10)!;
    expect(all.upper).toBe(1);
    expect(all.lower).toBeCloseTo(0.7225, 3); // n/(n+z²) = 10/13.8415
    const none = wilsonInterval(0, 10)!;
    expect(none.lower).toBe(0);
    expect(none.upper).toBeCloseTo(0.2775, 3);
  });

  it('is null with no pairs', () => {
    expect(wilsonInterval(0, 0)).toBeNull();
  });
});

describe('agreementOverWindow', () => {
  it('reports the rate, counts, adequacy and the extra statistics', () => {
    const now = new Date('2026-11-21T00:00:00Z');
    const rate = agreementOverWindow({ passPass: 20, passFail: 5, failPass: 10, failFail: 15 }, { now });
    expect(rate).toMatchObject({
      agreementRate: 0.7,
      total: 50,
      agreed: 35,
      sampleAdequate: true,
      windowDays: 90,
      threshold: 30,
      updatedAt: '2026-11-21T00:00:00.000Z',
      kappa: 0.4,
      demo: false,
    });
    expect(rate.confidenceInterval).toEqual({ level: 0.95, lower: 0.5625, upper: 0.809 });
  });

  it('handles no pairs without dividing by zero', () => {
    expect(agreementOverWindow(EMPTY_COUNTS)).toMatchObject({
      agreementRate: 0,
      total: 0,
      agreed: 0,
      sampleAdequate: false,
      kappa: null,
      confidenceInterval: null,
    });
  });

  it('is inadequate below the threshold and adequate at it', () => {
    expect(agreementOverWindow({ passPass: 29, passFail: 0, failPass: 0, failFail: 0 }).sampleAdequate).toBe(
      false,
    );
    expect(agreementOverWindow({ passPass: 30, passFail: 0, failPass: 0, failFail: 0 }).sampleAdequate).toBe(
      true,
    );
  });

  it('marks the demonstration payload and keeps it internally consistent', () => {
    const demo = demoAgreement();
    expect(demo.demo).toBe(true);
    expect(demo.agreementRate).toBeCloseTo(demo.agreed / demo.total, 4);
  });
});
