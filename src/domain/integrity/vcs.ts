/**
 * Version-control history signal. Pure functions: no bindings, no I/O.
 *
 * Work done by the candidate over the time allowed usually leaves a history of several
 * commits of varied size by one author, after the brief existed. Each pattern below departs
 * from that; each has innocent explanations too (a scaffold generator, squashed commits, a
 * work laptop's e-mail address), which is why findings are weighted evidence for a reviewer
 * rather than conclusions.
 *
 * Lines of a commit = additions + deletions. Commits are ordered by authoredAt (commits with
 * an unparseable date are kept, after the dated ones, and excluded from time-based checks).
 * Shape checks (bulk_first_commit, largest_jump) need at least MIN_LINES_FOR_SHAPE lines in
 * total, because the shape of a 20-line history means nothing.
 *
 * | code                | when                                                          | weight                  |
 * |---------------------|---------------------------------------------------------------|-------------------------|
 * | no_history          | no commits at all: uncertainty, not evidence                  | 0.30                    |
 * | bulk_first_commit   | first commit holds ≥ 70 % of all additions                    | 0.35                    |
 * | largest_jump        | a later commit holds ≥ 50 % of lines, ≥ 3 commits             | 0.20                    |
 * | last_minute_burst   | ≥ 60 % of lines in the 3 h before the deadline or last commit | 0.20                    |
 * | author_mismatch     | commits by an e-mail that is not the candidate's              | 0.15 + 0.45 × line share|
 * | predates_brief      | commits authored > 1 h before the brief was created           | 0.20 + 0.30 × line share|
 * | too_few_commits     | < 3 commits and > 6 000 chars (or > 300 lines) per commit     | 0.15                    |
 * | invalid_dates       | some authoredAt values do not parse                           | 0.10                    |
 * | multiple_authors    | no candidate e-mail given and > 1 distinct author             | 0.10                    |
 * | after_deadline      | commits authored > 10 min after `dueAt`                       | 0.30 + 0.40 × line share|
 * | other_author_bulk_near_deadline | one commit by another author, ≥ 40 % of lines, in the 6 h before `dueAt` (or the last commit) | 0.45 |
 * | out_of_order_dates  | ≥ 70 % of steps in the supplied order run one way, others jump back > 1 h | 0.30        |
 * | rewritten_dates     | ≥ 3 commits share one timestamp, or ≥ 4 are spaced exactly alike | 0.30                 |
 * | future_dates        | commits authored > 10 min after the check (`checkedAt`)       | 0.30                    |
 *
 * Risk = the sum of finding weights, capped at 1: findings are separate pieces of evidence
 * and add up, and two strong ones (someone else's bulk commit) are enough to reach ~1.
 * Findings of weight ≥ STRONG_FINDING_WEIGHT (0.3) are "strong": on their own they send a
 * submission to review (see score.ts).
 */

/** A commit as the integrity check receives it. */
export type CommitRecord = {
  sha: string;
  authorEmail: string;
  /** ISO 8601 timestamp; unparseable values are tolerated and reported. */
  authoredAt: string;
  message: string;
  additions: number;
  deletions: number;
};

export type VcsContext = {
  /** The candidate's e-mail, or several (e.g. personal and noreply); compared case-insensitively. */
  candidateEmail?: string | readonly string[];
  briefCreatedAt?: Date;
  /** The deadline (the API's `dueAt`; a submission's own time when checked on the platform). */
  deadline?: Date;
  /** When the check runs; commits dated later than this are impossible without rewritten dates. */
  checkedAt?: Date;
  /** Characters of submitted text and files. */
  workSize?: number;
};

export type VcsFinding = { code: string; detail: string; weight: number };

export type VcsHistorySignal = {
  risk: number;
  evidence: { findings: VcsFinding[]; commitCount: number };
};

/** Findings at or above this weight are strong enough to send a submission to review alone. */
export const STRONG_FINDING_WEIGHT = 0.3;
/** Total lines below which the shape of a history is not judged. */
export const MIN_LINES_FOR_SHAPE = 50;
export const BULK_FIRST_SHARE = 0.7;
export const LARGEST_JUMP_SHARE = 0.5;
export const BURST_WINDOW_HOURS = 3;
export const BURST_SHARE = 0.6;
/** Tolerated clock skew before a commit counts as predating the brief. */
export const PREDATE_TOLERANCE_MS = 60 * 60 * 1000;
export const FEW_COMMITS = 3;
export const MAX_CHARS_PER_COMMIT = 6000;
export const MAX_LINES_PER_COMMIT = 300;

export const WEIGHTS = {
  noHistory: 0.3,
  bulkFirstCommit: 0.35,
  largestJump: 0.2,
  lastMinuteBurst: 0.2,
  authorMismatchBase: 0.15,
  authorMismatchPerShare: 0.45,
  predatesBriefBase: 0.2,
  predatesBriefPerShare: 0.3,
  tooFewCommits: 0.15,
  invalidDates: 0.1,
  multipleAuthors: 0.1,
  afterDeadlineBase: 0.3,
  afterDeadlinePerShare: 0.4,
  otherAuthorBulkNearDeadline: 0.45,
  outOfOrderDates: 0.3,
  rewrittenDates: 0.3,
  futureDates: 0.3,
} as const;

/** Clock skew and time-zone slips tolerated around the deadline and the check. */
export const DEADLINE_TOLERANCE_MS = 10 * 60 * 1000;
/** How close to the deadline another author's bulk commit has to be to count as hand-in help. */
export const NEAR_DEADLINE_HOURS = 6;
export const OTHER_AUTHOR_BULK_SHARE = 0.4;
/** A backwards step in the supplied order larger than this is not clock skew. */
export const OUT_OF_ORDER_TOLERANCE_MS = 60 * 60 * 1000;

const HOUR_MS = 60 * 60 * 1000;

type Commit = { email: string; at: number | null; additions: number; deletions: number; lines: number };

const count = (x: number) => (Number.isFinite(x) && x > 0 ? Math.floor(x) : 0);
const validTime = (d: Date | undefined) => (d && Number.isFinite(d.getTime()) ? d.getTime() : null);
const percent = (x: number) => `${Math.round(x * 100)}%`;
const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

function parseTime(iso: string): number | null {
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : null;
}

/**
 * The VCS-history signal of a submission's commits. `commits` may be in any order; duplicate
 * SHAs count once. See the module comment for findings, thresholds and weights.
 */
export function vcsHistorySignal(
  commits: readonly CommitRecord[],
  context: VcsContext = {},
): VcsHistorySignal {
  const seen = new Set<string>();
  const unique = commits.filter((c) => {
    if (c.sha && seen.has(c.sha)) return false;
    seen.add(c.sha);
    return true;
  });
  if (unique.length === 0) {
    return {
      risk: WEIGHTS.noHistory,
      evidence: {
        findings: [
          {
            code: 'no_history',
            detail: 'No commits were supplied, so the history cannot support or contradict the work.',
            weight: WEIGHTS.noHistory,
          },
        ],
        commitCount: 0,
      },
    };
  }

  const parsed: Commit[] = unique.map((c) => {
    const additions = count(c.additions);
    const deletions = count(c.deletions);
    return {
      email: (c.authorEmail ?? '').trim().toLowerCase(),
      at: parseTime(c.authoredAt),
      additions,
      deletions,
      lines: additions + deletions,
    };
  });
  // Stable: dated commits by time, then undated ones in the order given.
  const ordered = parsed
    .map((c, index) => ({ c, index }))
    .sort((a, b) => {
      if (a.c.at === null || b.c.at === null) return (a.c.at === null ? 1 : 0) - (b.c.at === null ? 1 : 0);
      return a.c.at - b.c.at || a.index - b.index;
    })
    .map(({ c }) => c);
  const dated = ordered.filter((c): c is Commit & { at: number } => c.at !== null);
  const totalLines = ordered.reduce((a, c) => a + c.lines, 0);
  const totalAdditions = ordered.reduce((a, c) => a + c.additions, 0);
  const lineShare = (subset: readonly Commit[]) =>
    totalLines > 0 ? subset.reduce((a, c) => a + c.lines, 0) / totalLines : subset.length / ordered.length;
  const findings: VcsFinding[] = [];
  const find = (code: string, detail: string, weight: number) =>
    findings.push({ code, detail, weight: round4(weight) });

  const invalid = ordered.length - dated.length;
  if (invalid > 0) {
    find(
      'invalid_dates',
      `${invalid} of ${ordered.length} commits have an unreadable date; they are left out of time-based checks.`,
      WEIGHTS.invalidDates,
    );
  }

  const first = ordered[0]!;
  if (totalLines >= MIN_LINES_FOR_SHAPE && totalAdditions > 0) {
    const share = first.additions / totalAdditions;
    if (share >= BULK_FIRST_SHARE) {
      find(
        'bulk_first_commit',
        `The first commit adds ${percent(share)} of all added lines (${first.additions} of ${totalAdditions}).`,
        WEIGHTS.bulkFirstCommit,
      );
    }
  }

  if (totalLines >= MIN_LINES_FOR_SHAPE && ordered.length >= 3) {
    let jump = ordered[1]!;
    for (const c of ordered.slice(2)) if (c.lines > jump.lines) jump = c;
    const share = jump.lines / totalLines;
    if (share >= LARGEST_JUMP_SHARE) {
      find(
        'largest_jump',
        `One later commit carries ${percent(share)} of all changed lines (${jump.lines} of ${totalLines}).`,
        WEIGHTS.largestJump,
      );
    }
  }

  const lastDated = dated.at(-1);
  const deadline = validTime(context.deadline);
  const end = deadline ?? lastDated?.at ?? null;
  if (end !== null && dated.length > 0 && totalLines > 0) {
    const windowStart = end - BURST_WINDOW_HOURS * HOUR_MS;
    // Without a deadline, a history that fits inside the window is short, not a burst.
    const spansWindow = deadline !== null || dated[0]!.at < windowStart;
    // Only what lands inside the window: work after the deadline is `after_deadline`, not a burst before it.
    const burst = dated.filter((c) => c.at >= windowStart && c.at <= end + DEADLINE_TOLERANCE_MS);
    const share = lineShare(burst);
    if (spansWindow && share >= BURST_SHARE) {
      const anchor = deadline !== null ? 'the deadline' : 'the last commit';
      find(
        'last_minute_burst',
        `${percent(share)} of changed lines were committed in the ${BURST_WINDOW_HOURS} hours before ${anchor}.`,
        WEIGHTS.lastMinuteBurst,
      );
    }
  }

  const candidate = [context.candidateEmail ?? []]
    .flat()
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e.length > 0);
  const authors = new Set(ordered.map((c) => c.email));
  if (candidate.length > 0) {
    const others = ordered.filter((c) => !candidate.includes(c.email));
    if (others.length > 0) {
      const share = lineShare(others);
      const otherAuthors = new Set(others.map((c) => c.email)).size;
      find(
        'author_mismatch',
        `${others.length} of ${ordered.length} commits (${percent(share)} of changed lines) are by ${otherAuthors} author${otherAuthors === 1 ? '' : 's'} other than the candidate.`,
        WEIGHTS.authorMismatchBase + WEIGHTS.authorMismatchPerShare * share,
      );
    }
  } else if (authors.size > 1) {
    find(
      'multiple_authors',
      `${authors.size} distinct author e-mails and no candidate e-mail to compare them with.`,
      WEIGHTS.multipleAuthors,
    );
  }

  const briefAt = validTime(context.briefCreatedAt);
  if (briefAt !== null) {
    const early = dated.filter((c) => c.at < briefAt - PREDATE_TOLERANCE_MS);
    if (early.length > 0) {
      const share = lineShare(early);
      find(
        'predates_brief',
        `${early.length} commits (${percent(share)} of changed lines) were authored before the brief was created.`,
        WEIGHTS.predatesBriefBase + WEIGHTS.predatesBriefPerShare * share,
      );
    }
  }

  if (ordered.length < FEW_COMMITS) {
    const workSize = context.workSize !== undefined ? count(context.workSize) : null;
    const perCommit = (workSize ?? totalLines) / ordered.length;
    const limit = workSize !== null ? MAX_CHARS_PER_COMMIT : MAX_LINES_PER_COMMIT;
    if (perCommit > limit) {
      const unit = workSize !== null ? 'characters' : 'lines';
      find(
        'too_few_commits',
        `${ordered.length} commit${ordered.length === 1 ? '' : 's'} for ${workSize ?? totalLines} ${unit} of work.`,
        WEIGHTS.tooFewCommits,
      );
    }
  }

  const due = validTime(context.deadline);
  const candidateSet = new Set(candidate);
  if (due !== null) {
    const late = dated.filter((c) => c.at > due + DEADLINE_TOLERANCE_MS);
    if (late.length > 0) {
      const share = lineShare(late);
      const latest = Math.max(...late.map((c) => c.at));
      find(
        'after_deadline',
        `${late.length} commit${late.length === 1 ? '' : 's'} (${percent(share)} of changed lines) authored after the deadline ${new Date(due).toISOString()}, the latest ${hoursText(latest - due)} late.`,
        WEIGHTS.afterDeadlineBase + WEIGHTS.afterDeadlinePerShare * share,
      );
    }
  }

  if (candidateSet.size > 0 && totalLines >= MIN_LINES_FOR_SHAPE) {
    const anchor = due ?? lastDated?.at ?? null;
    if (anchor !== null) {
      const windowStart = anchor - NEAR_DEADLINE_HOURS * HOUR_MS;
      const bulk = dated
        .filter(
          (c) => !candidateSet.has(c.email) && c.at >= windowStart && c.at <= anchor + DEADLINE_TOLERANCE_MS,
        )
        .sort((a, b) => b.lines - a.lines)[0];
      if (bulk && bulk.lines / totalLines >= OTHER_AUTHOR_BULK_SHARE) {
        const before = anchor - bulk.at;
        find(
          'other_author_bulk_near_deadline',
          `One commit by an author other than the candidate carries ${percent(bulk.lines / totalLines)} of changed lines (${bulk.lines} of ${totalLines}) ${before >= 0 ? `${hoursText(before)} before` : `${hoursText(-before)} after`} ${due !== null ? 'the deadline' : 'the last commit'}.`,
          WEIGHTS.otherAuthorBulkNearDeadline,
        );
      }
    }
  }

  const checkedAt = validTime(context.checkedAt);
  if (checkedAt !== null) {
    const future = dated.filter((c) => c.at > checkedAt + DEADLINE_TOLERANCE_MS);
    if (future.length > 0)
      find(
        'future_dates',
        `${future.length} commit${future.length === 1 ? ' is' : 's are'} dated after this check ran (${new Date(checkedAt).toISOString()}): the dates were set by hand.`,
        WEIGHTS.futureDates,
      );
  }

  const outOfOrder = outOfOrderSteps(parsed);
  if (outOfOrder !== null) {
    find(
      'out_of_order_dates',
      `The commits are listed ${outOfOrder.direction}, but ${outOfOrder.steps} step${outOfOrder.steps === 1 ? ' goes' : 's go'} back in time by up to ${hoursText(outOfOrder.largest)}: dates rewritten or commits reordered (a rebase can also do this).`,
      WEIGHTS.outOfOrderDates,
    );
  }

  const rewritten = rewrittenDates(dated.map((c) => c.at));
  if (rewritten) find('rewritten_dates', rewritten, WEIGHTS.rewrittenDates);

  const risk = Math.min(
    1,
    findings.reduce((a, f) => a + f.weight, 0),
  );
  return { risk: round4(risk), evidence: { findings, commitCount: ordered.length } };
}

function hoursText(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  return hours < 72 ? `${hours} h` : `${Math.round(hours / 24)} days`;
}

/**
 * Backward steps in the order the commits were supplied. Histories come oldest first or
 * newest first (`git log`); when at least 70 % of the dated steps (and three or more) run one way, steps that run
 * the other way by more than an hour contradict the history's own order. A list in no
 * particular order says nothing.
 */
function outOfOrderSteps(
  commits: readonly { at: number | null }[],
): { direction: string; steps: number; largest: number } | null {
  const times = commits.map((c) => c.at).filter((t): t is number => t !== null);
  if (times.length < 3) return null;
  const steps = times.slice(1).map((t, i) => t - (times[i] as number));
  const moving = steps.filter((d) => d !== 0);
  if (moving.length < 2) return null;
  const forward = moving.filter((d) => d > 0).length;
  const ascending = forward >= moving.length - forward;
  const agree = ascending ? forward : moving.length - forward;
  if (agree < 3 || agree / moving.length < 0.7) return null;
  const backwards = steps.map((d) => (ascending ? -d : d)).filter((d) => d > OUT_OF_ORDER_TOLERANCE_MS);
  if (backwards.length === 0) return null;
  return {
    direction: ascending ? 'oldest first' : 'newest first',
    steps: backwards.length,
    largest: Math.max(...backwards),
  };
}

/**
 * Dates a person did not produce by working: three or more commits in the same second (a
 * script or a bulk `--date`), or four or more commits spaced exactly alike to the second.
 */
function rewrittenDates(times: readonly number[]): string | null {
  const bySecond = new Map<number, number>();
  for (const t of times) bySecond.set(Math.floor(t / 1000), (bySecond.get(Math.floor(t / 1000)) ?? 0) + 1);
  const most = Math.max(0, ...bySecond.values());
  if (most >= 3) return `${most} commits carry the same timestamp to the second.`;
  const sorted = [...times].sort((a, b) => a - b);
  if (sorted.length >= 4) {
    const gaps = sorted.slice(1).map((t, i) => Math.round((t - (sorted[i] as number)) / 1000));
    if (gaps[0] !== undefined && gaps[0] > 0 && gaps.every((g) => g === gaps[0]))
      return `All ${sorted.length} commits are exactly ${hoursText(gaps[0] * 1000)} apart, to the second.`;
  }
  return null;
}
