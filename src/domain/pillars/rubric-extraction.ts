/**
 * Local rubric extraction (pillar 4): unstructured brief text → a weighted rubric.
 *
 * 1. Split the brief into sentences and list items (`splitSentences`).
 * 2. Keep the requirements: sentences with a requirement cue ("must", "should", "needs to",
 *    "we expect", "will be assessed on", …), imperative sentences ("Write unit tests …") and
 *    list items. Each gets a strength — must, should, nice to have — from its own cue, or
 *    from the "…:" line or heading that introduced its list.
 * 3. Group them: first by theme (testing, documentation, security, … — see `themes.ts`), then
 *    the rest by shared content words. Groups are merged or split until there are 3–8.
 * 4. Weight each group by the sum of its requirements' strengths (must 3, should 2, nice 1)
 *    and turn the weights into integers that sum to exactly 100.
 */

import { fieldForDomain } from './knowledge/detect';
import {
  capitalise,
  contentStems,
  HINGLISH_FUNCTION_WORDS,
  IMPERATIVE_VERBS,
  isContentWord,
  isImperative,
  jaccard,
  normaliseSpace,
  type Sentence,
  splitSentences,
  stem,
  tokenize,
  truncateWords,
} from './text';
import { classifyTheme, fillLevels, GENERIC_LEVELS, type Theme, themeStems } from './themes';
import type { CatalogueDomain } from './tutorial-catalogue';
import type { Rubric, RubricCriterion } from './types';

export type RequirementStrength = 'must' | 'should' | 'nice' | 'implied';

/** Weight a requirement adds to its criterion. "Implied" sentences (no cue, used only as a fallback) count as "should". */
export const STRENGTH_WEIGHT: Readonly<Record<RequirementStrength, number>> = {
  must: 3,
  should: 2,
  implied: 2,
  nice: 1,
};

// Which requirement a criterion quotes as its source: the strongest, then the first.
const STRENGTH_RANK: Readonly<Record<RequirementStrength, number>> = {
  must: 4,
  should: 3,
  implied: 2,
  nice: 1,
};

export const MIN_CRITERIA = 3;
export const MAX_CRITERIA = 8;
/** The "meets expectations" level: a weighted mean at or above it passes. */
export const DEFAULT_PASS_THRESHOLD = 3;
/** Every criterion keeps at least this weight, so none is negligible. */
const MIN_WEIGHT = 5;
/** Two unthemed requirements share a criterion when their content words overlap this much (Jaccard). */
const KEYWORD_GROUP_SIMILARITY = 0.2;

const OUT_OF_SCOPE =
  /\b(?:do(?:es)? not|don't|doesn't) need (?:a|an|any)\b|\b(?:do(?:es)? not|don't|doesn't|no|needn't) (?:need|have) to\b|\bneed not\b|\bnot (?:required|necessary|needed|expected|in scope)\b|\bout of scope\b|\bno need\b/;
// Logistics, not asks: "This should take about two days", "Questions? Email us".
const LOGISTICS =
  /\b(?:should|will|would|could|may) take (?:about |around |roughly |approximately |up to |no more than )?(?:\d+|a|an|one|two|three|four|five|six|seven|eight|ten|a few|several) (?:hours?|days?|weeks?|months?)\b|\b(?:email|contact|ask) (?:us|me|the hiring)\b/;
const MUST_CUE =
  /\bmust\b|\b[a-z]+(?:ni|na) (?:hi )?(?:hai|hoga|hogi)\b|\bmsut\b|\bmst\b|\brequire?d\b|\brequred\b|\bzaroo?ri\b|\bzaruri\b|\bjaruri\b|\bcompulsory\b|\bkarna (?:hi )?(?:hai|hoga)\b|\bkarni (?:hai|hogi)\b|\bhona (?:hi )?(?:hai|hoga)\b|\bshall\b|\brequired\b|\bmandatory\b|\bha(?:s|ve) to\b|\bneeds? to\b|\bwe need\b|\bessential\b|\bnon-negotiable\b|\bwill be (?:assessed|evaluated|graded|judged|scored|marked|reviewed)\b|\bat (?:a |the )?minimum\b|\bcritical\b/;
const SHOULD_CUE =
  /\bshould\b|\b(?:likhna|karna|karo|banao|bhejna|dikhana|rakhna|banana)\b|\bshoud\b|\bshuold\b|\bshuld\b|\bsholud\b|\bshoudl\b|\bchahiye\b|\bchahie\b|\bexpect(?:ed)? (?:ki|ke)\b|\bwe expect\b|\bexpected to\b|\bexpects?\b|\bensure\b|\bmake sure\b|\bought to\b|\bwe want\b|\bwe(?:'d| would) like\b|\bwe are looking for\b|\byou will\b|\byour (?:task|job|goal) is\b|\bplease\b|\bdeliverables?\b|\brequirements?\b|\bneeds? (?:a|an|the)\b/;
const NICE_CUE =
  /\bnice[- ]to[- ]have\b|\b(?:is|are) welcome\b|\bas an extra\b|\bagar time\b|\bho sake toh\b|\boptional hai\b|\bwould be (?:nice|great|a plus)\b|\bbonus\b|\b(?:is|are|be|as|considered) optional\b|\boptional(?:ly)?[,:.)]|^optional\b|\boptionally\b|\bideally\b|\bpreferably\b|\bstretch goals?\b|\bif (?:you have )?time\b|\bextra credit\b|\bcould\b|\bmay\b/;
// Lists under these headings describe the context, not what to do.
const CONTEXT_HEADING =
  /\b(?:background|context|about|overview|who we are|company|history|team|introduction|problem statement)\b/;

/** Words that single an ask out: it weighs one strength step more. */
const EMPHASIS =
  /\b(?:very important|most important|crucial|critical|above all|especially|key (?:requirement|priority)|top priority|non-negotiable|sabse (?:zaroori|important))\b/;
/**
 * Lead-ins and openers of a choice between alternatives: the candidate does one of them, so
 * they are one criterion, and neither option can cost points.
 */
const ALTERNATIVE_LEAD =
  /\b(?:pick|choose|select|do)\b[^.]*\b(?:one|either|any one)\b|\beither\b|\bone of (?:the following|these|two|three)\b|\bany one of\b|\bkoi (?:bhi )?ek\b|\bek choose\b/i;
const OPTION_OPENER = /^(?:option|alternative|choice)\s*(?:[a-z]|\d+)\b\s*[:.)-]?/i;

function cueStrength(text: string): RequirementStrength | null {
  const t = normaliseSpace(text.toLowerCase());
  const must = MUST_CUE.test(t);
  if (NICE_CUE.test(t) && !must) return 'nice';
  if (must) return 'must';
  if (SHOULD_CUE.test(t)) return 'should';
  return null;
}

/** A requirement found in the brief. */
type Requirement = {
  sentence: Sentence;
  strength: RequirementStrength;
  /** Stated with emphasis ("crucial", "above all"): one step heavier. */
  emphasis: boolean;
  /** The lead-in of the choice this ask is one option of, when it is one. */
  alternativeOf: Sentence | null;
  /** Content stems of the sentence itself. */
  stems: Set<string>;
  /** Stems of the heading or "…:" line of its list: used for its theme only when its own words have none. */
  leadStems: Set<string>;
};

/** Decides whether a sentence is a requirement, and how strong. */
function classify(sentence: Sentence): RequirementStrength | null {
  const text = sentence.text;
  const lower = normaliseSpace(text.toLowerCase());
  const words = contentStems(text).length;
  if (OUT_OF_SCOPE.test(lower) || LOGISTICS.test(lower)) return null;
  // "The API must:" introduces a list; its items are the requirements.
  if (text.endsWith(':')) return null;
  if (text.endsWith('?') && !sentence.bullet) return null;
  const own = cueStrength(text);
  if (sentence.bullet) {
    if (words < 1) return null;
    if (own) return own;
    const lead = sentence.leadIn;
    if (lead) {
      const leadStrength = cueStrength(lead);
      if (leadStrength) return leadStrength;
      if (CONTEXT_HEADING.test(lead.toLowerCase())) return null;
    }
    return 'should';
  }
  if (words < 1) return null;
  if (own) return own;
  if (!sentence.heading && isImperative(text)) return 'should';
  return null;
}

/** Nouns of things a brief asks someone to make: a sentence opening the brief with one states the main ask. */
const DELIVERABLE_NOUN =
  /\b(?:app|application|website|site|api|service|model|dashboard|report|tool|platform|system|bot|game|plugin|extension|campaign|deck|notebook|spreadsheet|workbook|prototype|audit|survey|study)\b/i;

function findRequirements(sentences: Sentence[]): Requirement[] {
  const out: Requirement[] = [];
  // "Android app (Kotlin) for shop owners to record expenses offline." states the main ask without a cue.
  const opening = sentences.find((s) => !s.heading);
  if (
    opening &&
    !opening.bullet &&
    classify(opening) === null &&
    // "Scope: …", "Background: …" describe the setting, not the ask.
    !/^(?:scope|background|context|about us|overview)\b/i.test(opening.text) &&
    DELIVERABLE_NOUN.test(opening.text) &&
    contentStems(opening.text).length >= 5
  )
    out.push(toRequirement(opening, 'must'));
  // Headings that introduce a list ("What you will build") are not asks themselves.
  const leadIns = new Set(sentences.map((s) => s.leadIn).filter((l) => l !== null));
  for (const sentence of sentences) {
    if (sentence.heading && leadIns.has(sentence.text)) continue;
    const strength = classify(sentence);
    if (strength === null) continue;
    out.push(toRequirement(sentence, strength));
  }
  return out;
}

function toRequirement(sentence: Sentence, strength: RequirementStrength): Requirement {
  const stems = new Set(contentStems(sentence.text));
  const leadStems = new Set(contentStems(sentence.leadIn ?? ''));
  const emphasis = EMPHASIS.test(normaliseSpace(sentence.text.toLowerCase()));
  return { sentence, strength, stems, leadStems, emphasis, alternativeOf: null };
}

/**
 * Marks the options of a choice: list items under a lead-in such as "Pick one of the
 * following:", and runs of sentences opening "Option A … Option B …". Their lead-in (or the
 * first option) becomes the criterion's quoted source.
 */
function markAlternatives(requirements: Requirement[], sentences: Sentence[]): void {
  const byText = new Map(sentences.map((s) => [s.text, s]));
  for (const r of requirements) {
    const lead = r.sentence.leadIn;
    if (r.sentence.bullet && lead && ALTERNATIVE_LEAD.test(lead)) r.alternativeOf = byText.get(lead) ?? null;
  }
  let run: Requirement[] = [];
  const close = () => {
    if (run.length >= 2) for (const r of run) r.alternativeOf = run[0]?.sentence ?? null;
    run = [];
  };
  for (const r of requirements) {
    if (r.alternativeOf === null && OPTION_OPENER.test(r.sentence.text)) run.push(r);
    else close();
  }
  close();
}

/** Brief short enough that every ask in it should be its own criterion. */
const SHORT_BRIEF_SENTENCES = 4;
const SHORT_BRIEF_CHARS = 800;
/** Verbs that start a further ask after "and" in a short brief ("… and work on mobile"). */
const ASK_VERBS = new Set([
  ...IMPERATIVE_VERBS,
  ...'work load look feel run handle scale respond explain show include cover send email post launch reach convert rank'.split(
    ' ',
  ),
]);

/**
 * Splits a sentence into its asks: at ";", and at "and", "also", "plus" or a comma when the
 * next word is a verb ("Build a landing page, write the launch email and set up analytics").
 * Each part is a verbatim slice of the sentence, so it can be quoted as a source.
 */
export function splitAsks(sentence: Sentence): Sentence[] {
  const text = sentence.text;
  const cuts: number[] = [];
  const re = /\s*(?:;|,?\s+(?:and|also|plus|aur)\s+|,\s+)(?=([A-Za-z]+))/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const next = (m[1] ?? '').toLowerCase();
    // Hindi puts the verb last, so "aur" (and) joins two asks whatever follows it.
    if (m[0].includes(';') || /\baur\b/.test(m[0]) || ASK_VERBS.has(next))
      cuts.push(m.index, m.index + m[0].length);
  }
  if (cuts.length === 0) return [sentence];
  const bounds = [0, ...cuts, text.length];
  const parts: Sentence[] = [];
  for (let i = 0; i < bounds.length; i += 2) {
    const from = bounds[i] as number;
    const raw = text.slice(from, bounds[i + 1]);
    const trimmed = raw.trim();
    if (contentStems(trimmed).length < 1 || trimmed.split(/\s+/).length < 2) continue;
    parts.push({ ...sentence, text: trimmed, start: sentence.start + from + raw.indexOf(trimmed) });
  }
  return parts.length > 1 ? parts : [sentence];
}

/**
 * When a brief states fewer than three requirements outright, its most informative
 * sentences (most content words, theme words counting extra) stand in for them, so a prose
 * brief still yields a usable rubric.
 */
function informativeFallback(
  sentences: Sentence[],
  have: Requirement[],
  domain: CatalogueDomain,
): Requirement[] {
  const taken = new Set(have.map((r) => r.sentence.index));
  const candidates = sentences
    .filter((s) => {
      const lower = normaliseSpace(s.text.toLowerCase());
      return !taken.has(s.index) && !OUT_OF_SCOPE.test(lower) && !LOGISTICS.test(lower);
    })
    .map((s) => {
      const stems = new Set(contentStems(s.text));
      const themed = classifyTheme(stems, domain) ? 2 : 0;
      // Headings and "…:" lines say little on their own.
      const penalty = s.heading || s.text.endsWith(':') ? 3 : 0;
      return { s, score: stems.size + themed - penalty };
    })
    .sort((a, b) => b.score - a.score || a.s.index - b.s.index);
  const need = Math.max(0, MIN_CRITERIA - have.length);
  const added = candidates.slice(0, need).map(({ s }) => toRequirement(s, 'implied'));
  return [...have, ...added].sort((a, b) => a.sentence.index - b.sentence.index);
}

type Group = {
  theme: Theme | null;
  /** The requirements the group was formed from (not merged in later): its source is one of them. */
  core: Requirement[];
  /** Set when a theme's group was split in two, so the parts need telling apart. */
  split: boolean;
  requirements: Requirement[];
  stems: Set<string>;
  /** Sum of the requirements' strength weights (kept up to date by `addTo`). */
  weight: number;
  /** Index of the group's earliest sentence in the brief. */
  first: number;
  /** For a choice between options: the lead-in quoted as source; the group weighs as its heaviest option. */
  alternative: Sentence | null;
};

const groupWeight = (g: Group) => g.weight;
const groupFirst = (g: Group) => g.first;

function newGroup(theme: Theme | null, requirements: Requirement[], split = false): Group {
  const group: Group = {
    theme,
    core: [],
    split,
    requirements: [],
    stems: new Set(),
    weight: 0,
    first: Number.POSITIVE_INFINITY,
    alternative: null,
  };
  for (const r of requirements) addTo(group, r, true);
  return group;
}

/** Adds a requirement; `core` when it belongs to the group's formation rather than a later merge. */
function addTo(group: Group, r: Requirement, core = false): void {
  group.requirements.push(r);
  if (core) group.core.push(r);
  for (const s of r.stems) group.stems.add(s);
  const weight = STRENGTH_WEIGHT[r.strength] + (r.emphasis ? 1 : 0);
  // Options of one choice are not added up: the candidate delivers only one of them.
  group.weight = group.alternative ? Math.max(group.weight, weight) : group.weight + weight;
  group.first = Math.min(group.first, r.sentence.index);
}

/** Theme groups first; unthemed requirements join the most similar keyword group or start one. */
function groupByTheme(requirements: Requirement[], domain: CatalogueDomain, eachAsk: boolean): Group[] {
  const groups: Group[] = [];
  const byTheme = new Map<string, Group>();
  const loose: Group[] = [];
  const choices = new Map<Sentence, Group>();
  for (const r of requirements) {
    if (r.alternativeOf) {
      const existing = choices.get(r.alternativeOf);
      if (existing) addTo(existing, r, true);
      else {
        const g = newGroup(null, []);
        g.alternative = r.alternativeOf;
        addTo(g, r, true);
        choices.set(r.alternativeOf, g);
        groups.push(g);
      }
      continue;
    }
    // A short brief: each ask stands alone unless it repeats another (repetition adds weight).
    if (eachAsk) {
      const same = groups.find((g) => g.alternative === null && jaccard(g.stems, r.stems) >= 0.5);
      if (same) addTo(same, r, true);
      else groups.push(newGroup(classifyTheme(r.stems, domain), [r]));
      continue;
    }
    // A list item's own words decide; its heading only helps an item that says nothing
    // themed itself ("README should cover:" → "- how to run it").
    const theme =
      classifyTheme(r.stems, domain) ?? classifyTheme(new Set([...r.stems, ...r.leadStems]), domain);
    if (theme) {
      const existing = byTheme.get(theme.key);
      if (existing) addTo(existing, r, true);
      else {
        const g = newGroup(theme, [r]);
        byTheme.set(theme.key, g);
        groups.push(g);
      }
      continue;
    }
    let best: Group | null = null;
    let bestSim = KEYWORD_GROUP_SIMILARITY;
    for (const g of loose) {
      const sim = jaccard(r.stems, g.stems);
      if (sim >= bestSim && (best === null || sim > bestSim)) {
        best = g;
        bestSim = sim;
      }
    }
    if (best) addTo(best, r, true);
    else {
      const g = newGroup(null, [r]);
      loose.push(g);
      groups.push(g);
    }
  }
  return groups;
}

/** Items of one list belong together: a shared lead-in adds to the word overlap. */
const SAME_LIST_BONUS = 0.15;

function mergeSimilarity(a: Group, b: Group): number {
  const leads = new Set(a.requirements.map((r) => r.sentence.leadIn).filter((l) => l !== null));
  const sameList = b.requirements.some((r) => r.sentence.leadIn !== null && leads.has(r.sentence.leadIn));
  return jaccard(a.stems, b.stems) + (sameList ? SAME_LIST_BONUS : 0);
}

function nearestGroup(victim: Group, groups: Group[]): Group {
  let best = groups[0] as Group;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const g of groups) {
    for (const a of victim.requirements) {
      for (const b of g.requirements) {
        const distance = Math.abs(a.sentence.index - b.sentence.index);
        if (distance < bestDistance) {
          best = g;
          bestDistance = distance;
        }
      }
    }
  }
  return best;
}

/**
 * Merges the lightest group into the group it shares most words (or a list) with until at
 * most eight remain; a group that shares nothing joins its nearest neighbour in the brief.
 */
function mergeDown(groups: Group[]): Group[] {
  const out = [...groups];
  while (out.length > MAX_CRITERIA) {
    // Unthemed groups go before themed ones (a theme is a stronger reason to stand alone),
    // lightest first; among equals the later one goes, so the brief's opening asks survive.
    const order = (g: Group) => [g.theme === null ? 0 : 1, groupWeight(g), -groupFirst(g)];
    let victimIndex = 0;
    for (let i = 1; i < out.length; i++) {
      const a = order(out[i] as Group);
      const v = order(out[victimIndex] as Group);
      const k = a.findIndex((x, j) => x !== v[j]);
      if (k !== -1 && (a[k] as number) < (v[k] as number)) victimIndex = i;
    }
    const victim = out[victimIndex] as Group;
    out.splice(victimIndex, 1);
    let target: Group | null = null;
    let bestSim = 0;
    for (const g of out) {
      const sim = mergeSimilarity(victim, g);
      if (sim > bestSim) {
        target = g;
        bestSim = sim;
      }
    }
    // Nothing in common with any group: join the group of the nearest requirement in the
    // brief, since asks written next to each other are usually about the same thing.
    if (!target) target = nearestGroup(victim, out);
    for (const r of victim.requirements) addTo(target, r);
  }
  return out;
}

/** Splits the largest group in two (around its two least similar requirements) until there are three. */
function splitUp(groups: Group[]): Group[] {
  const out = [...groups];
  while (out.length < MIN_CRITERIA) {
    let largest: Group | null = null;
    for (const g of out) {
      // A choice stays one criterion, even when that leaves fewer than three.
      if (g.requirements.length < 2 || g.alternative !== null) continue;
      if (
        largest === null ||
        g.requirements.length > largest.requirements.length ||
        (g.requirements.length === largest.requirements.length && groupWeight(g) > groupWeight(largest))
      )
        largest = g;
    }
    if (!largest) break;
    const ordered = rankRequirements(largest.requirements);
    const seedA = ordered[0] as Requirement;
    let seedB = ordered[1] as Requirement;
    for (const r of ordered.slice(1))
      if (jaccard(r.stems, seedA.stems) < jaccard(seedB.stems, seedA.stems)) seedB = r;
    const partA: Requirement[] = [];
    const partB: Requirement[] = [];
    for (const r of largest.requirements) {
      if (r === seedB) partB.push(r);
      else if (r === seedA) partA.push(r);
      else {
        const toA = jaccard(r.stems, seedA.stems);
        const toB = jaccard(r.stems, seedB.stems);
        // Ties go to the smaller part, so a group of look-alike requirements halves evenly.
        (toB > toA || (toB === toA && partB.length < partA.length) ? partB : partA).push(r);
      }
    }
    const at = out.indexOf(largest);
    out.splice(at, 1, newGroup(largest.theme, partA, true), newGroup(largest.theme, partB, true));
  }
  return out;
}

/** Strongest first, then in brief order. */
function rankRequirements(requirements: Requirement[]): Requirement[] {
  return [...requirements].sort(
    (a, b) => STRENGTH_RANK[b.strength] - STRENGTH_RANK[a.strength] || a.sentence.index - b.sentence.index,
  );
}

// Words, and numbers with their unit or suffix ("200 ms" keeps "200", "30-minute", "80%").
const WORD = /\d+(?:[.,]\d+)*(?:%|-[A-Za-z]+)?|[A-Za-z\u00C0-\u024F][A-Za-z0-9\u00C0-\u024F'’+#-]*/g;

/**
 * Noun-phrase-like chunks of a sentence: runs of content words between function words and
 * punctuation, without a leading imperative verb ("Write unit tests for every endpoint" →
 * "unit tests", "endpoint"). Used to name criteria and to say what a level is about.
 */
export function keyPhrases(sentence: string): string[] {
  const out: string[] = [];
  let run: string[] = [];
  let lastEnd = -1;
  const close = () => {
    while (run.length > 0 && IMPERATIVE_VERBS.has((run[0] as string).toLowerCase())) run.shift();
    // A number alone ("5") is not a topic; with its unit ("200 ms") it is.
    if (run.some((w) => !/^\d/.test(w))) out.push(run.slice(0, 4).join(' '));
    run = [];
  };
  for (const m of sentence.matchAll(WORD)) {
    const word = m[0].replace(/['’-]+$/, '');
    const gap = lastEnd < 0 ? '' : sentence.slice(lastEnd, m.index);
    lastEnd = m.index + m[0].length;
    if (gap.trim() !== '') close();
    const lower = word.toLowerCase();
    const numeric = /^\d/.test(word);
    const tokens = lower.split(/[^a-z0-9]+/).filter(Boolean);
    if (!numeric && (tokens.length === 0 || !tokens.some(isContentWord))) {
      close();
      continue;
    }
    // Keep acronyms and product names ("WCAG", "TalkBack"); lower-case ordinary words.
    // A capital after ":" only starts a clause ("criterion: Orders can …").
    const clauseStart = m.index === 0 || /:\s*$/.test(gap);
    const keepCase = /[A-Z].*[A-Z]/.test(word) || (/^[A-Z]/.test(word) && !clauseStart);
    run.push(keepCase ? word : lower);
  }
  close();
  return out;
}

type Phrase = { text: string; order: number; score: number };

/**
 * Candidate phrases of a group, strongest requirements first. A phrase scores its length (up
 * to three words) plus two when it uses the theme's own words; a lone participle ("hashed",
 * "including") is not a topic and is skipped.
 */
function phrasesOf(group: Group): Phrase[] {
  const themeWords = group.theme ? themeStems(group.theme) : new Set<string>();
  const out: Phrase[] = [];
  const seen = new Set<string>();
  const core = new Set(group.core);
  const ordered = [
    ...rankRequirements(group.core),
    ...rankRequirements(group.requirements.filter((r) => !core.has(r))),
  ];
  for (const r of ordered) {
    for (const text of keyPhrases(r.sentence.text)) {
      const stems = contentStems(text);
      const key = stems.join(' ');
      if (key === '' || seen.has(key)) continue;
      seen.add(key);
      const themed = stems.some((x) => themeWords.has(x));
      if (stems.length === 1 && /(ed|ing)$/i.test(text) && stems[0] !== text.toLowerCase() && !themed)
        continue;
      out.push({ text, order: out.length, score: Math.min(3, stems.length) + (themed ? 2 : 0) });
    }
  }
  return out;
}

/** What a group is about: its three best phrases, in reading order. */
function focusPhrases(phrases: Phrase[]): string[] {
  return [...phrases]
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, 3)
    .sort((a, b) => a.order - b.order)
    .map((p) => p.text);
}

function joinList(items: string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** Stems of whole words only: "SwiftUI" is not the word "UI", so it does not make a sentence about design. */
function wholeWordStems(text: string): Set<string> {
  return new Set(tokenize(text, { parts: false }).filter(isContentWord).map(stem));
}

/** Words a name or focus must not end on: they leave a fragment ("Pricing section &", "support for"). */
const DANGLING = new Set([
  'and',
  'or',
  'of',
  'for',
  'with',
  'to',
  'the',
  'a',
  'an',
  'in',
  'on',
  'by',
  'as',
  'at',
  '&',
]);

/** A phrase cleaned into a noun phrase: no Hinglish function words, nothing dangling at either end. */
function nounPhrase(text: string): string {
  const kept = text.split(/\s+/).filter((w) => !HINGLISH.has(w.toLowerCase()));
  while (kept.length > 0 && DANGLING.has((kept[kept.length - 1] as string).toLowerCase())) kept.pop();
  while (kept.length > 0 && DANGLING.has((kept[0] as string).toLowerCase())) kept.shift();
  return kept.join(' ');
}

const HINGLISH: ReadonlySet<string> = new Set(HINGLISH_FUNCTION_WORDS);

function cleanFocus(phrases: string[]): string[] {
  return phrases
    .map(nounPhrase)
    .filter((p) => /[a-z]/i.test(p))
    .slice(0, 3);
}

/**
 * A criterion's name: the theme's name when the quoted sentence is about the theme (for a
 * split theme, its short name and the part's topic); otherwise the best noun phrase of the
 * quoted sentence itself, so the name never splices fragments of different asks. A choice
 * is named "Choice: X or Y".
 */
function criterionName(group: Group, theme: Theme | null, source: Sentence, phrases: Phrase[]): string {
  if (group.alternative) {
    const options = group.requirements
      .map((r) => bestPhrase(r.sentence.text.replace(OPTION_OPENER, '')))
      .filter(Boolean)
      .slice(0, 3);
    if (options.length > 0) return capitalise(truncateWords(`Choice: ${options.join(' or ')}`, 80));
  }
  const own = bestPhrase(source.text) || nounPhrase(phrases[0]?.text ?? '');
  if (theme && !group.split) return theme.name;
  if (theme && own) return `${theme.short}: ${truncateWords(own, 50)}`;
  return own ? capitalise(truncateWords(own, 60)) : (theme?.name ?? 'Additional requirements');
}

/** Subjects, modals and cues that open an ask but are no part of what it asks for. */
const ASK_OPENER =
  /^(?:(?:nice to have|bonus|optional|ideally|also|and|then|finally|please|plus)[:,]?\s+)*(?:(?:it|the \w+|this|we|you|they|candidates?)\s+)?(?:(?:must|should|shoud|shuld|shall|will|needs? to|has to|have to|is expected to|are expected to)\s+)?(?:(?:be able to|also)\s+)?/i;

/**
 * The most telling noun phrase of a sentence: the longest of its first three key phrases,
 * cleaned; two phrases joined by "and" in the sentence itself stay together ("NPV and IRR").
 * When the ask has no noun phrase of two words, the ask itself in a few words ("Load fast").
 */
function bestPhrase(sentence: string): string {
  const candidates = keyPhrases(sentence)
    .map(nounPhrase)
    .filter((p) => /[a-z]/i.test(p) && !/^\d/.test(p));
  const lower = sentence.toLowerCase();
  const [a, b] = candidates;
  if (a && b && lower.includes(`${a.toLowerCase()} and ${b.toLowerCase()}`) && `${a} and ${b}`.length <= 40)
    return `${a} and ${b}`;
  const ranked = candidates
    .slice(0, 3)
    .map((p, order) => ({ p, order, words: Math.min(3, p.split(' ').length) }))
    .sort((x, y) => y.words - x.words || x.order - y.order);
  const best = ranked[0]?.p ?? '';
  if (best.split(' ').length >= 2) return best;
  const ask = nounPhrase(
    sentence
      .replace(/[.;:!?]+$/, '')
      .replace(ASK_OPENER, '')
      .trim(),
  );
  const words = ask.split(/\s+/).filter(Boolean);
  return words.length >= 1 && words.length <= 5 ? ask : best;
}

/** What a criterion is about, for its level descriptors: its own phrases, without the theme's bare name. */
function focusFor(group: Group, theme: Theme | null, name: string, phrases: Phrase[]): string {
  if (group.alternative) {
    const options = group.requirements
      .map((r) => bestPhrase(r.sentence.text.replace(OPTION_OPENER, '')))
      .filter(Boolean);
    return `either ${options.slice(0, 3).join(' or ')}`;
  }
  const themeName = new Set(theme ? contentStems(`${theme.name} ${theme.short}`) : []);
  const own = theme ? [] : [name.replace(/^[^:]+:\s*/, '')];
  const fromPhrases = cleanFocus(focusPhrases(phrases)).filter(
    (p) => !contentStems(p).every((s) => themeName.has(s)),
  );
  const chosen = [...own, ...fromPhrases].filter(
    (p, i, all) => p && all.findIndex((q) => q.toLowerCase() === p.toLowerCase()) === i,
  );
  const text = joinList(chosen.slice(0, theme ? 2 : 1).map(lowerOrdinary));
  if (theme) return text || 'the work';
  if (!text) return 'what the brief asks for';
  // A level must read as a sentence: "does not address the launch email", "… the requirement to load fast".
  const first = (text.match(/^[A-Za-z]+/)?.[0] ?? '').toLowerCase();
  if (ASK_VERBS.has(first)) return `the requirement to ${text}`;
  return /^(?:the|a|an|either|each|every|all|its|their|our|your|\d)\b/i.test(text) ? text : `the ${text}`;
}

/** Lower-cases the first letter of an ordinary word, keeping acronyms and names ("WCAG", "Figma"). */
function lowerOrdinary(phrase: string): string {
  return /^[A-Z][a-z]/.test(phrase) && !/^[A-Z][a-z]+[A-Z]/.test(phrase)
    ? `${phrase[0]?.toLowerCase()}${phrase.slice(1)}`
    : phrase;
}

const STRENGTH_LABEL: Readonly<Record<RequirementStrength, string>> = {
  must: 'Must',
  should: 'Should',
  implied: 'Implied by the brief',
  nice: 'Nice to have',
};
const MAX_LISTED = 8;
/** Bounds that keep a rubric readable (and inside the API's documented limits). */
const MAX_DESCRIPTION = 1000;
const MAX_SOURCE = 1000;
/** A level descriptor names the criterion's focus; a "phrase" from a brief without punctuation can be the whole brief. */
const MAX_FOCUS = 200;
const MAX_DESCRIPTOR = 500;

/**
 * A source quote of at most `MAX_SOURCE` characters. A longer "sentence" (a brief without
 * punctuation) is cut at a word boundary without an ellipsis, so it stays a verbatim prefix.
 */
function quoteSource(sentence: string): string {
  if (sentence.length <= MAX_SOURCE) return sentence;
  const cut = sentence.slice(0, MAX_SOURCE);
  const space = cut.search(/\s\S*$/);
  return (space > MAX_SOURCE / 2 ? cut.slice(0, space) : cut).trimEnd();
}

/** The theme's summary, then the group's requirements by strength, condensed. */
function describe(group: Group, focus: string[]): string {
  const intro = group.theme ? group.theme.summary : `Requirements about ${joinList(focus) || 'the brief'}.`;
  const parts: string[] = [intro];
  const ordered = rankRequirements(group.requirements);
  const listed = ordered.slice(0, MAX_LISTED);
  for (const strength of ['must', 'should', 'implied', 'nice'] as const) {
    const items = listed
      .filter((r) => r.strength === strength)
      .map((r) => truncateWords(normaliseSpace(r.sentence.text).replace(/[\s.;:!]+$/, ''), 200));
    if (items.length > 0) parts.push(`${STRENGTH_LABEL[strength]}: ${items.join('; ')}.`);
  }
  if (ordered.length > MAX_LISTED) parts.push(`(and ${ordered.length - MAX_LISTED} more)`);
  return truncateWords(parts.join(' '), MAX_DESCRIPTION);
}

/**
 * Integer weights summing to exactly 100: every criterion gets `MIN_WEIGHT`, the rest is
 * shared in proportion to `raw` by the largest-remainder method (ties: larger raw weight,
 * then earlier criterion), so rounding never drifts from 100.
 */
export function apportionWeights(raw: number[], total = 100): number[] {
  const n = raw.length;
  if (n === 0) return [];
  const floor = Math.min(MIN_WEIGHT, Math.floor(total / n));
  const rest = total - floor * n;
  const sum = raw.reduce((a, b) => a + b, 0);
  const exact = raw.map((r) => (sum > 0 ? (r / sum) * rest : rest / n));
  const weights = exact.map((x) => Math.floor(x));
  let left = rest - weights.reduce((a, b) => a + b, 0);
  const order = exact
    .map((x, i) => ({ i, rem: x - Math.floor(x), raw: raw[i] ?? 0 }))
    .sort((a, b) => b.rem - a.rem || b.raw - a.raw || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    weights[i] = (weights[i] ?? 0) + 1;
    left--;
  }
  return weights.map((w) => w + floor);
}

/** No single criterion may outweigh this share when there are three or more. */
export const MAX_CRITERION_WEIGHT = 40;

/**
 * Caps every weight at MAX_CRITERION_WEIGHT (when there are at least three criteria) and gives
 * the excess to the others in proportion to their raw weight, keeping integers that sum to 100.
 */
export function capWeights(weights: number[], raw: number[]): number[] {
  if (weights.length < 3) return weights;
  const out = [...weights];
  for (let round = 0; round < out.length; round++) {
    const excess = out.reduce((sum, w) => sum + Math.max(0, w - MAX_CRITERION_WEIGHT), 0);
    if (excess === 0) break;
    const open = out.map((w, i) => (w < MAX_CRITERION_WEIGHT ? i : -1)).filter((i) => i >= 0);
    for (let i = 0; i < out.length; i++) out[i] = Math.min(MAX_CRITERION_WEIGHT, out[i] ?? 0);
    const share = apportionWeights(
      open.map((i) => raw[i] ?? 1),
      excess + open.reduce((sum, i) => sum + (out[i] ?? 0), 0),
    );
    open.forEach((i, k) => {
      out[i] = share[k] ?? out[i] ?? 0;
    });
  }
  return out;
}

/**
 * Extracts a rubric from unstructured brief text.
 *
 * - 3–8 criteria whenever the brief has at least three sentences; a brief of one or two
 *   sentences yields one criterion per sentence, and a text with no words at all yields a
 *   single "Overall quality" criterion quoting the (trimmed) text. Callers that need three
 *   criteria should reject such short briefs before calling.
 * - `source` is always a verbatim, trimmed substring of `text` (at most 1,000 characters;
 *   descriptions too).
 * - Criteria are ordered by weight (heaviest first, ties in brief order) with ids `c1`, `c2`, ….
 * - `options.domain` (free-form, e.g. "Data Science") breaks ties between themes.
 */
export function extractRubric(text: string, options?: { domain?: string }): Rubric {
  const domain = fieldForDomain(options?.domain);
  const sentences = splitSentences(text);
  let requirements = findRequirements(sentences);
  const short = sentences.length <= SHORT_BRIEF_SENTENCES && text.length <= SHORT_BRIEF_CHARS;
  if (short)
    requirements = requirements.flatMap((r) =>
      r.sentence.bullet ? [r] : splitAsks(r.sentence).map((part) => toRequirement(part, r.strength)),
    );
  if (requirements.length < MIN_CRITERIA) requirements = informativeFallback(sentences, requirements, domain);
  markAlternatives(requirements, sentences);

  if (requirements.length === 0)
    return { criteria: [wholeTextCriterion(text)], passThreshold: DEFAULT_PASS_THRESHOLD };

  const groups = splitUp(mergeDown(groupByTheme(requirements, domain, short)));
  const raw = groups.map(groupWeight);
  const weights = capWeights(apportionWeights(raw), raw);
  const drafts = groups.map((group, i) => {
    const source = group.alternative ?? (rankRequirements(group.core)[0] as Requirement).sentence;
    // A theme names and describes the criterion only when its quoted sentence is about it.
    const labelled =
      group.theme !== null &&
      group.alternative === null &&
      classifyTheme(wholeWordStems(source.text), domain)?.key === group.theme.key;
    const theme = labelled ? group.theme : null;
    const phrases = phrasesOf({ ...group, theme });
    const focus = cleanFocus(focusPhrases(phrases));
    const name = criterionName(group, theme, source, phrases);
    const focusText = truncateWords(focusFor(group, theme, name, phrases), MAX_FOCUS);
    return {
      first: groupFirst(group),
      criterion: {
        id: '',
        name,
        description: describe({ ...group, theme }, focus),
        weight: weights[i] ?? 0,
        levels: fillLevels(theme?.levels ?? GENERIC_LEVELS, focusText).map((descriptor, level) => ({
          score: level + 1,
          descriptor: truncateWords(descriptor, MAX_DESCRIPTOR),
        })),
        source: quoteSource(source.text),
      } satisfies RubricCriterion,
    };
  });
  drafts.sort((a, b) => b.criterion.weight - a.criterion.weight || a.first - b.first);
  const names = new Map<string, number>();
  const criteria = drafts.map(({ criterion }, i) => {
    const seen = (names.get(criterion.name) ?? 0) + 1;
    names.set(criterion.name, seen);
    return { ...criterion, id: `c${i + 1}`, name: seen > 1 ? `${criterion.name} (${seen})` : criterion.name };
  });
  return { criteria, passThreshold: DEFAULT_PASS_THRESHOLD };
}

/** The last resort for a text without a single sentence: one criterion over the whole text. */
function wholeTextCriterion(text: string): RubricCriterion {
  const source = quoteSource(text.trim());
  const focus = 'the work described in the brief';
  return {
    id: 'c1',
    name: 'Overall quality',
    description: source
      ? `The work as a whole, judged against the brief: ${truncateWords(normaliseSpace(source), 200)}`
      : 'The work as a whole.',
    weight: 100,
    levels: fillLevels(GENERIC_LEVELS, focus).map((descriptor, i) => ({ score: i + 1, descriptor })),
    source,
  };
}

/** The requirement sentences found in a text, with their strengths (what step 2 keeps; useful for tests and debugging). */
export function findRequirementSentences(text: string): { text: string; strength: RequirementStrength }[] {
  return findRequirements(splitSentences(text)).map((r) => ({ text: r.sentence.text, strength: r.strength }));
}
