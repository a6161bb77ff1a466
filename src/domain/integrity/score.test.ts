import { describe, expect, it } from 'vitest';
import { BULK_OTHER_AUTHOR, CANDIDATE_EMAIL, STEADY_HISTORY } from './fixtures/commits';
import { EDITED_COPY, INDEPENDENT_ESSAY, ORIGINAL_ESSAY, TEMPLATED_TEXT } from './fixtures/prose';
import { combineIntegrity, type IntegrityVerdict } from './score';
import { aiContentSignal } from './stylometry';
import { vcsHistorySignal } from './vcs';
import { fingerprintSubmission, plagiarismSignal } from './winnowing';

const severity: Record<IntegrityVerdict, number> = { clean: 0, review: 1, flagged: 2 };
const risks = Array.from({ length: 21 }, (_, i) => i / 20);
const combine = (plagiarism: number, aiContent: number, vcsHistory: number) =>
  combineIntegrity({
    plagiarism: { risk: plagiarism },
    aiContent: { risk: aiContent },
    vcsHistory: { risk: vcsHistory },
  });

describe('combineIntegrity', () => {
  it('gives all-zero risks a clean verdict and a score of 100', () => {
    expect(combine(0, 0, 0)).toEqual({ score: 100, verdict: 'clean' });
  });

  it('flags high plagiarism regardless of the other signals', () => {
    expect(combine(0.6, 0, 0).verdict).toBe('flagged');
    expect(combine(1, 0, 0)).toEqual({ score: 50, verdict: 'flagged' });
  });

  it('never flags on AI content alone, even at risk 1', () => {
    for (const ai of risks) expect(combine(0, ai, 0).verdict).not.toBe('flagged');
    expect(combine(0, 1, 0)).toEqual({ score: 80, verdict: 'clean' });
  });

  it('never lets AI content be what tips a verdict into flagged', () => {
    for (const p of risks) {
      for (const v of risks) {
        const without = combine(p, 0, v).verdict;
        const withAi = combine(p, 1, v).verdict;
        if (without !== 'flagged') expect(withAi).not.toBe('flagged');
      }
    }
  });

  it('lets AI content send work to review only alongside other evidence', () => {
    expect(combine(0, 1, 0).verdict).toBe('clean');
    expect(combine(0, 0, 0.2).verdict).toBe('clean');
    expect(combine(0, 1, 0.2).verdict).toBe('review');
  });

  it('is monotonic in each risk: score never rises, verdict never softens', () => {
    for (const a of risks) {
      for (const b of risks) {
        for (let i = 1; i < risks.length; i++) {
          const lo = risks[i - 1]!;
          const hi = risks[i]!;
          const pairs = [
            [combine(lo, a, b), combine(hi, a, b)],
            [combine(a, lo, b), combine(a, hi, b)],
            [combine(a, b, lo), combine(a, b, hi)],
          ] as const;
          for (const [before, after] of pairs) {
            expect(after.score).toBeLessThanOrEqual(before.score);
            expect(severity[after.verdict]).toBeGreaterThanOrEqual(severity[before.verdict]);
          }
        }
      }
    }
  });

  it('keeps the score an integer in 0..100 and treats broken risks as 0', () => {
    for (const p of risks) {
      const { score } = combine(p, 1 - p, p / 2);
      expect(Number.isInteger(score)).toBe(true);
      expect(score).toBeGreaterThanOrEqual(0);
      expect(score).toBeLessThanOrEqual(100);
    }
    expect(combine(5, 5, 5)).toEqual(combine(1, 1, 1));
    expect(combine(Number.NaN, -1, Number.POSITIVE_INFINITY)).toEqual({ score: 100, verdict: 'clean' });
    expect(combine(1, 1, 1).score).toBe(0);
  });

  it('sends a strong VCS finding to review even with a high score', () => {
    const vcsHistory = { risk: 0.35, evidence: { findings: [{ weight: 0.35 }] } };
    const result = combineIntegrity({ plagiarism: { risk: 0 }, aiContent: { risk: 0 }, vcsHistory });
    expect(result.score).toBeGreaterThanOrEqual(75);
    expect(result.verdict).toBe('review');
  });
});

describe('integrity end to end', () => {
  const corpus = new Map<number, { ref: string; position: number }[]>();
  for (const fp of fingerprintSubmission({ text: ORIGINAL_ESSAY })) {
    corpus.set(fp.hash, [...(corpus.get(fp.hash) ?? []), { ref: 'ref-original', position: fp.position }]);
  }

  const check = (text: string, commits: typeof STEADY_HISTORY) => {
    const plagiarism = plagiarismSignal(fingerprintSubmission({ text }), corpus);
    const aiContent = aiContentSignal(text);
    const vcsHistory = vcsHistorySignal(commits, { candidateEmail: CANDIDATE_EMAIL, workSize: text.length });
    return combineIntegrity({ plagiarism, aiContent, vcsHistory });
  };

  it('clears honest work, reviews generated-looking work with a thin history, flags a copy', () => {
    expect(check(INDEPENDENT_ESSAY, STEADY_HISTORY).verdict).toBe('clean');
    expect(check(TEMPLATED_TEXT, STEADY_HISTORY).verdict).toBe('clean');
    expect(check(TEMPLATED_TEXT, BULK_OTHER_AUTHOR).verdict).toBe('review');
    expect(check(EDITED_COPY, STEADY_HISTORY).verdict).toBe('flagged');
  });

  it('is deterministic', () => {
    expect(check(EDITED_COPY, BULK_OTHER_AUTHOR)).toEqual(check(EDITED_COPY, BULK_OTHER_AUTHOR));
  });
});
