/**
 * How much of a plan is template rather than knowledge. A task that only wraps the brief's own
 * words ("Deliver: <deliverable>") says nothing the brief did not; a task that is identical,
 * once the brief's words are masked, in the plan of an unrelated brief says nothing about
 * this one. Both measures mask the brief's title, deliverables and criteria first, so wrapping
 * different words in the same sentence still counts as the same task.
 */
import type { Playbook, PlaybookBrief } from '../types';

const MASK = '▢';

/**
 * Text as the measure compares it: Unicode-normalised (NFKC), lower-cased, curly quotes made
 * straight and runs of whitespace collapsed, so a template does not pass for specific because
 * it lower-cased, re-spaced or re-quoted the brief's words.
 */
export function skeletonText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A task with the brief's own phrases replaced by one mask symbol, compared case-insensitively. */
export function maskedTask(
  task: string,
  brief: Pick<PlaybookBrief, 'title' | 'deliverables' | 'successCriteria'>,
): string {
  let out = skeletonText(task);
  const phrases = [brief.title, ...brief.deliverables, ...brief.successCriteria]
    .map((p) => skeletonText(p).replace(/[.;:!]+$/, ''))
    .filter((p) => p.length >= 3)
    .sort((a, b) => b.length - a.length);
  for (const p of phrases) out = out.split(p).join(MASK);
  return out.replace(/\s+/g, ' ').trim();
}

const tasksOf = (p: Playbook) => p.milestones.flatMap((m) => m.tasks);

/**
 * Share of `a`'s tasks that also occur, masked, in `b`: the playbook specificity of the
 * evaluation when `b` is the plan of an unrelated brief of the same shape.
 */
export function sharedTaskShare(
  a: Playbook,
  aBrief: PlaybookBrief,
  b: Playbook,
  bBrief: PlaybookBrief,
): number {
  const tasks = tasksOf(a);
  if (tasks.length === 0) return 0;
  const other = new Set(tasksOf(b).map((t) => maskedTask(t, bBrief)));
  return tasks.filter((t) => other.has(maskedTask(t, aBrief))).length / tasks.length;
}

/** Wrappers that only restate the brief. */
const ECHO_PREFIX =
  /^(deliver|verify|build|implement|complete|do|finish|create|make|produce)\b[^a-z]*(a working first version of)?\W*▢\W*$/;

/**
 * Share of tasks that are echoes: after masking, nothing but a verb and the brief's words, or
 * fewer than four words of their own.
 */
export function echoTaskShare(playbook: Playbook, brief: PlaybookBrief): number {
  const tasks = tasksOf(playbook);
  if (tasks.length === 0) return 1;
  const echoes = tasks.filter((t) => {
    const masked = maskedTask(t, brief);
    const ownWords = masked.replace(new RegExp(MASK, 'g'), ' ').match(/[a-z]{2,}/g) ?? [];
    return ECHO_PREFIX.test(masked) || ownWords.length < 4;
  });
  return echoes.length / tasks.length;
}
