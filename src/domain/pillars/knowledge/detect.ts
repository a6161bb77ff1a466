/**
 * Which field a brief comes from: its `domain` names it when it can, and the brief's own
 * vocabulary (title, deliverables, criteria) decides otherwise or confirms. A brief that
 * points nowhere clearly is `general`, and its plan says so (`confidence: "low"`).
 */
import { stem } from '../text';
import { type DeliverableArchetype, FIELDS, type Field, type FieldKey, GENERAL_FIELD } from './fields';

export type PlanConfidence = 'high' | 'medium' | 'low';

const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9&+#.]+/g, ' ')
    .split(' ')
    .map((w) => w.replace(/^\.+|\.+$/g, ''))
    .filter(Boolean);

const stemmed = (text: string) => words(text).map(stem);

/** Whether a phrase occurs in a text as whole (stemmed) words, in order. */
function hasPhrase(haystack: readonly string[], phrase: readonly string[]): boolean {
  if (phrase.length === 0 || phrase.length > haystack.length) return false;
  outer: for (let i = 0; i + phrase.length <= haystack.length; i++) {
    for (let j = 0; j < phrase.length; j++) if (haystack[i + j] !== phrase[j]) continue outer;
    return true;
  }
  return false;
}

/** Score of the phrases found: a phrase counts its word count, so "financial model" beats "model". */
export function phraseScore(text: string | readonly string[], phrases: readonly string[]): number {
  const haystack = typeof text === 'string' ? stemmed(text) : text;
  let score = 0;
  for (const p of phrases) {
    const phrase = stemmed(p);
    if (hasPhrase(haystack, phrase)) score += phrase.length;
  }
  return score;
}

/**
 * The field a free-form domain names ("Android", "FP&A", "UX research"), or `general`. Longer
 * names win ("ux research" over "ux", "data science" over "data"); "mobile" alone names no
 * platform, so it decides nothing.
 */
export function fieldForDomain(domain: string | undefined | null): FieldKey {
  if (!domain) return 'general';
  const slug = domain.toLowerCase().trim();
  const exact = FIELDS.find((f) => f.key === slug);
  if (exact) return exact.key;
  const haystack = stemmed(domain);
  let best: { key: FieldKey; length: number } | null = null;
  for (const field of FIELDS)
    for (const name of field.domains) {
      const phrase = stemmed(name);
      if (hasPhrase(haystack, phrase) && (best === null || phrase.length > best.length))
        best = { key: field.key, length: phrase.length };
    }
  return best?.key ?? 'general';
}

export type BriefLike = {
  title: string;
  domain: string;
  deliverables: readonly string[];
  successCriteria: readonly string[];
};

/** The best archetype of a field for a deliverable, or null when none of its words match. */
export function archetypeFor(field: Field, deliverable: string): DeliverableArchetype | null {
  const haystack = stemmed(deliverable);
  let best: { a: DeliverableArchetype; score: number } | null = null;
  for (const a of field.archetypes) {
    const score = phraseScore(haystack, a.match);
    if (score > 0 && (best === null || score > best.score)) best = { a, score };
  }
  return best?.a ?? null;
}

/**
 * The field of a brief and how sure the plan can be. The domain counts three points plus its
 * length; vocabulary in the brief counts a point per word matched. Below two points, or when
 * two fields tie without the domain choosing, the brief is `general`.
 */
export function detectField(brief: BriefLike): { field: Field; confidence: PlanConfidence } {
  const named = fieldForDomain(brief.domain);
  const text = stemmed([brief.title, ...brief.deliverables, ...brief.successCriteria].join(' \n '));
  const scored = FIELDS.map((field) => {
    const vocabulary = phraseScore(text, field.vocabulary);
    return { field, vocabulary, score: vocabulary + (field.key === named ? 4 : 0) };
  }).sort((a, b) => b.score - a.score);
  const [top, next] = scored;
  if (!top || top.score < 2 || (next && next.score === top.score))
    return { field: GENERAL_FIELD, confidence: 'low' };
  const matched = brief.deliverables.filter((d) => archetypeFor(top.field, d) !== null).length;
  const share = brief.deliverables.length === 0 ? 0 : matched / brief.deliverables.length;
  const sure = (top.field.key === named && top.vocabulary >= 1) || top.vocabulary >= 3;
  return { field: top.field, confidence: sure && share >= 0.5 ? 'high' : 'medium' };
}
