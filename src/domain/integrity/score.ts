/**
 * Combines the three integrity signals into a score and a verdict. Pure functions.
 *
 * score = round(100 × (1 − (0.5·plagiarism + 0.3·vcsHistory + 0.2·aiContent))), each risk
 * clamped to [0, 1] (NaN counts as 0: a broken signal must not condemn anyone). Higher is
 * more trustworthy. Plagiarism weighs most because its evidence is the most direct — the
 * copied spans can be shown; commit history is circumstantial; stylometry is the weakest
 * and misfires on non-native writers, so it weighs least.
 *
 * verdict, first rule that applies:
 *  - `flagged` when plagiarism risk ≥ 0.6 (overlap ≥ 32 %), or when the score computed
 *    *without* the AI-content term is below 50. The AI term is left out of this rule so that
 *    stylometry can never push a submission into `flagged` — not alone, not as the deciding
 *    increment.
 *  - `review` when the score is below 75, plagiarism risk ≥ 0.25 (overlap ≥ 16 %), or the VCS
 *    history has a strong finding (weight ≥ 0.3, e.g. a bulk first commit or another author).
 *  - `clean` otherwise.
 *
 * With the other signals at 0, aiContent risk 1 costs 20 points (score 80): still `clean`.
 * It reaches `review` only alongside other evidence, e.g. vcsHistory risk ≥ 0.2.
 * Score and verdict are non-increasing (resp. non-decreasing in severity) in every risk.
 */

import { STRONG_FINDING_WEIGHT } from './vcs';

export type IntegrityVerdict = 'clean' | 'review' | 'flagged';

export const WEIGHT_PLAGIARISM = 0.5;
export const WEIGHT_VCS = 0.3;
export const WEIGHT_AI = 0.2;
/** Plagiarism risk at or above which a submission is flagged whatever else it shows. */
export const FLAG_PLAGIARISM_RISK = 0.6;
/** Score (without the AI term) below which a submission is flagged. */
export const FLAG_SCORE = 50;
/** Score below which a submission goes to review. */
export const REVIEW_SCORE = 75;
/** Plagiarism risk at or above which a submission goes to review. */
export const REVIEW_PLAGIARISM_RISK = 0.25;

export type IntegritySignals = {
  plagiarism: { risk: number };
  aiContent: { risk: number };
  vcsHistory: { risk: number; evidence?: { findings: readonly { weight: number }[] } };
};

const clampRisk = (x: number) => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);

/**
 * Score 0–100 (integer, higher = more trustworthy) and verdict from the three signals. See
 * the module comment for weights and thresholds; aiContent alone can never yield `flagged`.
 */
export function combineIntegrity(signals: IntegritySignals): { score: number; verdict: IntegrityVerdict } {
  const plagiarism = clampRisk(signals.plagiarism.risk);
  const vcs = clampRisk(signals.vcsHistory.risk);
  const ai = clampRisk(signals.aiContent.risk);
  const withoutAi = WEIGHT_PLAGIARISM * plagiarism + WEIGHT_VCS * vcs;
  // Clamped: floating-point sums of weights can land a hair outside [0, 100] (or on −0).
  const score = Math.max(0, Math.min(100, Math.round(100 * (1 - withoutAi - WEIGHT_AI * ai))));
  const scoreWithoutAi = 100 * (1 - withoutAi);
  const strongVcs = (signals.vcsHistory.evidence?.findings ?? []).some(
    (f) => f.weight >= STRONG_FINDING_WEIGHT,
  );

  let verdict: IntegrityVerdict = 'clean';
  if (plagiarism >= FLAG_PLAGIARISM_RISK || scoreWithoutAi < FLAG_SCORE) verdict = 'flagged';
  else if (score < REVIEW_SCORE || plagiarism >= REVIEW_PLAGIARISM_RISK || strongVcs) verdict = 'review';
  return { score, verdict };
}
