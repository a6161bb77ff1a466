import { describe, expect, it } from 'vitest';
import {
  AFTER_DEADLINE,
  BRIEF_CREATED_AT,
  CANDIDATE_EMAIL,
  DEADLINE,
  EVENLY_SPACED,
  OTHER_AUTHOR_BULK_AT_DEADLINE,
  OUT_OF_ORDER_NEWEST_FIRST,
  STEADY_HISTORY,
} from './fixtures/commits';
import { combineIntegrity } from './score';
import { STRONG_FINDING_WEIGHT, type VcsContext, vcsHistorySignal } from './vcs';

const context: VcsContext = {
  candidateEmail: CANDIDATE_EMAIL,
  briefCreatedAt: BRIEF_CREATED_AT,
  deadline: DEADLINE,
  checkedAt: new Date('2025-03-20T00:00:00Z'),
};
const finding = (signal: ReturnType<typeof vcsHistorySignal>, code: string) =>
  signal.evidence.findings.find((f) => f.code === code);
const verdictOf = (signal: ReturnType<typeof vcsHistorySignal>) =>
  combineIntegrity({ plagiarism: { risk: 0 }, aiContent: { risk: 0 }, vcsHistory: signal }).verdict;

describe('history checks that know the deadline and the candidate', () => {
  it('keeps a steady history by the candidate, listed either way round, clean', () => {
    for (const history of [STEADY_HISTORY, [...STEADY_HISTORY].reverse()]) {
      const signal = vcsHistorySignal(history, context);
      expect(signal.evidence.findings).toEqual([]);
      expect(verdictOf(signal)).toBe('clean');
    }
  });

  it('reports commits after the deadline, with how late and how much', () => {
    const signal = vcsHistorySignal(AFTER_DEADLINE, context);
    const late = finding(signal, 'after_deadline');
    expect(late?.weight).toBeGreaterThanOrEqual(STRONG_FINDING_WEIGHT);
    expect(late?.detail).toMatch(
      /1 commit .*authored after the deadline 2025-03-10T17:00:00.000Z, the latest 40 h late/,
    );
    expect(verdictOf(signal)).toBe('review');
    // The same history without a deadline has nothing to say about lateness.
    expect(
      finding(vcsHistorySignal(AFTER_DEADLINE, { ...context, deadline: undefined }), 'after_deadline'),
    ).toBe(undefined);
  });

  it('reports a bulk commit by someone else minutes before the deadline as strong evidence', () => {
    const signal = vcsHistorySignal(OTHER_AUTHOR_BULK_AT_DEADLINE, context);
    const bulk = finding(signal, 'other_author_bulk_near_deadline');
    // Evidence names no one: details never echo e-mail addresses.
    expect(bulk?.detail).not.toContain('friend@elsewhere.example');
    expect(bulk?.detail).toContain('an author other than the candidate');
    expect(bulk?.detail).toContain('12 min before the deadline');
    expect(finding(signal, 'author_mismatch')).toBeDefined();
    expect(signal.risk).toBeGreaterThanOrEqual(0.8);
    expect(verdictOf(signal)).toBe('review');
  });

  it('needs the candidate identity to tell another author apart', () => {
    const anonymous = vcsHistorySignal(OTHER_AUTHOR_BULK_AT_DEADLINE, {
      ...context,
      candidateEmail: undefined,
    });
    expect(finding(anonymous, 'other_author_bulk_near_deadline')).toBeUndefined();
    expect(finding(anonymous, 'multiple_authors')).toBeDefined();
  });

  it('reports dates that run against the order of the history', () => {
    const signal = vcsHistorySignal(OUT_OF_ORDER_NEWEST_FIRST, context);
    expect(finding(signal, 'out_of_order_dates')?.detail).toMatch(
      /newest first, but 1 step goes back in time by up to 49 h/,
    );
    expect(verdictOf(signal)).toBe('review');
  });

  it('reports commits spaced exactly alike and shared timestamps as rewritten dates', () => {
    expect(finding(vcsHistorySignal(EVENLY_SPACED, context), 'rewritten_dates')?.detail).toMatch(
      /exactly 24 h apart/,
    );
    const sameSecond = EVENLY_SPACED.map((c) => ({ ...c, authoredAt: '2025-03-05T10:00:00Z' }));
    expect(finding(vcsHistorySignal(sameSecond, context), 'rewritten_dates')?.detail).toMatch(
      /4 commits carry the same/,
    );
  });

  it('reports commits dated after the check itself', () => {
    const signal = vcsHistorySignal(STEADY_HISTORY, {
      ...context,
      checkedAt: new Date('2025-03-08T00:00:00Z'),
    });
    expect(finding(signal, 'future_dates')?.detail).toMatch(/dated after this check ran/);
  });
});
