/**
 * The integrity pillar against stored work: fingerprints of every platform submission live
 * in D1 (`fingerprints`, indexed by hash, and `fingerprint_frequencies`, how many submissions
 * hold each hash). A check reads frequencies first and fetches matches only for fingerprints
 * held by at most MAX_SHARED_BY submissions, so the rows it reads grow with the checked text,
 * not with the corpus; more common fingerprints are boilerplate and are ignored.
 */

import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { briefs } from '../db/schema';
import { boilerplateFilter } from '../domain/integrity/boilerplate';
import { sampleFingerprints } from '../domain/integrity/sampling';
import { combineIntegrity, type IntegrityVerdict } from '../domain/integrity/score';
import { reportAiContent } from '../domain/integrity/stylometry';
import { type CommitRecord, vcsHistorySignal } from '../domain/integrity/vcs';
import {
  CODE_K,
  codeReadingOf,
  type Fingerprint,
  type FingerprintMatch,
  fingerprintSubmission,
  ignoreSetFor,
  kindForPath,
  PROSE_K,
  plagiarismSignal,
  type SubmissionMaterial,
} from '../domain/integrity/winnowing';
import { sha256Hex } from '../domain/secrets';
import { D1Corpus, type FingerprintCorpus } from './corpus';
import type { PillarEngine } from './pillars';

/**
 * The fingerprints of `material` that are stored: all of them, or at most `cap` (sampled by
 * hash, `sampleFingerprints`) so that a maximal submission adds a bounded number of rows.
 */
export function fingerprintsToStore(
  material: SubmissionMaterial,
  cap = Number.POSITIVE_INFINITY,
): Fingerprint[] {
  const own = fingerprintSubmission(material);
  // Code pasted as prose is also stored as code, after the prose stream, so a later copy
  // handed in as a `.py` file meets it (see `codeReadingOf`).
  const after = own.reduce((max, f) => Math.max(max, f.position), -1) + PROSE_K + CODE_K;
  const pasted = (codeReadingOf(material) ?? [])
    .filter((f) => f.kind === 'code' && (f.file === undefined || kindForPath(f.file) === 'prose'))
    .map((f) => ({ ...f, position: after + f.position }));
  return sampleFingerprints([...own, ...pasted], cap);
}

/** Stores a submission's fingerprints (at most `cap`) in `corpus` and bumps their frequencies. */
export async function storeFingerprints(
  corpus: FingerprintCorpus,
  submission: { id: string; candidateId: string },
  material: SubmissionMaterial,
  cap = Number.POSITIVE_INFINITY,
): Promise<number> {
  return corpus.store(submission.id, submission.candidateId, fingerprintsToStore(material, cap));
}

/** An opaque, stable reference to a stored submission: reveals no one, but shows two spans share a source. */
async function sourceRef(submissionId: string): Promise<string> {
  return `src_${(await sha256Hex(`fingerprint-source:${submissionId}`)).slice(0, 16)}`;
}

/**
 * Matches for the given hashes among stored submissions, skipping hashes held by more than
 * MAX_SHARED_BY submissions and submissions of `excludeCandidateId` (a candidate's own
 * earlier work is not plagiarism).
 */
export async function findMatches(
  source: D1Database | FingerprintCorpus,
  hashes: number[],
  options: {
    excludeCandidateId?: string;
    excludeSubmissionId?: string;
    /** Filled with `ref → submission id` of every matched submission (disclosure records). */
    sources?: Map<string, string>;
    /**
     * Authorship: when submissions were made (ms), and when the checked work was. A passage the
     * candidate (`excludeCandidateId`) already held before another's submission is not evidence
     * against them: that other submission came later, so it copied them, not the reverse.
     */
    authorship?: { submittedAt: (ids: string[]) => Promise<Map<string, number>>; checkedAt: number };
  } = {},
): Promise<Map<number, FingerprintMatch[]>> {
  const matches = new Map<number, FingerprintMatch[]>();
  if (hashes.length === 0) return matches;
  const corpus = 'lookup' in source ? source : new D1Corpus(source);
  const { rows } = await corpus.lookup(hashes);
  // Shards answer in any order: sort so the matches (and their evidence) do not depend on it.
  rows.sort(
    (a, b) => a.hash - b.hash || a.submissionId.localeCompare(b.submissionId) || a.position - b.position,
  );
  const heldSince = await firstHeld(rows, options);
  const refs = new Map<string, string>();
  for (const row of rows) {
    if (row.candidateId === options.excludeCandidateId || row.submissionId === options.excludeSubmissionId)
      continue;
    const since = heldSince?.first.get(row.hash) ?? heldSince?.checkedAt;
    const at = heldSince?.times.get(row.submissionId);
    if (since !== undefined && at !== undefined && at > since) continue; // made after the candidate held it
    let ref = refs.get(row.submissionId);
    if (!ref) {
      ref = await sourceRef(row.submissionId);
      refs.set(row.submissionId, ref);
      options.sources?.set(ref, row.submissionId);
    }
    const list = matches.get(row.hash) ?? [];
    list.push({ ref, position: row.position });
    matches.set(row.hash, list);
  }
  return matches;
}

/**
 * For `findMatches`' authorship rule: when each matched submission was made, and per hash the
 * earliest the candidate held it (their stored submissions, else the checked work's own time).
 */
async function firstHeld(
  rows: readonly { hash: number; submissionId: string; candidateId: string }[],
  options: {
    excludeCandidateId?: string;
    authorship?: { submittedAt: (ids: string[]) => Promise<Map<string, number>>; checkedAt: number };
  },
): Promise<{ times: Map<string, number>; first: Map<number, number>; checkedAt: number } | null> {
  const { authorship, excludeCandidateId } = options;
  if (!authorship || !excludeCandidateId || rows.length === 0) return null;
  const times = await authorship.submittedAt([...new Set(rows.map((r) => r.submissionId))]);
  const first = new Map<number, number>();
  for (const row of rows) {
    if (row.candidateId !== excludeCandidateId) continue;
    const at = Math.min(times.get(row.submissionId) ?? authorship.checkedAt, authorship.checkedAt);
    first.set(row.hash, Math.min(first.get(row.hash) ?? at, at));
  }
  return { times, first, checkedAt: authorship.checkedAt };
}

const NOT_ASSESSED: ReturnType<typeof vcsHistorySignal> = {
  risk: 0,
  evidence: {
    findings: [
      {
        code: 'not_supplied',
        detail: 'No commit list was supplied, so history was not assessed.',
        weight: 0,
      },
    ],
    commitCount: 0,
  },
};

export type IntegrityInput = SubmissionMaterial & { commits?: CommitRecord[] };

export type IntegrityContext = {
  /** Brief text: fingerprints it contains are ignored (everyone quotes the brief). */
  briefText?: string;
  briefCreatedAt?: Date;
  /** The candidate's author identities (e-mails); commits by anyone else are another author's. */
  candidateEmail?: string | readonly string[];
  /** The deadline: commits after it, and another author's bulk commit just before it, are findings. */
  dueAt?: Date;
  /** Filled with `ref → submission id` of the stored submissions that matched (§11(1)(b) records). */
  sources?: Map<string, string>;
  /** Starter material every candidate received (MOSS's base file): never evidence of copying. */
  template?: SubmissionMaterial;
  /** When the check runs (defaults to now): commits dated later were dated by hand. */
  checkedAt?: Date;
  excludeCandidateId?: string;
  excludeSubmissionId?: string;
  /** See `findMatches`: when stored submissions were made, and when the checked one was. */
  authorship?: { submittedAt: (ids: string[]) => Promise<Map<string, number>>; checkedAt: number };
};

export type IntegrityReport = {
  score: number;
  verdict: IntegrityVerdict;
  signals: {
    plagiarism: ReturnType<typeof plagiarismSignal>;
    aiContent: Awaited<ReturnType<PillarEngine['estimateAiText']>>['result'];
    vcsHistory: ReturnType<typeof vcsHistorySignal>;
  };
  engine: 'workers-ai' | 'local';
  /** Present when Workers AI was tried for the AI-content estimate and the local engine answered instead. */
  fallbackReason?: string;
};

/** All three signals and the combined score. The AI-content signal is soft: it never flags on its own. */
export async function checkIntegrity(
  d1: D1Database | FingerprintCorpus,
  engine: PillarEngine,
  input: IntegrityInput,
  context: IntegrityContext = {},
): Promise<IntegrityReport> {
  const own = fingerprintSubmission(input);
  // Code pasted into `text` or a `.txt` file is compared both ways: as prose (against stored
  // prose) and as code (against stored code); the reading that matches more counts.
  const codeReading = codeReadingOf(input);
  const sources = new Map<string, string>();
  const matches = await findMatches(d1, [...new Set([...own, ...(codeReading ?? [])].map((f) => f.hash))], {
    ...(context.excludeCandidateId ? { excludeCandidateId: context.excludeCandidateId } : {}),
    ...(context.excludeSubmissionId ? { excludeSubmissionId: context.excludeSubmissionId } : {}),
    sources,
    ...(context.authorship ? { authorship: context.authorship } : {}),
  });
  const boilerplate = boilerplateFilter(context.template);
  const signalOf = (prints: typeof own) =>
    plagiarismSignal(prints, matches, {
      ignore: [
        ...(context.briefText ? [ignoreSetFor({ text: context.briefText })] : []),
        ...boilerplate.ignore,
      ],
      ignoreWhere: boilerplate.ignoreWhere,
    });
  let plagiarism = signalOf(own);
  let read = own;
  if (codeReading) {
    const asCode = signalOf(codeReading);
    if (asCode.evidence.overlapShare > plagiarism.evidence.overlapShare) {
      plagiarism = asCode;
      read = codeReading;
    }
  }
  // Only the submissions the counted reading matched are sources (disclosure records).
  if (context.sources) {
    const refs = new Set(read.flatMap((f) => (matches.get(f.hash) ?? []).map((m) => m.ref)));
    for (const [ref, id] of sources) if (refs.has(ref)) context.sources.set(ref, id);
  }
  // The same files the plagiarism routing reads as prose: `.md`, `.markdown`, `.adoc`, … (one list).
  const prose = [
    input.text ?? '',
    ...(input.files ?? []).filter((f) => kindForPath(f.path) === 'prose').map((f) => f.content),
  ]
    .join('\n\n')
    .trim();
  const estimate = await engine.estimateAiText(prose);
  const ai = { ...estimate, result: reportAiContent(estimate.result) };
  const workSize = (input.text?.length ?? 0) + (input.files ?? []).reduce((n, f) => n + f.content.length, 0);
  // No commit list at all means "not assessed", not "no history" (which is a finding).
  const vcsHistory =
    input.commits === undefined
      ? NOT_ASSESSED
      : vcsHistorySignal(input.commits, {
          workSize,
          ...(context.candidateEmail ? { candidateEmail: context.candidateEmail } : {}),
          ...(context.briefCreatedAt ? { briefCreatedAt: context.briefCreatedAt } : {}),
          ...(context.dueAt ? { deadline: context.dueAt } : {}),
          checkedAt: context.checkedAt ?? new Date(),
        });
  const { score, verdict } = combineIntegrity({ plagiarism, aiContent: ai.result, vcsHistory });
  return {
    score,
    verdict,
    signals: { plagiarism, aiContent: ai.result, vcsHistory },
    engine: ai.engine,
    ...(ai.fallbackReason ? { fallbackReason: ai.fallbackReason } : {}),
  };
}

/** What the v1 check may send besides the material (see IntegrityRequestSchema). */
export type IntegrityRequestContext = {
  briefId?: string;
  dueAt?: string;
  authorEmails?: string[];
  template?: SubmissionMaterial;
};

/**
 * The context of a v1 check from its request: a platform brief's text and creation date
 * (`briefId`), the deadline (`dueAt`, else the brief's closing date) and the candidate's
 * author identities. Returns null for a brief that does not exist or is a draft.
 */
export async function integrityContextFor(
  db: Database,
  request: IntegrityRequestContext,
): Promise<IntegrityContext | null> {
  const context: IntegrityContext = {};
  if (request.briefId) {
    const [brief] = await db.select().from(briefs).where(eq(briefs.id, request.briefId)).limit(1);
    if (!brief || brief.state === 'draft') return null;
    context.briefText = [
      brief.title,
      brief.description,
      ...brief.deliverables,
      ...brief.successCriteria,
    ].join('\n');
    context.briefCreatedAt = brief.createdAt;
    if (brief.closedAt) context.dueAt = brief.closedAt;
  }
  if (request.dueAt) context.dueAt = new Date(request.dueAt);
  const emails = (request.authorEmails ?? []).map((e) => e.trim()).filter(Boolean);
  if (emails.length > 0) context.candidateEmail = emails;
  if (request.template) context.template = request.template;
  return context;
}
