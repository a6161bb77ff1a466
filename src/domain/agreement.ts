/**
 * AI/employer agreement over rating pairs. Pure functions: no bindings, no I/O.
 *
 * A pair is (AI verdict, employer verdict) for one evaluation. The counts are the 2×2
 * contingency table; from it come the raw agreement rate, Cohen's kappa (agreement corrected
 * for chance) and a Wilson score interval for the rate.
 */

export type Verdict = 'pass' | 'fail';

/** Rows are the AI verdict, columns the employer verdict. */
export type PairCounts = {
  passPass: number;
  passFail: number;
  failPass: number;
  failFail: number;
};

export const EMPTY_COUNTS: PairCounts = { passPass: 0, passFail: 0, failPass: 0, failFail: 0 };

/** The public window, in days (seed §8). */
export const AGREEMENT_WINDOW_DAYS = 90;
/**
 * Minimum number of pairs for `sampleAdequate`. At 30 pairs the 95% Wilson interval of a
 * rate near 0.8 is about ±0.14 wide; below that the rate is too noisy to show as a fact.
 */
export const SAMPLE_THRESHOLD = 30;

export type AgreementRate = {
  agreementRate: number;
  total: number;
  agreed: number;
  sampleAdequate: boolean;
  windowDays: number;
  threshold: number;
  updatedAt: string;
  kappa: number | null;
  confidenceInterval: { level: number; lower: number; upper: number } | null;
  demo: boolean;
};

export function addPair(counts: PairCounts, ai: Verdict, employer: Verdict, n = 1): PairCounts {
  const key = `${ai}${employer === 'pass' ? 'Pass' : 'Fail'}` as keyof PairCounts;
  return { ...counts, [key]: counts[key] + n };
}

const round = (x: number, digits = 4) => Math.round(x * 10 ** digits) / 10 ** digits;

/** Wilson score interval for a binomial proportion; stays inside [0, 1] even at 0 or n successes. */
export function wilsonInterval(successes: number, n: number, z = 1.959963984540054) {
  if (n === 0) return null;
  const p = successes / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  // At p = 0 or p = 1 the bound is exactly 0 or 1; snap it rather than report 0.9999999999999999.
  return {
    lower: successes === 0 ? 0 : Math.max(0, centre - half),
    upper: successes === n ? 1 : Math.min(1, centre + half),
  };
}

/**
 * Cohen's kappa for two raters and two categories. Undefined (null) when chance agreement
 * is 1, i.e. both raters used a single and the same category for every pair.
 */
export function cohensKappa(c: PairCounts): number | null {
  const n = c.passPass + c.passFail + c.failPass + c.failFail;
  if (n === 0) return null;
  const observed = (c.passPass + c.failFail) / n;
  const aiPass = (c.passPass + c.passFail) / n;
  const employerPass = (c.passPass + c.failPass) / n;
  const expected = aiPass * employerPass + (1 - aiPass) * (1 - employerPass);
  if (expected === 1) return null;
  return (observed - expected) / (1 - expected);
}

export function agreementOverWindow(
  counts: PairCounts,
  options: { windowDays?: number; threshold?: number; now?: Date } = {},
): AgreementRate {
  const windowDays = options.windowDays ?? AGREEMENT_WINDOW_DAYS;
  const threshold = options.threshold ?? SAMPLE_THRESHOLD;
  const total = counts.passPass + counts.passFail + counts.failPass + counts.failFail;
  const agreed = counts.passPass + counts.failFail;
  const kappa = cohensKappa(counts);
  const interval = wilsonInterval(agreed, total);
  return {
    agreementRate: total === 0 ? 0 : round(agreed / total),
    total,
    agreed,
    sampleAdequate: total >= threshold,
    windowDays,
    threshold,
    updatedAt: (options.now ?? new Date()).toISOString(),
    kappa: kappa === null ? null : round(kappa),
    confidenceInterval: interval && {
      level: 0.95,
      lower: round(interval.lower),
      upper: round(interval.upper),
    },
    demo: false,
  };
}

/**
 * What public surfaces show before any pilot data exists (seed §4.1): a plausible,
 * clearly-marked example computed by the same function from a fixed table.
 */
export function demoAgreement(now = new Date()): AgreementRate {
  const demoCounts: PairCounts = { passPass: 52, passFail: 6, failPass: 5, failFail: 17 };
  return { ...agreementOverWindow(demoCounts, { now }), demo: true };
}
