/**
 * Integrity cases for the evaluation, written for this project (only the licence text is
 * not ours: it is the standard MIT licence, from the bundled boilerplate set). Each case is a
 * stored corpus, a submission and its history, with the verdicts a reviewer would accept.
 */
import { KNOWN_LICENCE_TEXTS } from '../src/domain/integrity/known-licences';
import type { CommitRecord } from '../src/domain/integrity/vcs';
import type { SubmissionMaterial } from '../src/domain/integrity/winnowing';

export type IntegrityCase = {
  id: string;
  corpus: Record<string, SubmissionMaterial>;
  submission: SubmissionMaterial;
  commits?: CommitRecord[];
  context?: { dueAt?: string; authorEmails?: string[]; briefText?: string; template?: SubmissionMaterial };
  expected: ('clean' | 'review' | 'flagged')[];
  /** A finding code the history must report. */
  finding?: string;
};

const ESSAY = `Why the night buses run empty

The city's night buses carry fewer than nine passengers an hour after midnight, yet the routes were drawn in 2009 when the hospitals ran a single shift. Nurses and cleaners now finish at 2 a.m. and 6 a.m., and they walk to the main road because the buses still follow the old bar district. We counted boardings on four routes for two weeks and matched them to shift times at three hospitals and the wholesale market. Moving two routes past the hospital gates and adding a stop at the market would cost nothing extra in fuel, because the detour replaces a loop that nobody uses. Drivers we spoke to agreed: the loop exists because a depot used to stand there. Our recommendation is to run the changed routes as a three-month trial and count again.`;

const PARAPHRASED_REORDERED = `Our recommendation is to trial the changed routes for three months and then count again. Drivers we talked to agreed: the loop exists because a depot once stood there. Moving two routes past the hospital gates and adding a stop at the market costs nothing extra in fuel, because the detour replaces a loop that nobody uses. The city's night buses carry fewer than nine passengers an hour after midnight, yet the routes were drawn in 2009 when the hospitals ran one shift. We counted boardings on four routes for two weeks and matched them to shift times at three hospitals and the wholesale market. Nurses and cleaners now finish at 2 a.m. and 6 a.m., and they walk to the main road because the buses still follow the old bar district.`;

const INDEPENDENT = `Night buses: who actually rides them

I rode the 301 and the 17N on five nights in March and talked to the people on board. Most were not coming home from a night out; they were going to work or coming off a hospital shift. Several said they take an auto-rickshaw for the last kilometre because the bus stops so far from the hospital entrance, which costs them more than the bus fare. The timetable shows buses bunching at 1 a.m. and then leaving an hour-long gap before the early market opens. If the operator cannot add buses, it could at least spread the existing ones evenly and publish the times at the hospital gates. I would test this on the 17N first, where the gap is worst, and ask the riders again after a month.`;

const CODE = `export function movingAverage(values: number[], window: number): number[] {
  if (window <= 0) throw new Error('window must be positive');
  const out: number[] = [];
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    sum += values[i];
    if (i >= window) sum -= values[i - window];
    if (i >= window - 1) out.push(sum / window);
  }
  return out;
}

export function peaks(series: number[], threshold: number): number[] {
  const found: number[] = [];
  for (let i = 1; i < series.length - 1; i++) {
    if (series[i] > threshold && series[i] > series[i - 1] && series[i] >= series[i + 1]) found.push(i);
  }
  return found;
}`;

const RENAMED = `// rolling stats helpers
export function rollingMean(xs: number[], span: number): number[] {
  if (span <= 0) throw new Error('span must be positive');
  const result: number[] = [];
  let total = 0;
  for (let k = 0; k < xs.length; k++) {
    total += xs[k];
    if (k >= span) total -= xs[k - span];
    if (k >= span - 1) result.push(total / span);
  }
  return result;
}

export function localMaxima(data: number[], cutoff: number): number[] {
  const hits: number[] = [];
  for (let k = 1; k < data.length - 1; k++) {
    if (data[k] > cutoff && data[k] > data[k - 1] && data[k] >= data[k + 1]) hits.push(k);
  }
  return hits;
}`;

const MIT = KNOWN_LICENCE_TEXTS.MIT as string;

const commit = (
  sha: string,
  at: string,
  additions: number,
  email = 'meera@example.in',
  deletions = 0,
): CommitRecord => ({
  sha,
  authorEmail: email,
  authoredAt: at,
  message: `work ${sha}`,
  additions,
  deletions,
});

const STEADY = [
  commit('c1', '2026-11-02T10:00:00Z', 60),
  commit('c2', '2026-11-03T18:20:00Z', 85, undefined, 10),
  commit('c3', '2026-11-05T09:45:00Z', 40, undefined, 22),
  commit('c4', '2026-11-06T21:10:00Z', 70, undefined, 15),
  commit('c5', '2026-11-08T11:30:00Z', 25, undefined, 8),
];

export const INTEGRITY_CASES: readonly IntegrityCase[] = [
  { id: 'verbatim copy', corpus: { a: { text: ESSAY } }, submission: { text: ESSAY }, expected: ['flagged'] },
  {
    id: 'paraphrased and reordered',
    corpus: { a: { text: ESSAY } },
    submission: { text: PARAPHRASED_REORDERED },
    expected: ['flagged', 'review'],
  },
  {
    id: 'renamed code',
    corpus: { a: { files: [{ path: 'src/stats.ts', content: CODE }] } },
    submission: { files: [{ path: 'lib/rolling.ts', content: RENAMED }] },
    expected: ['flagged'],
  },
  {
    id: 'independent work on the same topic',
    corpus: { a: { text: ESSAY } },
    submission: { text: INDEPENDENT },
    expected: ['clean'],
  },
  {
    id: 'MIT licence boilerplate, small corpus',
    corpus: {
      a: { text: `Ferry timetable scraper.\n\nCopyright (c) 2025 Arjun Rao\n\n${MIT}` },
      b: { files: [{ path: 'LICENSE', content: MIT }] },
    },
    submission: {
      text: `Night-bus boarding counter. Counts boardings from the ticket machines' CSV exports.\n\nCopyright (c) 2026 Meera Nair\n\n${MIT}`,
      files: [{ path: 'LICENSE', content: MIT }],
    },
    expected: ['clean'],
  },
  {
    id: 'steady history before the deadline',
    corpus: {},
    submission: { text: INDEPENDENT },
    commits: STEADY,
    context: { dueAt: '2026-11-09T18:00:00Z', authorEmails: ['meera@example.in'] },
    expected: ['clean'],
  },
  {
    id: 'late history',
    corpus: {},
    submission: { text: INDEPENDENT },
    commits: [...STEADY, commit('c6', '2026-11-11T08:00:00Z', 140, undefined, 30)],
    context: { dueAt: '2026-11-09T18:00:00Z', authorEmails: ['meera@example.in'] },
    expected: ['review'],
    finding: 'after_deadline',
  },
  {
    id: 'rewritten history',
    corpus: {},
    submission: { text: INDEPENDENT },
    commits: [
      commit('r5', '2026-11-08T11:30:00Z', 25),
      commit('r4', '2026-11-06T21:10:00Z', 70),
      commit('r3', '2026-11-02T09:45:00Z', 40),
      commit('r2', '2026-11-05T18:20:00Z', 85),
      commit('r1', '2026-11-01T10:00:00Z', 60),
    ],
    context: { dueAt: '2026-11-09T18:00:00Z', authorEmails: ['meera@example.in'] },
    expected: ['review'],
    finding: 'out_of_order_dates',
  },
  {
    id: 'bulk commit by someone else minutes before the deadline',
    corpus: {},
    submission: { text: INDEPENDENT },
    commits: [...STEADY.slice(0, 2), commit('x9', '2026-11-09T17:49:00Z', 900, 'fixer@agency.example')],
    context: { dueAt: '2026-11-09T18:00:00Z', authorEmails: ['meera@example.in'] },
    expected: ['review', 'flagged'],
    finding: 'other_author_bulk_near_deadline',
  },
];
