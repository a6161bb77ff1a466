/**
 * The rules a rubric must meet before an employer sees it, whoever wrote it (the local engine
 * or Workers AI): weights that sum to 100 with no criterion above 40 % once there are three,
 * sources quoted verbatim, level descriptors that are complete sentences, and names that are
 * clean noun phrases rather than spliced fragments.
 */
import { MAX_CRITERIA, MAX_CRITERION_WEIGHT, MIN_CRITERIA } from './rubric-extraction';
import { HINGLISH_FUNCTION_WORDS } from './text';
import { THEMES } from './themes';
import type { Rubric } from './types';

const HINGLISH = new Set(HINGLISH_FUNCTION_WORDS);
const THEME_NAMES = new Set(THEMES.map((t) => t.name));
const DANGLING_END = /(?:\s(?:and|or|of|for|with|to|the|a|an|in|on|by|&))\s*[.!]?$/i;

/** Whether a level descriptor reads as a complete sentence. */
export function isCompleteSentence(text: string): boolean {
  const t = text.trim();
  return (
    /^[A-Z]/.test(t) &&
    /[.!]$/.test(t) &&
    t.split(/\s+/).length >= 4 &&
    !DANGLING_END.test(t) &&
    !t.split(/[^A-Za-z]+/).some((w) => HINGLISH.has(w.toLowerCase()))
  );
}

/** Whether a criterion name is a clean noun phrase: no fragment joined by "&" unless a theme's own name. */
export function isCleanName(name: string): boolean {
  const base = name;
  // "Functionality (2)" cannot be told apart from "Functionality"; control characters are not text.
  if (/\s\(\d+\)$/.test(base) || /\p{Cc}/u.test(base)) return false;
  if (base.length < 3 || base.length > 80) return false;
  if (DANGLING_END.test(base)) return false;
  if (base.split(/[^A-Za-z]+/).some((w) => HINGLISH.has(w.toLowerCase()))) return false;
  if (base.includes('&') && !THEME_NAMES.has(base) && !THEME_NAMES.has(base.split(':')[0] ?? ''))
    return false;
  return true;
}

/**
 * Whether a source quotes something of the brief: a verbatim, non-blank slice with at least
 * two words, or the whole (trimmed) brief. A lone letter or a full stop is in every brief.
 */
export function isQuotedSource(source: string, briefText: string): boolean {
  const quote = source.trim();
  if (quote === '' || !briefText.includes(quote)) return false;
  return quote === briefText.trim() || (quote.match(/[\p{L}\p{N}][\p{L}\p{M}\p{N}'’-]*/gu) ?? []).length >= 2;
}

/** Every rule the rubric breaks, in words; empty when it meets them all. */
export function rubricProblems(rubric: Rubric, briefText: string): string[] {
  const problems: string[] = [];
  const count = rubric.criteria.length;
  if (count < MIN_CRITERIA || count > MAX_CRITERIA)
    problems.push(`${count} criteria, not ${MIN_CRITERIA}–${MAX_CRITERIA}`);
  const names = rubric.criteria.map((c) => c.name.trim().toLowerCase());
  if (new Set(names).size !== names.length) problems.push('two criteria share a name');
  const weights = rubric.criteria.map((c) => c.weight);
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum !== 100) problems.push(`weights sum to ${sum}, not 100`);
  if (rubric.criteria.length >= 3 && Math.max(...weights) > MAX_CRITERION_WEIGHT)
    problems.push(`a criterion weighs ${Math.max(...weights)} %, above ${MAX_CRITERION_WEIGHT} %`);
  for (const c of rubric.criteria) {
    if (!isQuotedSource(c.source, briefText))
      problems.push(`the source of "${c.name}" is not a verbatim quote of at least two words`);
    const scores = c.levels.map((l) => l.score).sort((a, b) => a - b);
    if (scores.join(',') !== '1,2,3,4,5')
      problems.push(`the levels of "${c.name}" are not scored 1 to 5, once each`);
    if (!isCleanName(c.name)) problems.push(`"${c.name}" is not a clean criterion name`);
    const broken = c.levels.find((l) => !isCompleteSentence(l.descriptor));
    if (broken) problems.push(`a level of "${c.name}" is not a complete sentence: "${broken.descriptor}"`);
  }
  return problems;
}
