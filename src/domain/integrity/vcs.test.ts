import { describe, expect, it } from 'vitest';
import {
  BRIEF_CREATED_AT,
  BULK_OTHER_AUTHOR,
  CANDIDATE_EMAIL,
  DEADLINE,
  LAST_MINUTE,
  PREDATES_BRIEF,
  STEADY_HISTORY,
} from './fixtures/commits';
import { type CommitRecord, STRONG_FINDING_WEIGHT, type VcsContext, vcsHistorySignal, WEIGHTS } from './vcs';

const context: VcsContext = {
  candidateEmail: CANDIDATE_EMAIL,
  briefCreatedAt: BRIEF_CREATED_AT,
  deadline: DEADLINE,
};
const codes = (commits: readonly CommitRecord[], ctx = context) =>
  vcsHistorySignal(commits, ctx).evidence.findings.map((f) => f.code);

describe('vcsHistorySignal', () => {
  it('gives a steady history by the candidate over several days a low risk', () => {
    const signal = vcsHistorySignal(STEADY_HISTORY, { ...context, workSize: 9000 });
    expect(signal.risk).toBeLessThanOrEqual(0.1);
    expect(signal.evidence.findings).toEqual([]);
    expect(signal.evidence.commitCount).toBe(STEADY_HISTORY.length);
  });

  it('does not depend on the order commits are given in', () => {
    const reversed = [...STEADY_HISTORY].reverse();
    expect(vcsHistorySignal(reversed, context)).toEqual(vcsHistorySignal(STEADY_HISTORY, context));
    expect(vcsHistorySignal([...BULK_OTHER_AUTHOR].reverse(), context)).toEqual(
      vcsHistorySignal(BULK_OTHER_AUTHOR, context),
    );
  });

  it('gives one bulk commit by another author a high risk', () => {
    const signal = vcsHistorySignal(BULK_OTHER_AUTHOR, { ...context, workSize: 40_000 });
    expect(signal.risk).toBeGreaterThanOrEqual(0.8);
    const found = signal.evidence.findings.map((f) => f.code);
    expect(found).toContain('bulk_first_commit');
    expect(found).toContain('author_mismatch');
    expect(found).toContain('too_few_commits');
    expect(signal.evidence.findings.some((f) => f.weight >= STRONG_FINDING_WEIGHT)).toBe(true);
    // Details never echo e-mail addresses.
    expect(JSON.stringify(signal.evidence)).not.toContain('@');
  });

  it('matches the candidate e-mail case-insensitively and accepts several addresses', () => {
    expect(
      codes(STEADY_HISTORY, { ...context, candidateEmail: '  ADA.CANDIDATE@EXAMPLE.ORG ' }),
    ).not.toContain('author_mismatch');
    const twoAddresses = STEADY_HISTORY.map((c, i) =>
      i % 2 === 0 ? c : { ...c, authorEmail: '1234+ada@users.noreply.github.com' },
    );
    expect(codes(twoAddresses)).toContain('author_mismatch');
    expect(
      codes(twoAddresses, {
        ...context,
        candidateEmail: ['ada.candidate@example.org', '1234+ada@users.noreply.github.com'],
      }),
    ).not.toContain('author_mismatch');
  });

  it('weights author mismatch by the share of lines written by others', () => {
    const one = STEADY_HISTORY.map((c, i) => (i === 7 ? { ...c, authorEmail: 'pal@example.com' } : c));
    const most = STEADY_HISTORY.map((c, i) => (i > 0 ? { ...c, authorEmail: 'pal@example.com' } : c));
    const weight = (commits: CommitRecord[]) =>
      vcsHistorySignal(commits, context).evidence.findings.find((f) => f.code === 'author_mismatch')!.weight;
    expect(weight(one)).toBeLessThan(weight(most));
    expect(weight(one)).toBeGreaterThanOrEqual(WEIGHTS.authorMismatchBase);
  });

  it('notes several authors when no candidate e-mail is known', () => {
    expect(codes(BULK_OTHER_AUTHOR, { ...context, candidateEmail: undefined })).toContain('multiple_authors');
  });

  it('finds commits authored before the brief existed', () => {
    const signal = vcsHistorySignal(PREDATES_BRIEF, context);
    const finding = signal.evidence.findings.find((f) => f.code === 'predates_brief');
    expect(finding).toBeDefined();
    expect(finding!.detail).toMatch(/^3 commits/);
    expect(finding!.weight).toBeGreaterThanOrEqual(STRONG_FINDING_WEIGHT);
    // Within the hour of clock-skew tolerance, nothing predates.
    const skewed = [
      { ...STEADY_HISTORY[0]!, authoredAt: '2025-03-03T08:30:00Z' },
      ...STEADY_HISTORY.slice(1),
    ];
    expect(codes(skewed)).not.toContain('predates_brief');
  });

  it('finds a last-minute burst before the deadline', () => {
    expect(codes(LAST_MINUTE)).toContain('last_minute_burst');
    expect(codes(LAST_MINUTE)).toContain('largest_jump');
    // Without a deadline the window ends at the last commit.
    expect(codes(LAST_MINUTE, { ...context, deadline: undefined })).toContain('last_minute_burst');
    expect(codes(STEADY_HISTORY)).not.toContain('last_minute_burst');
  });

  it('does not call work after the deadline a burst before it', () => {
    const late: CommitRecord[] = [
      {
        sha: 'late0001',
        authorEmail: CANDIDATE_EMAIL,
        authoredAt: new Date(DEADLINE.getTime() + 40 * 3600_000).toISOString(),
        message: 'late',
        additions: 50,
        deletions: 0,
      },
    ];
    const found = codes(late);
    expect(found).toContain('after_deadline');
    expect(found).not.toContain('last_minute_burst');
    // One hour before the deadline it is a burst, and not late.
    const early = [{ ...late[0]!, authoredAt: new Date(DEADLINE.getTime() - 3600_000).toISOString() }];
    expect(codes(early)).toContain('last_minute_burst');
    expect(codes(early)).not.toContain('after_deadline');
  });

  it('treats an empty history as moderate uncertainty, not high risk', () => {
    const signal = vcsHistorySignal([], context);
    expect(signal.evidence.findings.map((f) => f.code)).toEqual(['no_history']);
    expect(signal.evidence.commitCount).toBe(0);
    expect(signal.risk).toBeGreaterThan(0);
    expect(signal.risk).toBeLessThan(0.5);
    expect(signal.evidence.findings[0]!.weight).toBeLessThanOrEqual(STRONG_FINDING_WEIGHT);
  });

  it('tolerates invalid dates, odd numbers and duplicate SHAs', () => {
    const messy: CommitRecord[] = [
      ...STEADY_HISTORY,
      { ...STEADY_HISTORY[2]!, sha: 'x1', authoredAt: 'last Tuesday' },
      { ...STEADY_HISTORY[3]!, sha: 'x2', authoredAt: '', additions: Number.NaN, deletions: -4 },
      STEADY_HISTORY[0]!,
    ];
    const signal = vcsHistorySignal(messy, {
      ...context,
      briefCreatedAt: new Date('not a date'),
      deadline: new Date(Number.NaN),
    });
    expect(signal.evidence.commitCount).toBe(STEADY_HISTORY.length + 2);
    expect(signal.evidence.findings.map((f) => f.code)).toEqual(['invalid_dates']);
    expect(Number.isFinite(signal.risk)).toBe(true);
    // Nothing parseable at all still yields a signal.
    const undated = vcsHistorySignal([{ ...STEADY_HISTORY[0]!, authoredAt: 'nope' }], context);
    expect(Number.isFinite(undated.risk)).toBe(true);
  });

  it('flags few commits for a large body of work', () => {
    const single = [STEADY_HISTORY[3]!];
    expect(codes(single, { ...context, workSize: 20_000 })).toContain('too_few_commits');
    expect(codes(single, { ...context, workSize: 2_000 })).not.toContain('too_few_commits');
  });

  it('sums finding weights and caps the risk at 1', () => {
    const worst = BULK_OTHER_AUTHOR.map((c) => ({ ...c, authoredAt: '2025-01-01T00:00:00Z' }));
    const signal = vcsHistorySignal(worst, { ...context, workSize: 50_000 });
    const sum = signal.evidence.findings.reduce((a, f) => a + f.weight, 0);
    expect(sum).toBeGreaterThan(1);
    expect(signal.risk).toBe(1);
  });

  it('is deterministic', () => {
    expect(vcsHistorySignal(LAST_MINUTE, context)).toEqual(vcsHistorySignal(LAST_MINUTE, context));
  });
});
