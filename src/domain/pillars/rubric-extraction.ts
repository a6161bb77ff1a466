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

import { isChatFiller } from './document-form';
import { fieldForDomain, fieldOfText } from './knowledge/detect';
import {
  excludedThing,
  isExclusionLeadIn,
  isLetterFormula,
  isSelfDescription,
  opensExclusion,
  readAsks,
  statesPenalty,
  withoutFormulas,
} from './requirements';
import { BARE_VERBS, isCleanName, nameProblem, SUBJECT_VERBS, THIRD_PERSON_VERBS } from './rubric-quality';
import {
  capitalise,
  contentStems,
  foldToken,
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
import {
  CRAFT_LEVELS,
  classifyTheme,
  fillLevels,
  GENERIC_LEVELS,
  PROHIBITION_LEVELS,
  RATIONALE_LEVELS,
  type Theme,
  type ThemeKey,
  themeStems,
  themesForBrief,
} from './themes';
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

export { MAX_CRITERIA, MAX_CRITERION_WEIGHT, MIN_CRITERIA } from './rubric-limits';

import { MAX_CRITERIA, MAX_CRITERION_WEIGHT, MIN_CRITERIA } from './rubric-limits';
/** The "meets expectations" level: a weighted mean at or above it passes. */
export const DEFAULT_PASS_THRESHOLD = 3;
/**
 * Weight every criterion gets before the rest is shared out. Zero, so weights follow the
 * documented strengths exactly (3:1 gives 30/30/30/10); `apportionWeights` still keeps each at 1 or more.
 */
const MIN_WEIGHT = 0;
/** Two unthemed requirements share a criterion when their content words overlap this much (Jaccard). */
const KEYWORD_GROUP_SIMILARITY = 0.2;

const OUT_OF_SCOPE =
  /\b(?:do(?:es)? not|don't|doesn't) need (?:a|an|any)\b|\b(?:do(?:es)? not|don't|doesn't|no|needn't) (?:need|have) to\b|\bneed not\b|\bnot (?:required|necessary|needed|expected|in scope)\b|\bout of scope\b|\bno need\b/;
// Logistics, not asks: "This should take about two days", "Questions? Email us".
const LOGISTICS =
  /\b(?:should|will|would|could|may) take (?:about |around |roughly |approximately |up to |no more than )?(?:\d+|a|an|one|two|three|four|five|six|seven|eight|ten|a few|several) (?:hours?|days?|weeks?|months?)\b|\b(?:email|contact|ask) (?:us|me|the hiring)\b|\b(?:submit|hand in|send|return|upload)\b(?: (?:it|this|the \w+|your \w+))? (?:within|in|by|before) (?:\d+|one|two|three|four|five|seven|ten|a) (?:hours?|days?|weeks?)\b|\bthe deadline is\b/;
const MUST_CUE =
  /\bmust\b|\b[a-z]+(?:ni|na) (?:hi )?(?:hai|hoga|hogi)\b|\bmsut\b|\bmst\b|\brequire?d\b|\brequred\b|\bzaroo?ri\b|\bzaruri\b|\bjaruri\b|\bcompulsory\b|\bkarna (?:hi )?(?:hai|hoga)\b|\bkarni (?:hai|hogi)\b|\bhona (?:hi )?(?:hai|hoga)\b|\bshall\b|\brequired\b|\bmandatory\b|\bha(?:s|ve) to\b|\bneeds? to\b|\bwe need\b|\bessential\b|\bnon-negotiable\b|\bwill be (?:assessed|evaluated|graded|judged|scored|marked|reviewed)\b|\bat (?:a |the )?minimum\b|\bcritical\b|\brequires?\b|\bcrucial\b|\bvital\b|\bparamount\b|\b(?:is|are) a must\b|\btop priority\b|\bkey requirement\b/;
const SHOULD_CUE =
  /\bshould\b|\b(?:likhna|karna|karo|banao|bhejna|dikhana|rakhna|banana)\b|\bshoud\b|\bshuold\b|\bshuld\b|\bsholud\b|\bshoudl\b|\bchahiye\b|\bchahie\b|\bexpect(?:ed)? (?:ki|ke)\b|\bwe expect\b|\bexpected to\b|\b(?:is|are) (?:also )?expected\b|\b(?:is|are) (?:very |really |especially |particularly )?important\b|\bexpects?\b|\bensure\b|\bmake sure\b|\bought to\b|\bwe want\b|\bwe(?:'d| would) like\b|\bwe are looking for\b|\byou will\b|\byour (?:task|job|goal) is\b|\bplease\b|\bkindly\b|\bdeliverables?\b|\brequirements?\b|\bneeds? (?:a|an|the)\b/;
const NICE_CUE =
  /\bnice[- ]to[- ]have\b|\b(?:is|are) welcome\b|\bas an extra\b|\bagar time\b|\bho sake toh\b|\boptional hai\b|\bwould be (?:nice|great|good|a plus|appreciated)\b|\bwe(?:'d| would) love\b|\b(?:is|are) appreciated\b|\bbonus\b|\b(?:is|are|be|as|considered) optional\b|\boptional(?:ly)?[,:.)]|^optional\b|\boptionally\b|\bideally\b|\bpreferably\b|\bstretch goals?\b|\bif (?:you have )?time\b|\bextra credit\b|\bcould\b|\bmay\b/;
/**
 * Prohibitions: the ask is that something be absent. Their levels reward compliance, so a
 * criterion never pays for doing what the brief forbids. ("Do not need to …" is out of
 * scope, not a prohibition, and is dropped before this is asked.)
 */
const PROHIBITION =
  /\b(?:must|should|shall|may|can|will|are|is|need) ?not\b|\b(?:mustn't|shouldn't|can't|cannot|won't)\b|\b(?:do|does) not\b|\bdon't\b|\bnever\b|\bavoid(?:s|ing)?\b|\bno\b[^.;]*\b(?:allowed|permitted|accepted)\b|\bforbidden\b|\bprohibited\b|\bnot (?:be )?(?:allowed|permitted|accepted)\b|^(?:[-*•]\s*)?no\s+(?!(?:need|problem|worries|experience|prior|one|matter)\b)[\w-]+(?:\s+(?!(?:is|are|was|were|be|needed|required|necessary)\b)[\w-]+){0,2}\s*(?:[.!:;—–]|$)/;
/** A sentence that opens by labelling itself as background ("Context: …", "About us: …"). */
const CONTEXT_LABEL =
  /^(?:context|background|about us|about the (?:company|team|client|business)|company (?:background|overview)|overview|who we are|our story|the situation)\s*(?:[:—–]|-\s)/i;

// Lists under these headings describe the context, not what to do.
const CONTEXT_HEADING =
  /\b(?:background|context|about|overview|who we are|company|history|team|introduction|problem statement)\b/;

/** Words that single an ask out: it weighs one strength step more. */
const EMPHASIS =
  /\b(?:very important|most important(?:ly)?|first and foremost|crucial|critical|above all|especially|key (?:requirement|priority)|top priority|non-negotiable|sabse (?:zaroori|important))\b/;
/**
 * Lead-ins and openers of a choice between alternatives: the candidate does one of them, so
 * they are one criterion, and neither option can cost points.
 */
const ALTERNATIVE_LEAD =
  /\b(?:pick|choose|select|do)\b[^.]*\b(?:one|either|any one)\b|\beither\b|\bone of (?:the following|these|two|three)\b|\bany one of\b|\bkoi (?:bhi )?ek\b|\bek choose\b/i;
const OPTION_OPENER = /^(?:option|alternative|choice)\s*(?:[a-z]|\d+)\b\s*[:.)-]?/i;

/**
 * Requirement cues of briefs written in Indian scripts, compared on `foldToken`ed text (no
 * nukta). JavaScript's `\b` knows only ASCII words, so these are bounded by "not a letter or
 * mark". Hindi: "अनिवार्य" (mandatory), "ज़रूरी"/"आवश्यक" (necessary), a verbal noun with
 * "है/होगा/होंगे" ("देना होगा": will have to give) say must; "चाहिए" (should, "होना चाहिए") and
 * "अपेक्षित" (expected) say should; "वैकल्पिक" (optional) and "हो सके तो" (if possible) say nice.
 * Marathi "पाहिजे", Bengali "উচিত"/"হবে"/"প্রয়োজন", Tamil "வேண்டும்" and Urdu "چاہیے"/"ضروری" too.
 */
const NOT_LETTER_BEFORE = '(?<![\\p{L}\\p{M}])';
const NOT_LETTER_AFTER = '(?![\\p{L}\\p{M}])';
const scriptCue = (words: string) => new RegExp(`${NOT_LETTER_BEFORE}(?:${words})${NOT_LETTER_AFTER}`, 'u');
const SCRIPT_MUST_CUE = scriptCue(
  'अनिवार्य|जरूरी|जरुरी|आवश्यक|अत्यावश्यक|[\\p{L}\\p{M}]+(?:ना|नी|ने) (?:ही )?(?:है|हैं|होगा|होगी|होंगे|होंगी)|आवश्यक आहे|অবশ্যই|প্রয়োজন|বাধ্যতামূলক|வேண்டும்|கட்டாயம்|ضروری|لازمی',
);
const SCRIPT_SHOULD_CUE = scriptCue('चाहिए|चाहिये|चाहिएं|अपेक्षित|पाहिजे|हवे|উচিত|হবে|চাই|چاہیے|چاہئے');
const SCRIPT_NICE_CUE = scriptCue(
  'वैकल्पिक|हो सके तो|अगर समय (?:हो|मिले)|अच्छा रहेगा|बोनस|ঐচ্ছিক|விருப்பத்தேர்வு|اختیاری',
);
/** Script prohibitions: "नहीं होना चाहिए" (must not be), "मत" (do not), "न करें" (do not do). */
const SCRIPT_PROHIBITION = scriptCue('नहीं|मत|न करें|न करना|নয়|না|கூடாது|نہیں|مت');

function cueStrength(text: string): RequirementStrength | null {
  const t = normaliseSpace(text.toLowerCase());
  const folded = foldToken(t);
  const must =
    MUST_CUE.test(t) ||
    SCRIPT_MUST_CUE.test(folded) ||
    (PROHIBITION.test(t) && !/\bshould(?:n't| not)\b/.test(t)) ||
    SCRIPT_PROHIBITION.test(folded);
  if ((NICE_CUE.test(t) || SCRIPT_NICE_CUE.test(folded)) && !must) return 'nice';
  if (must) return 'must';
  if (SHOULD_CUE.test(t) || SCRIPT_SHOULD_CUE.test(folded) || PROHIBITION.test(t)) return 'should';
  return null;
}

/** A requirement found in the brief. */
type Requirement = {
  sentence: Sentence;
  strength: RequirementStrength;
  /** Stated with emphasis ("crucial", "above all"): one step heavier. */
  emphasis: boolean;
  /** Asks that something be absent ("must not", "do not", "never", "avoid"). */
  prohibition: boolean;
  /** The lead-in of the choice this ask is one option of, when it is one. */
  alternativeOf: Sentence | null;
  /** Content stems of the sentence itself. */
  stems: Set<string>;
  /** Stems of the heading or "…:" line of its list: used for its theme only when its own words have none. */
  leadStems: Set<string>;
};

/** Decides whether a sentence is a requirement, and how strong. */
function classify(sentence: Sentence): RequirementStrength | null {
  // A story's "Given …" / "When …" sets the ask up; its "Then …" is the ask. A chat's "ok" asks nothing.
  if (sentence.context) return null;
  if (sentence.bullet && isChatFiller(sentence.text)) return null;
  // A source is quoted with at least two words (\`isQuotedSource\`): a one-word line ("Pricing?",
  // "Lifts") cannot be a criterion's source on its own.
  if ((sentence.text.match(/[\p{L}\p{N}][\p{L}\p{M}\p{N}'’-]*/gu) ?? []).length < 2) return null;
  const text = sentence.text;
  const lower = normaliseSpace(text.toLowerCase());
  const words = contentStems(text).length;
  // A run-on sentence whose exclusion is only one of its clauses ("… and we do not need a Hindi
  // version right now") is still an ask: the exclusion is cut off it later (`withoutExclusions`).
  const runOn =
    !sentence.bullet && text.split(/\s+/).length > RUN_ON_WORDS && !OUT_OF_SCOPE.test(lower.slice(0, 40));
  if ((OUT_OF_SCOPE.test(lower) && !runOn) || LOGISTICS.test(lower)) return null;
  // Letter formulas ("Regards,", "PFB the scope:"), a company describing itself and scope
  // exclusions ("Do NOT include …", "no need for …") ask for nothing to be graded.
  if (isLetterFormula(text) || isSelfDescription(text) || excludedThing(text) !== null) return null;
  if (sentence.bullet && isExclusionLeadIn(sentence.leadIn)) return null;
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

function findRequirements(sentences: Sentence[], text: string): Requirement[] {
  const out: Requirement[] = [];
  const context = contextSentences(sentences, text);
  // "Android app (Kotlin) for shop owners to record expenses offline." states the main ask without a cue.
  const opening = sentences.find((s) => !s.heading);
  if (
    opening &&
    !opening.bullet &&
    !context.has(opening.index) &&
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
    // Background ("Context: we run a shop. We want …") is not an ask unless it says "must".
    if (context.has(sentence.index) && strength !== 'must') continue;
    if (context.has(sentence.index) && CONTEXT_LABEL.test(sentence.text)) continue;
    out.push(toRequirement(sentence, strength));
  }
  return out;
}

/**
 * Sentences that describe the setting rather than the ask: a paragraph opened by a label
 * ("Context: …", "Background: …", "About us: …") up to the next blank line, heading or list,
 * and the prose under a heading such as "## Background" up to the next heading.
 */
function contextSentences(sentences: Sentence[], text: string): Set<number> {
  const out = new Set<number>();
  let underHeading = false;
  let paragraph = false;
  const labelled: { label: number; rest: number[] }[] = [];
  let previousEnd = 0;
  for (const s of sentences) {
    const gap = text.slice(previousEnd, s.start);
    previousEnd = s.start + s.text.length;
    if (s.heading) {
      const about = CONTEXT_HEADING.test(s.text.toLowerCase()) && !cueStrength(s.text);
      // "## Background" opens a section; "Background:" only the paragraph or list below it.
      underHeading = about && !s.text.endsWith(':');
      paragraph = about && s.text.endsWith(':');
      if (paragraph) labelled.push({ label: s.index, rest: [] });
      continue;
    }
    if (s.bullet || /\n[ \t]*\n/.test(gap)) paragraph = false;
    if (!s.bullet && CONTEXT_LABEL.test(s.text)) {
      paragraph = true;
      labelled.push({ label: s.index, rest: [] });
    } else if (paragraph) labelled[labelled.length - 1]?.rest.push(s.index);
    if (underHeading && !s.bullet) out.add(s.index);
  }
  // A labelled paragraph that runs to the end of the brief is the whole brief ("Background:
  // … We want … Patients need to …"): only its labelled sentence is background then.
  const last = sentences[sentences.length - 1]?.index;
  for (const { label, rest } of labelled) {
    out.add(label);
    if (!rest.includes(last ?? -1)) for (const i of rest) out.add(i);
  }
  return out;
}

function toRequirement(sentence: Sentence, strength: RequirementStrength): Requirement {
  const stems = new Set(contentStems(sentence.text));
  const leadStems = new Set(contentStems(sentence.leadIn ?? ''));
  const lower = normaliseSpace(sentence.text.toLowerCase());
  const emphasis = EMPHASIS.test(lower);
  const prohibition = isProhibition(sentence.text);
  return { sentence, strength, stems, leadStems, emphasis, prohibition, alternativeOf: null };
}

/**
 * Where a sentence's main clause ends: a relative or purpose clause ("… with two developers who
 * have never used us", "… so that feuding relatives never share a table") says something about
 * the ask's objects, not what the work must leave out.
 */
const SUBORDINATE_CLAUSE =
  /\s(?:who|whom|whose|which|so that|such that|so|where|because|since|unless|even if|even though|while|although|jo)\s|,\s*(?:checking|confirming|ensuring|making sure|verifying|showing|proving|so that)\s/;

/** The main clause of a sentence, for reading its modality. */
export function mainClause(text: string): string {
  const cut = text.search(SUBORDINATE_CLAUSE);
  return cut > 0 ? text.slice(0, cut) : text;
}

/** Whether a requirement forbids something rather than asking for it. */
export function isProhibition(text: string): boolean {
  const lower = normaliseSpace(text.toLowerCase());
  if (OUT_OF_SCOPE.test(lower)) return false;
  // "…, and avoid leakage" after an ask sets a quality bar on that ask (see `opensExclusion`).
  const head = mainClause(lower).replace(/(?:[,;]\s*|\s)(?:(?:and|but)\s+)?avoid(?:ing)?\s.*$/, '');
  return (
    PROHIBITION.test(head.trim() === '' ? lower : head) ||
    (SCRIPT_PROHIBITION.test(foldToken(lower)) && cueStrength(text) !== null)
  );
}

/** A clause that opens by forbidding something: "never log tokens", "do not use mocks" ("avoid" sets a bar on its ask instead). */
const PROHIBITION_CLAUSE = /^(?:please\s+)?(?:never|do not|don't|don’t|must not|should not)\s+\S/i;

/**
 * An ask with a prohibition joined to it ("Hash the passwords, and never log them"): the ask and
 * the prohibition, each a verbatim slice, graded on their own scales. A sentence that opens as a
 * prohibition stays whole; a trailing "and avoid …" stays with its ask as its quality bar.
 */
function withoutProhibitionTail(sentence: Sentence): Sentence[] {
  const text = sentence.text;
  if (isProhibition(mainClause(text).split(/[,;]|\s(?:and|but)\s/)[0] ?? text)) return [sentence];
  const m =
    /(?:;\s*|,\s*(?:(?:and|but)\s+)?|\s+(?:and|but)\s+)(?=(?:please\s+)?(?:never|do not|don't|don’t|must not|should not)\s)/i.exec(
      text,
    );
  if (!m || !PROHIBITION_CLAUSE.test(text.slice(m.index + m[0].length))) return [sentence];
  const head = text.slice(0, m.index).trim();
  const tailRaw = text.slice(m.index + m[0].length);
  const tail = tailRaw.trim();
  if (head.split(/\s+/).length < 2 || tail.split(/\s+/).length < 2) return [sentence];
  return [
    { ...sentence, text: head },
    { ...sentence, text: tail, start: sentence.start + m.index + m[0].length + tailRaw.indexOf(tail) },
  ];
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
/** A sentence longer than this many words is read clause by clause, as a list would be. */
const RUN_ON_WORDS = 40;
/** Verbs that start a further ask after "and" in a short brief ("… and work on mobile"). */
const ASK_VERBS = new Set([
  ...IMPERATIVE_VERBS,
  ...'work load look feel run handle scale respond explain show include cover send email post launch reach convert rank turn'.split(
    ' ',
  ),
]);

/** A verb of asking in the third person ("adds", "keeps", "returns", "comes", "supports"). */
function isThirdPersonAsk(word: string): boolean {
  if (!/s$/.test(word) || word.length < 4) return false;
  const base = [word.slice(0, -1), word.replace(/es$/, ''), word.replace(/ies$/, 'y')];
  return base.some((b) => ASK_VERBS.has(b) || THIRD_PERSON_EXTRA.has(b));
}
const THIRD_PERSON_EXTRA = new Set(
  'come accept reject retry survive support store return keep hold allow let give take offer display notify remind refund print sync block flag warn'.split(
    ' ',
  ),
);

/**
 * Splits a sentence into its asks: at ";", and at "and", "also", "plus" or a comma when the
 * next word is a verb ("Build a landing page, write the launch email and set up analytics").
 * Each part is a verbatim slice of the sentence, so it can be quoted as a source.
 */
const NEW_CLAUSE =
  /^(?:(?:please|pls|kindly)\s+[\p{L}]+\b|(?:it|we|they|there|this|these|those|everything|all|each|every|the\s+[\p{L}-]+(?:\s+[\p{L}-]+)?)\s+(?:must|should|shall|will|has to|have to|needs? to|is|are|can|cannot|do not|don't|may)\b)/iu;

export function splitAsks(sentence: Sentence): Sentence[] {
  const text = sentence.text;
  const cuts: number[] = [];
  const re = /\s*(?:;\s*|,?\s+(?:and|also|plus|aur|और)\s+|,\s+)(?=([\p{L}\p{M}]+))/gu;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const next = (m[1] ?? '').toLowerCase();
    // Hindi puts the verb last, so "aur" (and) joins two asks whatever follows it.
    // "Do not copy text; copied text will be penalised": the penalty belongs to the rule.
    if (statesPenalty(text)) break;
    if (
      m[0].includes(';') ||
      /\baur\b|और/.test(m[0]) ||
      ASK_VERBS.has(next) ||
      // "… and it should exclude …", "… and the governing law is …": a clause with its own subject.
      NEW_CLAUSE.test(text.slice(m.index + m[0].length)) ||
      // "…, adds less than 2 ms at p99, keeps the limits across a restart, returns 429 …":
      // a run-on sentence lists what its subject must do in the third person.
      (m[0].includes(',') && isThirdPersonAsk(next)) ||
      opensExclusion(text.slice(m.index + m[0].length))
    )
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
 * A sentence with the scope exclusions it carries cut off: "… and a one-page guide for
 * managers, and please don't redo the review process" keeps its asks and loses the exclusion,
 * which `readAsks` puts in `outOfScope`. Each part is a verbatim slice; none when the whole
 * sentence is an exclusion.
 */
function withoutExclusions(sentence: Sentence): Sentence[] {
  const text = sentence.text;
  const re = /\s*(?:;\s*|,\s*(?:(?:and|but)\s+)?|\s+(?:and|but)\s+|\s+[—–]\s+|\s+so\s+(?=no\b|we\s+don))/gu;
  const cuts: number[] = [];
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const next = text.slice(m.index + m[0].length);
    // After a semicolon a whole clause may be the exclusion ("…; racking changes are not part of this").
    if (opensExclusion(next) || (m[0].includes(';') && excludedThing(next) !== null))
      cuts.push(m.index, m.index + m[0].length);
  }
  if (cuts.length === 0) return excludedThing(text) === null ? [sentence] : [];
  const bounds = [0, ...cuts, text.length];
  const parts: Sentence[] = [];
  for (let i = 0; i < bounds.length; i += 2) {
    const from = bounds[i] as number;
    const raw = text.slice(from, bounds[i + 1]);
    const trimmed = raw.trim();
    if (trimmed.split(/\s+/).length < 2 || excludedThing(trimmed) !== null) continue;
    parts.push({ ...sentence, text: trimmed, start: sentence.start + from + raw.indexOf(trimmed) });
  }
  return parts;
}

/** A brief whose sentences average this many words or fewer is written in fragments. */
const TERSE_MEAN_WORDS = 12;

/**
 * A fragment that names an ask without a subject or a verb of being ("Notebook + CSV.",
 * "Loading schedule at the depot, 3:30 to 4:30 am."), as opposed to a sentence about the
 * setting ("Our customers order by phone.", "The website is old.") or a question.
 */
function isFragment(text: string): boolean {
  const t = text.trim();
  return (
    !t.endsWith('?') &&
    t.split(/\s+/).length <= TERSE_MEAN_WORDS + 3 &&
    contentStems(t).length >= 2 &&
    !LOGISTICS.test(t.toLowerCase()) &&
    !/\b(?:is|are|was|were|be|been|has|have|had|we|our|us|i|my|you|your|they|their|it|its|this|these|there|he|she)\b/i.test(
      t.replace(/\bfrom us\b/gi, ''),
    )
  );
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
  context: ReadonlySet<number>,
  allowed: ReadonlySet<ThemeKey>,
): Requirement[] {
  const taken = new Set(have.map((r) => r.sentence.index));
  const candidates = sentences
    .filter((s) => {
      const lower = normaliseSpace(s.text.toLowerCase());
      return (
        !taken.has(s.index) &&
        !context.has(s.index) &&
        // A story's "Given …" sets an ask up; it is never one, even to make up the count.
        !s.context &&
        // Nor is what is left of a sentence once its exclusion is cut off ("We already have photos so no photography needed").
        withoutExclusions(s).length === 1 &&
        withoutExclusions(s)[0]?.text === s.text &&
        !OUT_OF_SCOPE.test(lower) &&
        !LOGISTICS.test(lower) &&
        !isLetterFormula(s.text) &&
        !isSelfDescription(s.text) &&
        excludedThing(s.text) === null &&
        !(s.bullet && isExclusionLeadIn(s.leadIn))
      );
    })
    .map((s) => {
      const stems = new Set(contentStems(s.text));
      const themed = classifyTheme(stems, domain, allowed) ? 2 : 0;
      // Headings and "…:" lines say little on their own.
      const penalty = s.heading || s.text.endsWith(':') ? 3 : 0;
      return { s, score: stems.size + themed - penalty };
    })
    .sort((a, b) => b.score - a.score || a.s.index - b.s.index);
  // A brief written in fragments ("Loading schedule at the depot, 3:30 to 4:30 am.", "Notebook
  // + CSV.") states its asks without a verb or a modal: each short fragment is an ask of its own.
  const prose = sentences.filter((s) => !s.heading && !s.bullet);
  const meanWords = prose.reduce((sum, s) => sum + s.text.split(/\s+/).length, 0) / Math.max(1, prose.length);
  const fragments =
    prose.length > 0 && meanWords <= TERSE_MEAN_WORDS
      ? candidates.filter(({ s }) => !s.heading && isFragment(s.text))
      : [];
  const need = Math.max(0, MIN_CRITERIA - have.length);
  const chosen = new Set([...candidates.slice(0, need), ...fragments]);
  const added = [...chosen].map(({ s }) => toRequirement(s, 'implied'));
  return [...have, ...added].sort((a, b) => a.sentence.index - b.sentence.index);
}

type Group = {
  theme: Theme | null;
  /** The requirements the group was formed from (not merged in later): its source is one of them. */
  core: Requirement[];
  /** Set when a theme's group was split in two, so the parts need telling apart. */
  split: boolean;
  /** Formed from prohibitions: graded on the forbidden thing's absence. */
  prohibition: boolean;
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
const isTopPriority = (g: Group) =>
  g.requirements.some((r) => r.emphasis && TOP_PRIORITY.test(normaliseSpace(r.sentence.text.toLowerCase())));
const groupFirst = (g: Group) => g.first;

function newGroup(theme: Theme | null, requirements: Requirement[], split = false): Group {
  const group: Group = {
    theme,
    core: [],
    split,
    prohibition: requirements.length > 0 && requirements.every((r) => r.prohibition),
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
function groupByTheme(
  requirements: Requirement[],
  domain: CatalogueDomain,
  eachAsk: boolean,
  allowed: ReadonlySet<ThemeKey>,
): Group[] {
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
    // A prohibition is graded on its own scale (absence rewarded), so it never shares a
    // theme's criterion with asks for things to be present.
    if (r.prohibition) {
      const same = groups.find((g) => g.prohibition && jaccard(g.stems, r.stems) >= 0.5);
      if (same) addTo(same, r, true);
      else groups.push(newGroup(null, [r]));
      continue;
    }
    // A short brief: each ask stands alone unless it repeats another (repetition adds weight).
    if (eachAsk) {
      const same = groups.find((g) => g.alternative === null && jaccard(g.stems, r.stems) >= 0.5);
      if (same) addTo(same, r, true);
      else groups.push(newGroup(classifyTheme(r.stems, domain, allowed), [r]));
      continue;
    }
    // "Above all, correctness of matching is crucial." singles out an ask stated elsewhere
    // ("It must match statement lines …"): that ask leaves its theme's group and becomes a
    // criterion of its own, named for itself, with the emphasis added to it.
    if (r.emphasis && TOP_PRIORITY.test(normaliseSpace(r.sentence.text.toLowerCase()))) {
      const target = emphasisTarget(r, groups);
      if (target) {
        const { group, requirement } = target;
        if (group.requirements.length > 1 && group.alternative === null) {
          group.requirements.splice(group.requirements.indexOf(requirement), 1);
          group.core = group.core.filter((x) => x !== requirement);
          recount(group);
          const own = newGroup(null, [requirement]);
          addTo(own, r);
          groups.push(own);
          loose.push(own);
        } else addTo(group, r);
        continue;
      }
    }
    // A list item's own words decide; its heading only helps an item that says nothing
    // themed itself ("README should cover:" → "- how to run it").
    const theme =
      classifyTheme(r.stems, domain, allowed) ??
      classifyTheme(new Set([...r.stems, ...r.leadStems]), domain, allowed);
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

/** Emphasis that makes an ask the brief's top priority, not merely one step heavier. */
const TOP_PRIORITY =
  /\b(?:above all|most important(?:ly)?|top priority|first and foremost|key requirement|sabse (?:zaroori|important))\b/;

/** The earlier ask an emphasis sentence is about: the one sharing most content words with it. */
function emphasisTarget(r: Requirement, groups: Group[]): { group: Group; requirement: Requirement } | null {
  // Ties go to the ask sharing the emphasis sentence's earliest word, its topic: "reminders"
  // in "Most importantly, reminders must reach patients reliably."
  const order = [...new Set(contentStems(r.sentence.text))];
  let best: { group: Group; requirement: Requirement; shared: number; first: number } | null = null;
  for (const group of groups) {
    if (group.prohibition) continue;
    for (const requirement of group.requirements) {
      const shared = order.filter((x) => requirement.stems.has(x));
      if (shared.length === 0) continue;
      const first = order.indexOf(shared[0] as string);
      if (
        best === null ||
        shared.length > best.shared ||
        (shared.length === best.shared && first < best.first)
      )
        best = { group, requirement, shared: shared.length, first };
    }
  }
  return best;
}

/** Recomputes a group's weight, stems and first sentence after a requirement left it. */
function recount(group: Group): void {
  const members = group.requirements;
  group.requirements = [];
  group.stems = new Set();
  group.weight = 0;
  group.first = Number.POSITIVE_INFINITY;
  const core = new Set(group.core);
  group.core = [];
  for (const r of members) addTo(group, r, core.has(r));
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
    // Prohibitions go last: merged into another criterion, their own scale would be lost.
    const order = (g: Group) => [
      isTopPriority(g) ? 1 : 0,
      g.prohibition ? 1 : 0,
      g.theme === null ? 0 : 1,
      groupWeight(g),
      -groupFirst(g),
    ];
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
    // Prohibitions merge with prohibitions, asks with asks: one scale cannot reward both.
    // … and the brief's top priority is not diluted with other asks.
    const alike = out.filter((g) => g.prohibition === victim.prohibition && !isTopPriority(g));
    const candidates = alike.length > 0 ? alike : out;
    for (const g of candidates) {
      const sim = mergeSimilarity(victim, g);
      if (sim > bestSim) {
        target = g;
        bestSim = sim;
      }
    }
    // Nothing in common with any group: join the group of the nearest requirement in the
    // brief, since asks written next to each other are usually about the same thing.
    if (!target) target = nearestGroup(victim, candidates);
    // A theme's name must not cover heavier asks about something else ("Documentation" over
    // "Must process 100,000 lines …"): when the merged-in asks outweigh the group's own, the
    // criterion is named and graded for its strongest ask instead.
    const coreWeight = target.core.reduce((sum, r) => sum + STRENGTH_WEIGHT[r.strength], 0);
    const merged =
      target.theme !== null && victim.theme?.key !== target.theme.key && victim.weight > coreWeight;
    for (const r of victim.requirements) addTo(target, r, merged);
    if (merged) target.theme = null;
  }
  return out;
}

/** Splits the largest group in two (around its two least similar requirements) until there are three. */
function splitUp(groups: Group[]): Group[] {
  const out = [...groups];
  while (out.length < MIN_CRITERIA) {
    let largest: Group | null = null;
    for (const g of out) {
      // A choice stays one criterion, even when that leaves fewer than three; so does an ask
      // repeated word for word (it weighs more, it is not two asks).
      if (g.requirements.length < 2 || g.alternative !== null) continue;
      const first = g.requirements[0] as Requirement;
      if (g.requirements.every((r) => jaccard(r.stems, first.stems) === 1 && r.stems.size > 0)) continue;
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
    for (const part of out.slice(at, at + 2)) part.prohibition = largest.prohibition;
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
// Letters of any script, with their combining marks (Devanagari vowel signs, the nukta).
const WORD = /\d+(?:[.,]\d+)*(?:%|-[A-Za-z]+)?|\p{L}[\p{L}\p{M}\p{N}'’+#-]*/gu;

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
    while (
      run.length > 0 &&
      (IMPERATIVE_VERBS.has((run[0] as string).toLowerCase()) ||
        isThirdPersonAsk((run[0] as string).toLowerCase()))
    )
      run.shift();
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
    const tokens = foldToken(lower)
      .split(/[^\p{L}\p{M}\p{N}]+/u)
      .filter(Boolean);
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
  // Words of other scripts that carry no topic ("चाहिए", "है") go too, wherever they stand.
  const kept = text
    .split(/\s+/)
    .filter((w) => !HINGLISH.has(w.toLowerCase()))
    .filter((w) => /^[\p{Script=Latin}\p{N}\p{P}\p{S}]*$/u.test(w) || isContentWord(foldToken(w)));
  while (kept.length > 0 && DANGLING.has((kept[kept.length - 1] as string).toLowerCase())) kept.pop();
  while (kept.length > 0 && DANGLING.has((kept[0] as string).toLowerCase())) kept.shift();
  return kept.join(' ');
}

const HINGLISH: ReadonlySet<string> = new Set(HINGLISH_FUNCTION_WORDS);

function cleanFocus(phrases: string[]): string[] {
  return phrases
    .map(nounPhrase)
    .filter((p) => /\p{L}/u.test(p))
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
  // A theme's part is named by its topic ("Deployment: readiness probes"), not by an act.
  const own = bestPhrase(source.text, theme === null) || nounPhrase(phrases[0]?.text ?? '');
  if (theme && !group.split) return theme.name;
  if (theme && own) return `${theme.short}: ${truncateWords(own, 50)}`;
  return own ? capitalise(truncateWords(own, 60)) : (theme?.name ?? 'Additional requirements');
}

/** Subjects, modals and cues that open an ask but are no part of what it asks for. */
const ASK_OPENER =
  /^(?:(?:nice to have|bonus|optional|ideally|also|and|then|finally|please|plus|above all|most importantly|importantly|crucially|first and foremost)[:,]?\s+)*(?:(?:it|the \w+|this|we|you|they|candidates?|[\w-]+(?=\s+(?:must|should|shall|needs? to|has to|have to)\b))\s+)?(?:(?:must|should|shoud|shuld|shall|will|needs? to|has to|have to|is expected to|are expected to)\s+)?(?:(?:be able to|also)\s+)?/i;

/** A cue that closes an ask without naming anything ("Security is crucial", "Tests are expected"). */
const ASK_CLOSER =
  /\s+(?:is|are)\s+(?:also\s+)?(?:very\s+|really\s+|absolutely\s+)?(?:crucial|critical|essential|vital|paramount|important|required|mandatory|expected|needed|a must|compulsory|welcome|appreciated|optional|a plus)$/i;

/**
 * Verbs whose object is what the work hands over: the criterion is named for the object
 * ("Write show notes with timestamps" → "Show notes with timestamps", "Plan the seating" →
 * "Seating"). Any other verb names the act being graded ("Compare quotes from at least three
 * caterers" → "Comparing quotes from caterers").
 */
const MAKING_VERBS = new Set(
  'write build create make develop produce prepare draft provide deliver design compose generate define describe document specify summarise summarize outline list sketch prototype plan calculate compute estimate include mention'.split(
    ' ',
  ),
);
/** Verbs also read as nouns ("Survey results", "Test coverage"): a verb only before a determiner, a number or a pronoun. */
const NOUN_LIKE_VERBS = new Set(
  'test report plan map label query search research design record log model rank review tag mix master edit size benchmark document structure draft list survey code export import profile track train store set run work load show handle post email launch support use return fix update ship sketch outline segment record answer call check audit interview prototype measure monitor'.split(
    ' ',
  ),
);
/** Whether a stem left by "-ing" is a verb of asking ("cover", "rank", "writ(e)", "mapp" → "map"). */
function isAskVerb(base: string): boolean {
  const forms = [base, `${base}e`, base.replace(/([^aeiou])\1$/, '$1')];
  return forms.some((v) => IMPERATIVE_VERBS.has(v) || ASK_VERBS.has(v));
}
/** Verbs beyond the imperative list that open asks in briefs of other fields. */
const MORE_ASK_VERBS = new Set(
  'code cite tag mark mix master edit tie reconcile consume sustain assign query size turn redline calibrate traverse sample transcribe proofread localise localize schedule book'.split(
    ' ',
  ),
);
/** What a verb of how something behaves grades ("look good" → appearance, "load fast" → load time). */
const SENSE_NOUNS: Readonly<Record<string, string>> = {
  'look good': 'appearance',
  'look right': 'appearance',
  'look great': 'appearance',
  'load fast': 'load time',
  'load quickly': 'load time',
  'open fast': 'start-up time',
  'open quickly': 'start-up time',
  'start fast': 'start-up time',
  'respond fast': 'response time',
  'respond quickly': 'response time',
  'work offline': 'offline use',
  'run offline': 'offline use',
  'work on': 'compatibility',
  'run on': 'compatibility',
};
/** Verbs of a state to keep ("keep the cost under …", "stay", "look good"): the state is named, not the act. */
const STATE_VERBS = new Set('keep stay remain look feel be have use ensure make-sure seem sound'.split(' '));
/** An opener that leaves the act to the candidate: a modal, "you must", "nice to have:" — no subject of its own. */
const CANDIDATE_OPENER =
  /^(?:(?:nice to have|bonus|optional|ideally|also|and|then|finally|please|plus)[:,]?\s+)*(?:(?:you|we|candidates?|it|this)\s+)?(?:(?:must|should|shoud|shuld|shall|will|needs? to|has to|have to|is expected to|are expected to)\s+)?(?:(?:be able to|also)\s+)?$/i;
const DETERMINER_NEXT =
  /^(?:the|a|an|each|every|all|any|our|your|their|its|this|these|those|it|them|one|two|three|four|five|six|seven|eight|nine|ten|\d[\d,.]*\S*)$/i;
/** Where an object ends: a clause, a condition or a limit ("within 2 days", "above INR 50,000"). */
const OBJECT_END =
  /^(?:that|which|who|whom|whose|so|because|when|if|unless|where|while|since|until|within|under|below|above|over|before|after|by|per|against|including|even|once|then|than|using|via|as|must|should|can|will|first|next|later|afterwards|too)$/i;
/** A comparison with a figure ("under INR 1,200", "within 0.5%", "≥ 0.999"): the target, not the thing. */
const THRESHOLD =
  /\s*\b(?:under|below|above|over|within|at least|at most|less than|more than|fewer than|no more than|up to)\s+(?:INR|Rs\.?|USD|EUR)?\s*[₹$€]?\s*[\d.,]+\s*(?:%|(?:ms|s|sec(?:onds?)?|min(?:utes?)?|hours?|days?|working days|weeks?|months?|years?|pages?|words?|slides?|lakh|crore|k|mb|gb|kb|m|cm|mm|km|kg|g|px|dbtp|lufs|points?)\b)?|\s*[<>≤≥]=?\s*[\d.,]+\s*%?/giu;
/** A limit on a number is a threshold, not part of what is graded ("at least three caterers"). */
const NUMBER_LIMIT =
  /\b(?:at least|at most|no more than|no fewer than|no less than|more than|fewer than|less than|up to|minimum of|maximum of)\s+(?:\d[\d,.]*\S*|one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty|fifty|hundred)\s*/gi;

/**
 * A name from the ask's head: its opening verb and that verb's object, for an imperative or
 * modal ask ("Kindly assign an owner and a due day to every task" → "Assigning an owner and a due
 * day"). Null when the ask does not open with a verb, or the object is not a noun phrase.
 */
export function verbHeadName(asWritten: string): string | null {
  const sentence = normaliseSpace(withoutFormulas(asWritten))
    .replace(/^[-*•]\s*/, '')
    .replace(/^(?:kindly|please)\s+/i, '')
    .replace(/[.;:!?]+$/u, '');
  if (!/^[\p{Script=Latin}\p{N}\p{P}\p{S}\p{Z}]*$/u.test(sentence)) return null;
  const opener = sentence.match(ASK_OPENER)?.[0] ?? '';
  // A subject of its own before the modal ("The reserves must …") is not the candidate's act.
  if (opener && !CANDIDATE_OPENER.test(opener)) return null;
  const words = sentence
    .slice(opener.length)
    // "Turn the results into two personas": what it is turned into is what is handed over.
    .replace(/^(?:turn|convert|transform)\s+.+?\s+into\s+/i, 'produce ')
    .replace(NUMBER_LIMIT, '')
    .replace(/\b(?:each|all|any|some|both|one) of\s+(?:the\s+)?/gi, '')
    .split(/\s+/)
    .filter(Boolean);
  let adverb = '';
  if (/^[a-z]+ly$/i.test(words[0] ?? '') && words.length > 2)
    adverb = (words.shift() as string).toLowerCase();
  const verb = (words[0] ?? '').toLowerCase();
  const next = words[1] ?? '';
  const known =
    IMPERATIVE_VERBS.has(verb) ||
    ASK_VERBS.has(verb) ||
    MORE_ASK_VERBS.has(verb) ||
    // A verb no list knows, read by its place ("Scout at least 60 fields", "Weigh the sample").
    (!adverb && !opener && isImperative(sentence));
  // "Ensure cost under INR 1,200 per head per day", "Keep the cost under INR 900 per head":
  // what is ensured or kept, without its threshold.
  if ((verb === 'ensure' || verb === 'keep') && words.length > 2) {
    const what = words
      .slice(1)
      .join(' ')
      // What is kept ends where its state begins: "the language simple", "the numbering same as …".
      .split(
        /\s*[:;(—–]\s*|,\s+|\s+(?:same|identical|consistent|unchanged|simple|short|clear|intact|warm|as|so|because)\b/i,
      )[0]!
      .replace(/^that\s+/i, '')
      .replace(THRESHOLD, ' ')
      .replace(/^(?:the|a|an|each|every|all|any)\s+/i, '')
      .replace(/\s+/g, ' ')
      .trim();
    // "Keep it under 6 pages": a limit in pages, words or minutes is on the length.
    if (
      /^(?:it|them|this|everything)\b/i.test(what) &&
      /\b(?:pages?|words?|slides?|minutes?|seconds?)\b/i.test(sentence)
    )
      return 'Length';
    const name = fitName(capitalise(what));
    return name.split(' ').length >= 2 && nameProblem(name) === null && isCleanName(name) ? name : null;
  }
  // "It should look good on phones", "must work offline": the quality a state verb names.
  const quality =
    SENSE_NOUNS[`${verb} ${next.toLowerCase()}`] ?? (STATE_VERBS.has(verb) ? undefined : SENSE_NOUNS[verb]);
  if (quality) {
    const pair = SENSE_NOUNS[`${verb} ${next.toLowerCase()}`] !== undefined;
    // "work on cheap phones" → "compatibility with cheap phones".
    const rest =
      pair && NAME_PREPOSITION.test(next) ? ['with', ...words.slice(2)] : words.slice(pair ? 2 : 1);
    const from = rest.findIndex((w) => NAME_PREPOSITION.test(w));
    const place =
      from >= 0 && from <= 2
        ? rest
            .slice(from, from + 5)
            .join(' ')
            .split(/[,;]/)[0]!
            .replace(/\s+(?:too|also|as well)$/i, '')
        : '';
    const name = fitName(capitalise(`${quality} ${place}`.trim()));
    return nameProblem(name) === null && isCleanName(name) ? name : null;
  }
  if (!known || STATE_VERBS.has(verb)) return null;
  // "Tag assets that have no tag": a plural object after a verb-or-noun, with no verb of its own.
  const pluralObject =
    (/^[a-z]{3,}s$/.test(next) || NAME_PREPOSITION.test(words[2] ?? '')) &&
    /^[a-z]/.test(next) &&
    !/\b(?:is|are|was|were|must|should|will|shall|can|needs?)\b/i.test(mainClause(sentence));
  if (NOUN_LIKE_VERBS.has(verb) && !DETERMINER_NEXT.test(next) && !pluralObject) return null;
  const making = MAKING_VERBS.has(verb);
  // "Write in plain language", "Deploy to Kubernetes": no object, so no name from it.
  if (NAME_PREPOSITION.test(next)) return null;
  const object: string[] = [];
  let afterPreposition = -1;
  const contentCount = () =>
    object.filter((w) => !DETERMINER_NEXT.test(w) && !DANGLING.has(w.toLowerCase())).length;
  for (const [i, raw] of words.slice(1).entries()) {
    const clean = raw.replace(/[),.]+$/, '');
    const lower = clean.toLowerCase();
    const following = words[i + 2] ?? '';
    if (OBJECT_END.test(lower) || /^[(—–:;-]/.test(raw)) break;
    // "an issues list ranking each clause": a participle with an object of its own opens a clause.
    if (
      object.length > 0 &&
      /ing$/.test(lower) &&
      (DETERMINER_NEXT.test(following) || (contentCount() >= 2 && isAskVerb(lower.slice(0, -3))))
    )
      break;
    // "a bench worksheet the technicians can fill": a determiner right after the noun opens a clause.
    if (
      /^(?:the|a|an)$/.test(lower) &&
      contentCount() >= 1 &&
      !DANGLING.has((object[object.length - 1] ?? '').toLowerCase())
    )
      break;
    // "… and map one keyword to each article": a second ask.
    if (
      (lower === 'and' || lower === 'or') &&
      (ASK_VERBS.has(following.toLowerCase()) || MORE_ASK_VERBS.has(following.toLowerCase()))
    )
      break;
    if (NAME_PREPOSITION.test(lower)) {
      // The object's own noun phrase is enough once it has two words ("order form with pickup
      // slots" → "order form"); a one-word object keeps one short phrase that says what it is
      // of, for or from ("quotes from caterers"), not how it is made ("IBNR with chain-ladder").
      if (lower === 'of' && contentCount() < 2 && afterPreposition < 0) {
        object.push(clean);
        continue;
      }
      if (contentCount() >= 2 || afterPreposition >= 0 || !/^(?:for|from|on|about|to)$/.test(lower)) break;
      afterPreposition = object.length;
    }
    if (afterPreposition >= 0 && (object.length - afterPreposition > 4 || lower === 'and' || lower === 'or'))
      break;
    object.push(clean);
    if (clean !== raw) break;
  }
  const kept = object.filter((w, i) =>
    making || i > 0
      ? !/^(?:a|an|the|our|your|their|its)$/i.test(w)
      : !/^(?:a|an|our|your|their|its)$/i.test(w),
  );
  while (kept.length > 0 && DANGLING.has((kept[kept.length - 1] as string).toLowerCase())) kept.pop();
  while (kept.length > 0 && making && /^(?:the|each|every|all|any)$/i.test(kept[0] as string)) kept.shift();
  if (!kept.some((w) => /\p{L}{2}/u.test(w) && isContentWord(foldToken(w.toLowerCase())))) return null;
  // Too long for a name: the part before its "and" ("two hosts and one remote guest").
  const budget = MAX_NAME_WORDS - (making ? 0 : 1) - (adverb ? 1 : 0);
  // Too long for a name: first without its closing phrase ("NPV and IRR of the new branch" →
  // "NPV and IRR"), then the part before its "and" ("two hosts and one remote guest").
  let fitted = kept;
  const of = fitted.findIndex((w, i) => i > 0 && NAME_PREPOSITION.test(w));
  const headWords = fitted.slice(0, Math.max(0, of)).filter((w) => !/^(?:the|a|an)$/i.test(w)).length;
  if (fitted.length > budget && of > 0 && headWords >= 2) fitted = fitted.slice(0, of);
  const and = fitted.findIndex((w) => w.toLowerCase() === 'and');
  if (fitted.length > budget && and > 0) fitted = fitted.slice(0, and);
  const phrase = (making ? fitted : [adverb, gerund(verb), ...fitted].filter(Boolean))
    .join(' ')
    .replace(/(\d),(\d{3})\b/g, '$1$2');
  const name = fitName(capitalise(phrase));
  return nameProblem(name) === null && isCleanName(name) ? name : null;
}

/** Nouns of the acts a brief asks of a thing ("The reserves must reconcile …" → "reconciliation"). */
const ACT_NOUNS: Readonly<Record<string, string>> = {
  reconcile: 'reconciliation',
  review: 'review',
  trace: 'traceability',
  store: 'storage',
  cite: 'citations',
  cover: 'coverage',
  map: 'mapping',
  validate: 'validation',
  translate: 'translation',
  calibrate: 'calibration',
  code: 'coding',
  approve: 'approval',
  test: 'testing',
  encrypt: 'encryption',
  hash: 'hashing',
  log: 'logging',
  persist: 'persistence',
  render: 'rendering',
  deploy: 'deployment',
  export: 'export',
  sync: 'sync',
  format: 'formatting',
  sign: 'sign-off',
  label: 'labelling',
  structure: 'structure',
};
const PARTICIPLES: Readonly<Record<string, string>> = {
  reconciled: 'reconcile',
  reviewed: 'review',
  traced: 'trace',
  stored: 'store',
  cited: 'cite',
  covered: 'cover',
  mapped: 'map',
  validated: 'validate',
  translated: 'translate',
  calibrated: 'calibrate',
  coded: 'code',
  approved: 'approve',
  tested: 'test',
  encrypted: 'encrypt',
  hashed: 'hash',
  logged: 'log',
  persisted: 'persist',
  rendered: 'render',
  deployed: 'deploy',
  exported: 'export',
  synced: 'sync',
  formatted: 'format',
  signed: 'sign',
  labelled: 'label',
  labeled: 'label',
  structured: 'structure',
};
const SUBJECT_SKIP = /^(?:the|a|an|each|every|all|any|our|your|their|its|this|these|those)\s+/i;

/**
 * A name for an ask about a thing of the brief, from the thing and what is asked of it: "Music
 * must be royalty-free" → "Royalty-free music"; "The reserves must reconcile to the general
 * ledger" → "Reserves reconciliation"; "A second linguist must review the translation" →
 * "Second linguist review". Null for any other shape.
 */
export function subjectHeadName(asWritten: string): string | null {
  const clause = mainClause(normaliseSpace(withoutFormulas(asWritten)))
    .replace(/^[-*•]\s*/, '')
    .replace(/[.;:!?]+$/u, '')
    .trim();
  const m =
    /^((?:[\p{L}'’-]+\s+){0,5}?[\p{L}'’-]+)\s+(?:must|should|shall|needs? to|has to|have to)\s+(?:also\s+)?(?:(be|stay|remain)\s+)?([\p{L}-]+)(.*)$/iu.exec(
      clause,
    );
  if (!m) return null;
  // "the data from the lab": the thing, without where it comes from.
  const subject = (m[1] ?? '')
    .replace(SUBJECT_SKIP, '')
    .replace(/\s+(?:from|of|for|in|on|at|by|with)\s+.*$/i, '')
    .trim();
  if (!subject || NOT_A_SUBJECT.test(subject) || /^(?:it|this|that|they|we|you)$/i.test(subject)) return null;
  // "Whole thing must stay under INR 6 lakh": a ceiling in money is the budget.
  if (
    /^(?:stay|remain|be|cost)$/i.test(m[2] ?? m[3] ?? '') &&
    /\b(?:under|below|within|at most|less than)\s+(?:INR|Rs\.?|USD|EUR|[₹$€])/i.test(clause)
  )
    return GENERIC_SUBJECT.test(subject) ? 'Budget' : fitName(capitalise(`${lowerOrdinary(subject)} budget`));
  if (!subject.split(/\s+/).some((w) => isContentWord(foldToken(w.toLowerCase())))) return null;
  if (GENERIC_SUBJECT.test(subject)) return null;
  const copula = m[2];
  const word = (m[3] ?? '').toLowerCase();
  const rest = (m[4] ?? '').trim();
  let name: string | null = null;
  // "Music must be royalty-free": the quality and the thing.
  if (copula && rest === '' && /^[a-z]+(?:-[a-z]+)+$|^[a-z]{4,}$/.test(word) && !/(?:ed|en|ing)$/.test(word))
    name = `${word} ${lowerOrdinary(subject)}`;
  else {
    const verb = copula ? PARTICIPLES[word] : word;
    const noun = verb ? ACT_NOUNS[verb] : undefined;
    // A noun before another is singular: "Reserve reconciliation", "Article citations".
    const modifier = subject.replace(/([a-z]{3,}[^s])s$/, '$1');
    if (noun) name = `${modifier} ${noun}`;
    // "Orders should be emailed": the thing and what is done to it.
    else if (copula === 'be' && /^[a-z]{3,}(?:ed|en)$/.test(word))
      name = `${lowerOrdinary(subject)} ${word} ${rest.replace(/\b(?:the|a|an)\s+/gi, '')}`.trim();
  }
  if (!name) return null;
  const fitted = fitName(capitalise(name));
  return nameProblem(fitted) === null && isCleanName(fitted) ? fitted : null;
}
/** Subjects too general to name a criterion ("Whole thing", "Everything", "The work"). */
const GENERIC_SUBJECT =
  /^(?:whole thing|everything|anything|all|work|output|result|results|thing|things|it all)$/i;

/**
 * The most telling noun phrase of a sentence: the longest of its first three key phrases,
 * cleaned; two phrases joined by "and" in the sentence itself stay together ("NPV and IRR").
 * When the ask has no noun phrase of two words, the ask itself in a few words ("Load fast").
 */
function bestPhrase(asWritten: string, fromHead = true): string {
  const head = fromHead ? (verbHeadName(asWritten) ?? subjectHeadName(asWritten)) : null;
  if (head) return head;
  const whole = withoutFormulas(asWritten);
  // The name comes from the main clause when it has a phrase of its own: "… ek call script bhi
  // banani hai jo price objection handle kare" is about the call script.
  const main = mainClause(whole);
  const sentence =
    main !== whole && keyPhrases(main).some((p) => nounPhrase(p).split(' ').length >= 2) ? main : whole;
  const candidates = keyPhrases(sentence)
    .map(nounPhrase)
    .filter((p) => /\p{L}/u.test(p) && !/^\d/.test(p));
  const lower = sentence.toLowerCase();
  const [a, b] = candidates;
  if (a && b && lower.includes(`${a.toLowerCase()} and ${b.toLowerCase()}`) && `${a} and ${b}`.length <= 40)
    return `${a} and ${b}`;
  // A phrase with a figure in it ("INR 6 lakh", "last 8 weeks") is the ask's target, not what
  // is graded: any phrase without one comes first.
  const figure = (p: string) => (/\d/.test(p) ? 1 : 0);
  const ranked = candidates
    .slice(0, 3)
    .map((p, order) => ({ p, order, words: Math.min(3, p.split(' ').length) }))
    .sort((x, y) => figure(x.p) - figure(y.p) || y.words - x.words || x.order - y.order);
  const best = ranked[0]?.p ?? '';
  if (best.split(' ').length >= 2 || (best && figure(best) === 0 && ranked.some((r) => figure(r.p) === 1)))
    return best;
  const ask = nounPhrase(
    sentence
      .replace(/[.;:!?।॥。！？؟۔]+$/u, '')
      .replace(ASK_OPENER, '')
      .replace(ASK_CLOSER, '')
      .replace(/^(?:have|has|get|contain|offer|be)\s+(?:an?\s+|the\s+)?/i, '')
      .trim(),
  );
  const words = ask.split(/\s+/).filter(Boolean);
  return words.length >= 1 && words.length <= 5 ? ask : best;
}

/** A modal that leaves a verb after it: "must process", "should be able to export". */
const MODAL_BEFORE_VERB =
  /\b(?:must|should|shoud|shuld|shall|will|needs? to|has to|have to|is expected to|are expected to)\s+(?:(?:be able to|also)\s+)?$/i;
/** The longest ask quoted whole in level descriptors; longer ones are named by their phrases. */
const MAX_ASK = 150;

/**
 * A requirement as a level can quote it: "Must process 100,000 lines in under 60 seconds." →
 * "the requirement to process 100,000 lines in under 60 seconds", so the levels carry the
 * brief's own thresholds. Null when the sentence is not a modal or imperative ask in Latin
 * script, is a prohibition, or is too long to read inside a level.
 */
function requirementAsk(sentence: string): string | null {
  const text = normaliseSpace(withoutFormulas(sentence))
    .replace(/[.;:!?]+$/, '')
    .trim();
  if (!/^[\p{Script=Latin}\p{N}\p{P}\p{S}\p{Z}]*$/u.test(text)) return null;
  const opener = text.match(ASK_OPENER)?.[0] ?? '';
  const rest = text.slice(opener.length).trim();
  const first = (rest.match(/^[A-Za-z]+/)?.[0] ?? '').toLowerCase();
  if (first === 'not' || /^no\b/i.test(rest) || rest.length > MAX_ASK) return null;
  const verbFollows = MODAL_BEFORE_VERB.test(opener) || ASK_VERBS.has(first);
  if (verbFollows && rest.split(/\s+/).length >= 2) return `the requirement to ${lowerOrdinary(rest)}`;
  // A subject of its own ("Unmatched items must be listed …"): the sentence as a clause.
  const clause = text.replace(
    /^(?:(?:above all|most importantly|importantly|also|finally|please)[:,]?\s+)+/i,
    '',
  );
  if (
    /\b(?:must|should|shall|needs? to|has to|have to)\s+(?!not\b)\w/i.test(clause) &&
    clause.length <= MAX_ASK
  )
    return `the requirement that ${lowerOrdinary(clause)}`;
  return null;
}

/** What a criterion is about, for its level descriptors: its own phrases, without the theme's bare name. */
function focusFor(group: Group, theme: Theme | null, name: string, phrases: Phrase[]): string {
  if (group.alternative) {
    const options = group.requirements
      .map((r) => bestPhrase(r.sentence.text.replace(OPTION_OPENER, '')))
      .filter(Boolean);
    return `either ${options.slice(0, 3).join(' or ')}`;
  }
  if (!theme) {
    // An unthemed criterion is judged on its own ask, with the ask's figures ("in under 60 seconds").
    const core = rankRequirements(group.core)[0];
    const ask = core ? requirementAsk(core.sentence.text) : null;
    // The sentence that singled the ask out ("Above all, …") is not another requirement.
    const others = group.requirements.filter(
      (r) => r !== core && !(r.emphasis && TOP_PRIORITY.test(normaliseSpace(r.sentence.text.toLowerCase()))),
    );
    if (ask) return others.length > 0 ? `${ask} (and the others this criterion lists)` : ask;
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
  if (ASK_VERBS.has(first) || first === 'be' || first === 'have') return `the requirement to ${text}`;
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

/**
 * A requirement as a description lists it: without its closing punctuation (in any script:
 * "।", "。" …) and without a label its strength already says ("Nice to have: a forecast" under
 * "Nice to have:").
 */
function listedItem(r: Requirement): string {
  const text = normaliseSpace(r.sentence.text).replace(/[\s.;:!।॥۔。]+$/u, '');
  const label = `${STRENGTH_LABEL[r.strength].toLowerCase()}:`;
  const bare = text.toLowerCase().startsWith(label) ? text.slice(label.length).trim() : '';
  return truncateWords(bare || text, 200);
}

/** The theme's summary, then the group's requirements by strength, condensed; an ask repeated word for word is listed once. */
function describe(group: Group, focus: string[]): string {
  const intro = group.theme ? group.theme.summary : `Requirements about ${joinList(focus) || 'the brief'}.`;
  const parts: string[] = [intro];
  const seen = new Set<string>();
  const ordered = rankRequirements(group.requirements)
    .map((r) => ({ strength: r.strength, item: listedItem(r) }))
    .filter(({ item }) => !seen.has(item.toLowerCase()) && seen.add(item.toLowerCase()));
  const listed = ordered.slice(0, MAX_LISTED);
  for (const strength of ['must', 'should', 'implied', 'nice'] as const) {
    const items = listed.filter((r) => r.strength === strength).map((r) => r.item);
    if (items.length > 0) parts.push(`${STRENGTH_LABEL[strength]}: ${items.join('; ')}.`);
  }
  if (ordered.length > MAX_LISTED) parts.push(`(and ${ordered.length - MAX_LISTED} more)`);
  return truncateWords(parts.join(' '), MAX_DESCRIPTION);
}

/**
 * Integer weights summing to exactly 100, in proportion to `raw` (must 3, should 2, nice 1,
 * as documented) by the largest-remainder method (ties: larger raw weight, then earlier
 * criterion), so rounding never drifts from 100. A weight that rounds to 0 is raised to 1,
 * taken from the heaviest, so every criterion counts.
 */
export function apportionWeights(raw: number[], total = 100): number[] {
  const n = raw.length;
  if (n === 0) return [];
  const floor = Math.min(MIN_WEIGHT, Math.floor(total / n));
  const rest = total - floor * n;
  const lifted = (weights: number[]) => {
    for (let i = 0; i < n; i++) {
      if ((weights[i] ?? 0) + floor >= 1) continue;
      const heaviest = weights.indexOf(Math.max(...weights));
      weights[heaviest] = (weights[heaviest] ?? 0) - 1;
      weights[i] = 1 - floor;
    }
    return weights;
  };
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
  return lifted(weights).map((w) => w + floor);
}

/**
 * Caps every weight at MAX_CRITERION_WEIGHT (when there are at least three criteria) and gives
 * the excess to the others in proportion to their raw weight, keeping integers that sum to 100.
 */
export function capWeights(weights: number[], raw: number[]): number[] {
  if (weights.length < 3) return weights;
  const out = [...weights];
  // What is shared out never lifts a lighter ask to the weight of the heaviest: it stops one below.
  const heaviest = Math.max(...raw);
  const cap = (i: number) => ((raw[i] ?? 0) < heaviest ? MAX_CRITERION_WEIGHT - 1 : MAX_CRITERION_WEIGHT);
  for (let round = 0; round < out.length; round++) {
    const excess = out.reduce((sum, w, i) => sum + Math.max(0, w - cap(i)), 0);
    if (excess === 0) break;
    const open = out.map((w, i) => (w < cap(i) ? i : -1)).filter((i) => i >= 0);
    if (open.length === 0) break;
    for (let i = 0; i < out.length; i++) out[i] = Math.min(cap(i), out[i] ?? 0);
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
export function extractRubric(
  text: string,
  options?: { domain?: string },
): Rubric & { outOfScope: string[] } {
  const domain = fieldForDomain(options?.domain);
  const allowed = themesForBrief(text, fieldOfText(options?.domain, text));
  const sentences = splitSentences(text);
  const { outOfScope } = readAsks(sentences);
  // An exclusion inside a sentence ("…, and please don't redo X") is scope, not part of the ask.
  let requirements = findRequirements(sentences, text).flatMap((r) => {
    const parts = withoutExclusions(r.sentence).flatMap(withoutProhibitionTail);
    return parts.length === 1 && parts[0] === r.sentence
      ? [r]
      : parts.map((part) => toRequirement(part, cueStrength(part.text) ?? r.strength));
  });
  const short = sentences.length <= SHORT_BRIEF_SENTENCES && text.length <= SHORT_BRIEF_CHARS;
  // A short brief's asks each stand alone; so do the asks of a run-on sentence in any brief
  // ("shortlist three venues …, prepare a budget … and draft a run-of-show …").
  requirements = requirements.flatMap((r) =>
    !r.sentence.bullet && (short || r.sentence.text.split(/\s+/).length > RUN_ON_WORDS)
      ? splitAsks(r.sentence).map((part) => toRequirement(part, cueStrength(part.text) ?? r.strength))
      : [r],
  );
  requirements = informativeFallback(
    sentences,
    requirements,
    domain,
    contextSentences(sentences, text),
    allowed,
  );
  markAlternatives(requirements, sentences);

  if (requirements.length === 0)
    return { criteria: [wholeTextCriterion(text)], passThreshold: DEFAULT_PASS_THRESHOLD, outOfScope };

  const groups = splitUp(mergeDown(groupByTheme(requirements, domain, short, allowed)));
  // The ask the brief puts "above all" weighs most: at least one more than any other.
  const heaviestOther = (g: Group) => Math.max(0, ...groups.filter((x) => x !== g).map(groupWeight));
  for (const g of groups) if (isTopPriority(g)) g.weight = Math.max(g.weight, heaviestOther(g) + 1);
  // A brief of one or two asks still gets the documented three criteria: the asks, then how
  // well the main one is made and how well it is explained, weighted as "should".
  const padding = Math.max(0, MIN_CRITERIA - groups.length);
  const raw = [...groups.map(groupWeight), ...Array<number>(padding).fill(STRENGTH_WEIGHT.should)];
  const weights = capWeights(apportionWeights(raw), raw);
  const drafts = groups.map((group, i) => {
    const source = group.alternative ?? (rankRequirements(group.core)[0] as Requirement).sentence;
    // A theme names and describes the criterion only when its quoted sentence is about it.
    const labelled =
      group.theme !== null &&
      group.alternative === null &&
      classifyTheme(wholeWordStems(source.text), domain, allowed)?.key === group.theme.key;
    const theme = labelled ? group.theme : null;
    if (group.prohibition) return prohibitionDraft(group, source, weights[i] ?? 0);
    const phrases = phrasesOf({ ...group, theme });
    const focus = cleanFocus(focusPhrases(phrases));
    // A table row is named for its first cell when that is a label ("Revenue", "Lobby").
    const cells = source.text.split(/\t+|\s+\|\s+| {3,}/).map((c) => c.trim());
    // A one-word label ("Rent", "Lint") names the row's heading, not what it asks: the row's own words name it.
    const label = cells.length >= 2 ? rowLabel(cells) : null;
    // A story outcome is named by its scenario's title ("Price drop"; a bare verb as its act: "Removing").
    const titled = source.title
      ? capitalise(
          IMPERATIVE_VERBS.has(source.title.toLowerCase())
            ? gerund(source.title.toLowerCase())
            : source.title,
        )
      : null;
    const named = label ?? titled;
    const name =
      named && isCleanName(named) && nameProblem(named, source.text) === null
        ? named
        : criterionName(group, theme, source, phrases);
    const own = bestPhrase(source.text, theme === null);
    // When two criteria would share a name, each is named for its own sentence instead.
    const alternativeName =
      theme && own ? `${theme.short}: ${truncateWords(own, 50)}` : capitalise(truncateWords(own, 60));
    const focusText = truncateWords(cleanText(focusFor(group, theme, name, phrases)), MAX_FOCUS);
    return {
      first: groupFirst(group),
      alternativeName,
      // "Take a dose" → "Taking a dose": the scenario's title as its act, for when the name is refused.
      titleAct: titled ? asAct(titled) || titled : '',
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
  if (padding > 0) {
    const main = drafts.reduce((best, d) => (d.criterion.weight > best.criterion.weight ? d : best));
    const focus = mainFocus(main.criterion);
    const extra = [
      {
        name: 'Quality of execution',
        levels: CRAFT_LEVELS,
        intro: 'How well the work the brief asks for is made.',
      },
      {
        name: 'Explanation of choices',
        levels: RATIONALE_LEVELS,
        intro: 'How clearly the candidate explains what they made and why.',
      },
    ].slice(0, padding);
    extra.forEach((x, k) => {
      drafts.push({
        first: Number.POSITIVE_INFINITY,
        criterion: {
          id: '',
          name: x.name,
          description: `${x.intro} The brief states fewer than three asks, so this criterion is derived from its main ask (the quoted source).`,
          weight: weights[groups.length + k] ?? 0,
          levels: fillLevels(x.levels, focus).map((descriptor, level) => ({
            score: level + 1,
            descriptor: truncateWords(descriptor, MAX_DESCRIPTOR),
          })),
          source: main.criterion.source,
        },
      });
    });
  }
  drafts.sort((a, b) => b.criterion.weight - a.criterion.weight || a.first - b.first);
  // Names tell criteria apart: colliding ones are named for their own sentence, then quote it.
  const taken = new Set<string>();
  const criteria = drafts.map(
    (draft: { criterion: RubricCriterion; alternativeName?: string; titleAct?: string }, i) => {
      const { criterion } = draft;
      let name = fitName(cleanText(criterion.name));
      const alternative = draft.alternativeName;
      if (drafts.filter((d) => fitName(cleanText(d.criterion.name)) === name).length > 1 && alternative)
        name = fitName(cleanText(alternative));
      if (taken.has(name))
        name = fitName(
          capitalise(cleanText(withoutFormulas(criterion.source)).replace(/[\s.;:!?।॥]+$/u, '')),
        );
      // The rules every rubric must pass (`rubricProblems`) judge the name too: one they refuse
      // (a letter formula, a lone generic noun, a cut-off fragment, a spliced "&") is replaced by
      // the first candidate they accept: the name without formulas, the sentence's own name, its
      // key phrases (longest first), its opening words.
      if (!acceptableName(name, taken, criterion.source, domain)) {
        // A table row is named from its cells after the label ("Rent<TAB>Stall fee …" → "Stall fee …").
        const rowCells = criterion.source.split(/\t+|\s*\|\s*| {3,}/).filter((c) => c.trim() !== '');
        const source = cleanText(
          withoutFormulas(rowCells.length >= 2 ? rowCells.slice(1).join(', ') : criterion.source),
        );
        const candidates = [
          capitalise(fitName(cleanText(withoutFormulas(name)))),
          alternative ? capitalise(fitName(cleanText(withoutFormulas(alternative)))) : '',
          // "Renew a loan" → "Renewing a loan": an instruction named as its act.
          asAct(fitName(cleanText(withoutFormulas(name)))),
          draft.titleAct ?? '',
          ...clauseAsNounPhrase(source),
          ...completedHead(name, source),
          ...keyPhrases(source)
            .filter((p) => p.split(' ').length >= 2)
            .sort((a, b) => b.split(' ').length - a.split(' ').length)
            .map((p) => capitalise(fitName(p))),
          capitalise(fitName(source.replace(/[\s.;:!?।॥]+$/u, ''))),
          // "the section has to show the footing and the batter" → "Showing the footing and the batter".
          ...[
            verbHeadName(
              source.replace(/^.*?\b(?:must|should|shall|has to|have to|needs? to|will)\s+(?:be\s+)?/i, ''),
            ),
          ]
            .filter((x): x is string => x !== null)
            .map((x) => capitalise(fitName(x))),
        ];
        // Last, the theme the sentence is about ("Functionality & API design"): a label, never a refused name.
        const theme = classifyTheme(wholeWordStems(criterion.source), domain, allowed);
        if (theme) candidates.push(theme.name);
        name = candidates.find((c) => acceptableName(c, taken, criterion.source, domain)) ?? name;
      }
      // Identical sources (a brief that repeats itself word for word) are the only case left.
      for (let n = 2, base = name; taken.has(name); n++) name = `${base}, ${ORDINALS[n] ?? n}`;
      taken.add(name);
      return { ...criterion, id: `c${i + 1}`, name };
    },
  );
  return { criteria, passThreshold: DEFAULT_PASS_THRESHOLD, outOfScope };
}

/** Opens a prohibition: the subject, the modal and the negation ("You must not", "Do not", "Never", "No"). */
const PROHIBITION_OPENER =
  /^(?:(?:please|also|and|but|note|finally|important(?:ly)?)[:,]?\s+)*(?:(?:it|the [\w-]+|this|we|you|they|candidates?|submissions?|your [\w-]+)\s+)?(?:(?:must|should|shall|may|can|will|need|do|does|is|are)\s*(?:not|n't)|mustn't|shouldn't|can't|cannot|won't|don't|never|avoid(?:ing)?|no)\s+(?:be\s+)?/i;
const PROHIBITION_CLOSER =
  /\s+(?:is|are|will be)\s+(?:not\s+)?(?:allowed|permitted|accepted|forbidden|prohibited)$|\s+(?:allowed|permitted)$/i;
/** Verbs that open what a prohibition forbids, beyond the imperative verbs ("commit secrets"). */
const FORBIDDEN_VERBS = new Set(
  'commit copy paste hardcode hard-code rely depend call leak push exceed plagiarise plagiarize modify change edit reuse embed send upload'.split(
    ' ',
  ),
);

/** "-ing" form of a verb: "use" → "using", "commit" → "committing", "store" → "storing". */
function gerund(verb: string): string {
  const v = verb.toLowerCase();
  if (v.endsWith('ie')) return `${verb.slice(0, -2)}ying`;
  // British spelling, as the rest of the project: "labelling", "modelling", "cancelling".
  if (/[^aeiou][aeiou]l$/.test(v) && v.length > 4) return `${verb}ling`;
  if (v.endsWith('e') && !v.endsWith('ee') && v.length > 2) return `${verb.slice(0, -1)}ing`;
  if (/^(?:[^aeiou]*[aeiou][bdgmnprt]|commit|submit|admit|omit|permit|refer|forget|begin|control)$/.test(v))
    return `${verb}${verb.slice(-1)}ing`;
  return `${verb}ing`;
}

/** What a prohibition forbids, as a phrase that follows "avoid": "Must not use paid tools" → "using paid tools". */
export function forbiddenThing(sentence: string): string {
  const strip = (text: string) =>
    text
      .replace(/[.;:!?।॥。！？؟۔]+$/u, '')
      .replace(PROHIBITION_OPENER, '')
      .replace(PROHIBITION_CLOSER, '')
      .trim();
  const whole = normaliseSpace(sentence);
  // "No plagiarism: we run every draft through a checker": what follows the colon is the why,
  // unless the colon introduces the forbidden things themselves ("Do not use: jQuery, lodash").
  const head = strip(whole.replace(/\s*(?::|\s[—–]|\s-)\s.*$/u, ''));
  const headWords = head.split(' ').filter(Boolean);
  const onlyVerb =
    headWords.length === 1 &&
    [IMPERATIVE_VERBS, ASK_VERBS, FORBIDDEN_VERBS].some((set) => set.has((headWords[0] ?? '').toLowerCase()));
  const bare = /\p{L}/u.test(head) && !onlyVerb ? head : strip(whole).replace(/^(\S+):\s/u, '$1 ');
  if (!/^[\p{Script=Latin}\p{N}\p{P}\p{S}\s]*$/u.test(bare)) return nounPhrase(bare) || bare;
  const [first = '', ...rest] = bare.split(' ');
  const lower = first.toLowerCase();
  if (IMPERATIVE_VERBS.has(lower) || ASK_VERBS.has(lower) || FORBIDDEN_VERBS.has(lower))
    return [gerund(lower), ...rest].join(' ');
  return lowerOrdinary(bare);
}

/** Subjects that are the candidate or the work itself, not a thing the rule is about. */
const NOT_A_SUBJECT =
  /^(?:it|we|you|they|this|that|these|those|there|he|she|i|candidates?|submissions?|the candidate|the submission|the work|your \S+|our \S+)$/i;

/**
 * A rule about a thing of the brief ("Stock must never go negative", "a slot can never be double
 * booked") named for the thing and the rule: "Stock never negative", "Slot never double booked";
 * null when the sentence forbids an action of the candidate ("Do not copy", "You must not …").
 */
export function subjectRuleName(sentence: string): string | null {
  const clause = mainClause(normaliseSpace(withoutFormulas(sentence)))
    .replace(/^[-*•]\s*/, '')
    .replace(/[.;:!?]+$/u, '')
    .trim();
  const m =
    /^(?:(?:the|a|an|each|every|any)\s+)?((?:[\p{L}\p{N}'’-]+\s+){0,2}?[\p{L}\p{N}'’-]+)\s+(?:must|should|shall|can|may|will|is|are|does|do)\s*(n't|not|never)\s+(?:(?:ever|never)\s+)?(?:(?:be|go|become|get|fall|drop)\s+)?(.+)$/iu.exec(
      clause,
    );
  if (!m) return null;
  const subject = (m[1] ?? '').trim();
  const predicate = (m[3] ?? '').trim();
  if (
    NOT_A_SUBJECT.test(subject) ||
    !/\p{L}/u.test(predicate) ||
    !/^[\p{Script=Latin}\s'’-]+$/u.test(subject)
  )
    return null;
  const middle = m[0].slice(subject.length, m[0].length - predicate.length);
  const negation = /never/i.test(middle) ? 'never' : 'not';
  // "Bed occupancy must never exceed the beds" → "Bed occupancy never exceeds sanctioned beds":
  // the verb agrees with a singular subject, and articles go as in any name.
  const [first = '', ...others] = predicate.replace(/\b(?:the|a|an)\s+/gi, '').split(/\s+/);
  const linked = /\b(?:be|go|become|get|fall|drop)\s+$/i.test(middle);
  const verb =
    !linked && !/s$/i.test(subject) && /^[a-z]{3,}$/.test(first) && !/(?:[^e]ed|en|ing|s)$/.test(first)
      ? first.replace(/(?:([^aeiou])y|(s|x|z|ch|sh))$/, (_, c, sib) => (c ? `${c}ie` : (sib ?? ''))) +
        (/(?:s|x|z|ch|sh)$/.test(first) ? 'es' : 's')
      : first;
  const name = fitName(capitalise(`${lowerOrdinary(subject)} ${negation} ${[verb, ...others].join(' ')}`));
  return name.split(/\s+/).length >= 3 ? name : null;
}

/** A prohibition's criterion: named for what it rules out, its levels rewarding the absence. */
function prohibitionDraft(
  group: Group,
  source: Sentence,
  weight: number,
): { first: number; criterion: RubricCriterion } {
  const things = rankRequirements(group.requirements)
    .map((r) => truncateWords(forbiddenThing(r.sentence.text), 80))
    .filter((t, i, all) => t && all.indexOf(t) === i);
  const own = truncateWords(forbiddenThing(source.text), 60) || 'what the brief rules out';
  const ruled = subjectRuleName(source.text);
  const focus = truncateWords(joinList(things.slice(0, 2)) || own, MAX_FOCUS);
  const listed = rankRequirements(group.requirements)
    .slice(0, MAX_LISTED)
    .map((r) => truncateWords(normaliseSpace(r.sentence.text).replace(/[\s.;:!।]+$/u, ''), 200));
  return {
    first: groupFirst(group),
    criterion: {
      id: '',
      name: ruled ?? capitalise(`Avoids ${own}`),
      description: truncateWords(
        `What the brief rules out: the work is graded on keeping it out. Must not: ${listed.join('; ')}.`,
        MAX_DESCRIPTION,
      ),
      weight,
      levels: fillLevels(PROHIBITION_LEVELS, focus).map((descriptor, level) => ({
        score: level + 1,
        descriptor: truncateWords(descriptor, MAX_DESCRIPTOR),
      })),
      source: quoteSource(source.text),
    },
  };
}

/** Words a name may not end on: they leave it cut off ("Dedupes lines across large"). */
const NAME_TAIL =
  /^(?:first|too|also|then|only|later|again|and|or|of|for|with|to|the|a|an|in|on|by|as|at|&|be|is|are|was|were|been|can|could|must|should|shall|will|would|may|might|never|not|has|have|had|do|does|even|better|worse|higher|lower|faster|slower|greater|fewer|larger|smaller|versus|vs|across|over|under|between|within|without|per|via|into|from|than|about|after|before|during|so|that|which|who|when|large|small|big|high|low|new|full|many|multiple|various|different|each|every|all|some|any|more|less|most|least|\d[\d.,%]*)$/i;
const NAME_PREPOSITION =
  /^(?:for|with|to|in|on|by|at|across|over|under|between|within|from|into|via|per|of)$/i;
/** Most words a criterion name has, a choice's options aside. */
const MAX_NAME_WORDS = 6;

/**
 * A name cut to a noun phrase of at most six words: at its first clause boundary, then, when
 * still too long, before its last preposition within the limit, and never ending on a function
 * word or a modifier without its noun. A theme's "Short: " prefix counts towards the six.
 */
export function fitName(name: string): string {
  if (/^Choice:/.test(name)) return name;
  const prefix = name.match(/^([A-Z][\w ]{0,20}):\s+/)?.[0] ?? '';
  const rest = name
    .slice(prefix.length)
    .split(/\s*(?:[,;:(—–|\t>]| {3,}|\s-\s|\s(?:so that|that|which|who|when|because|since|unless|if)\s)/)[0]!
    .replace(/[.…!?]+$/u, '')
    .trim();
  const budget = MAX_NAME_WORDS - (prefix ? prefix.trim().split(/\s+/).length : 0);
  let words = rest.split(/\s+/).filter(Boolean);
  if (words.length > budget) {
    let cut = budget;
    for (let i = budget; i >= 2; i--)
      if (NAME_PREPOSITION.test(words[i] ?? '')) {
        cut = i;
        break;
      }
    words = words.slice(0, cut);
  }
  while (words.length > 1 && NAME_TAIL.test(words[words.length - 1] ?? '')) words.pop();
  const fitted = words.join(' ');
  return fitted ? `${prefix}${fitted}` : name;
}

/**
 * A table row's name from its label cell: a label of two or three words as it is; a one-word
 * label with the row's own qualifier ("Revenue" + "by product line and month" → "Revenue by
 * product line and month"), or alone when it is a noun ("Cash"); never a verb ("Lint", "Deploy"),
 * which names the stage, not what the row asks.
 */
function rowLabel(cells: string[]): string | null {
  const label = (cells[0] ?? '').trim();
  const n = label.split(/\s+/).length;
  if (n === 2 || n === 3) return capitalise(label);
  if (n !== 1 || label === '' || ONE_WORD_VERB_LABEL.test(label)) return null;
  // "by month" qualifies the row; "by 10 Jan", "by Friday" is a deadline.
  const by =
    /(?:^|\s)by\s+(?!\d|(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|the end\b|end\b|next\b|tomorrow\b)([^,;.\d]+)/i.exec(
      cells.slice(1).join(' '),
    );
  return by ? capitalise(fitName(`${label} by ${(by[1] ?? '').trim()}`)) : capitalise(label);
}
const ONE_WORD_VERB_LABEL = {
  test: (w: string) =>
    BARE_VERBS.has(w.toLowerCase()) ||
    /^(?:lint|test|build|deploy|notify|cancel|retry|report|review)$/i.test(w),
};

/** A name opening with a bare verb as its act ("Tie back the totals" → "Tying back the totals"); '' otherwise. */
function asAct(name: string): string {
  const [first = '', ...rest] = name.split(/\s+/);
  if (rest.length === 0 || !BARE_VERBS.has(first.toLowerCase())) return '';
  return capitalise([gerund(first.toLowerCase()), ...rest].join(' '));
}

/**
 * A refused head completed from its sentence: "Class" → "Class of 40" (a head cut off its "of"),
 * "Expect" → "Tests for every endpoint" (a verb's object), "Stays marked" → "Dose marked" (the
 * predicate with its subject noun).
 */
function completedHead(name: string, sentence: string): string[] {
  const head = name.trim();
  const out: string[] = [];
  const escaped = head.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const of = new RegExp(`\\b${escaped}\\s+of\\s+([\\p{L}\\p{N}][\\p{L}\\p{N}'’-]*)`, 'iu').exec(sentence);
  if (of) out.push(capitalise(`${head.toLowerCase()} of ${of[1]}`));
  if (!/\s/.test(head) && ONE_WORD_ACTS.test(head)) {
    const after = new RegExp(`\\b${escaped}s?\\s+(?:(?:the|a|an|that)\\s+)?(.+)$`, 'iu').exec(sentence);
    if (after) out.push(capitalise(fitName(after[1] ?? '')));
  }
  // "Karnataka Shops" → "Karnataka Shops and Establishments Act": the proper name in full.
  const proper = new RegExp(
    `\\b${escaped}((?:\\s+(?:and|&|of)\\s+\\p{Lu}[\\p{L}-]*)(?:\\s+\\p{Lu}[\\p{L}-]*)*)`,
    'u',
  ).exec(sentence);
  if (proper) out.push(fitName(`${head}${proper[1]}`));
  const predicate = /^(?:stays?|remains?)\s+(\p{L}+)/iu.exec(head);
  const subject = /^(?:(?:the|a|an|every|each)\s+)?(\p{L}[\p{L}-]*)\s+(?:stays?|remains?)\b/iu.exec(sentence);
  if (predicate && subject && !/^(?:it|they|this|that|he|she)$/i.test(subject[1] ?? ''))
    out.push(capitalise(`${(subject[1] ?? '').toLowerCase()} ${predicate[1]}`));
  // "it stays marked as taken after a restart" → "Marked as taken after a restart".
  const state = /\b(?:stays?|remains?|is|are)\s+(\p{L}+ed\s+\p{L}.*)$/iu.exec(sentence);
  if (state) out.push(capitalise(fitName(state[1] ?? '')));
  // "it stays marked" → "Marked state": a state with nothing else to name it by.
  const bare = /^(?:it|they|this|that)\s+(?:stays?|remains?)\s+(\p{L}+ed)[.!]?$/iu.exec(sentence.trim());
  if (bare) out.push(capitalise(`${bare[1]} state`));
  return out.filter((x) => x.split(/\s+/).length >= 2);
}
const ONE_WORD_ACTS = /^\p{L}+$/u;

/** Verbs of receiving: what the subject gets is the thing graded ("parents get an SMS by 10 am" → "SMS by 10 am"). */
const RECEIVING = /^(?:get|gets|receive|receives|see|sees)$/i;

/**
 * A clause's noun phrase: "Goal is 500 registrations" → "Goal of 500 registrations", "users add
 * habits" → "Adding habits", "parents get an SMS by 10 am" → "SMS by 10 am". Empty when the
 * sentence is no such clause.
 */
function clauseAsNounPhrase(said: string): string[] {
  // A chat's "so", "yes and", "ok" open the line, not the ask.
  const sentence = said.replace(/^(?:(?:so|yes|ok|okay|and|also|then|plus|but|well)[,]?\s+)+/i, '');
  const copula =
    /^(?:(?:the|our|a|an)\s+)?([\p{L}-]+(?:\s+[\p{L}-]+)?)\s+(?:is|are)\s+(?:(?:the|a|an)\s+)?([^,;.]+)/iu.exec(
      sentence,
    );
  const out: string[] = [];
  // "the dashboard shows daily sales by store" → "Daily sales by store"; "stock below reorder level
  // turns red" → "Stock below reorder level".
  const words = sentence.split(/\s+/);
  const at = words.findIndex((w, i) => i > 0 && THIRD_PERSON_VERBS.has(w.toLowerCase()));
  if (at > 0) {
    const subject = words
      .slice(0, at)
      .join(' ')
      .replace(/^(?:the|our|a|an|every|each)\s+/i, '');
    const object = words
      .slice(at + 1)
      .join(' ')
      .replace(/^(?:an?|the)\s+/i, '');
    out.push(capitalise(fitName(object)), capitalise(fitName(subject)));
  }
  // "only one refund is made" → "Only one refund made"; "we expect 0.8 or higher" → "Target of 0.8 or higher".
  const passive =
    /^((?:only\s+)?(?:one|each|every|the|a|an|no)?\s*[\p{L}-]+)\s+(?:is|are)\s+(\p{L}+ed|made|done|sent|paid|kept|held|shown|given|taken)\b(.*)$/iu.exec(
      sentence,
    );
  if (passive) out.push(capitalise(fitName(`${passive[1]} ${passive[2]}${passive[3] ?? ''}`)));
  const target =
    /^(?:we|i|they)\s+(?:expect|want|need|aim for)\s+(\d[\d.,%]*(?:\s+(?:or|and)\s+(?:higher|better|more|above|lower|less|below))?)[.!]?$/i.exec(
      sentence.trim(),
    );
  // "should take under a minute" → "Time under a minute".
  const time = /\btakes?\s+((?:under|less than|at most|no more than|within)\s+[^,;.]+)/i.exec(sentence);
  if (time) out.push(capitalise(fitName(`time ${time[1]}`)));
  if (target) out.push(`Target of ${(target[1] ?? '').replace(/\s+(?:or|and)\s+\p{L}+$/u, '')}`);
  if (copula && !/\b(?:must|should|not)\b/i.test(copula[2] ?? ''))
    out.push(capitalise(fitName(`${copula[1]} of ${copula[2]}`)));
  const clause = /^(?:(?:the|our|all|every)\s+)?\p{L}+s\s+(\p{L}+)\s+(.+)$/iu.exec(sentence);
  if (clause) {
    const verb = (clause[1] ?? '').toLowerCase();
    const object = (clause[2] ?? '').replace(/^(?:an?|the)\s+/i, '');
    const subject = (/^(?:(?:the|our|all|every)\s+)?(\p{L}+s)\s/iu.exec(sentence)?.[1] ?? '').toLowerCase();
    // "parents get an SMS when …" → "SMS to parents".
    if (RECEIVING.test(verb))
      out.push(capitalise(`${fitName(object)} to ${subject}`), capitalise(fitName(object)));
    else if (BARE_VERBS.has(verb) || IMPERATIVE_VERBS.has(verb) || SUBJECT_VERBS.has(verb))
      out.push(capitalise(fitName(`${gerund(verb)} ${object}`)));
  }
  return out.filter((x) => x.split(/\s+/).length >= 2);
}

/** Whether a name passes the rubric rules on names and is not taken yet. */
function acceptableName(
  name: string,
  taken: ReadonlySet<string>,
  source?: string,
  domain?: CatalogueDomain,
): boolean {
  return (
    name.trim() !== '' && !taken.has(name) && isCleanName(name) && nameProblem(name, source, domain) === null
  );
}

/** Text fit for a name: control characters ("Do\u0000 it") dropped, spaces collapsed. */
const cleanText = (text: string) => normaliseSpace(text.replace(/\p{Cc}/gu, ' '));

const ORDINALS = ['', 'first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth'];

/** The main ask as an object of "the quality of …": "the calculator", "the logo for bakery". */
function mainFocus(criterion: RubricCriterion): string {
  const name = criterion.name.replace(/^[^:]+:\s*/, '');
  if (/^(?:Avoids|Choice:)/.test(criterion.name)) return 'the work';
  let phrase = lowerOrdinary(name);
  const first = (phrase.match(/^[A-Za-z]+/)?.[0] ?? '').toLowerCase();
  // "Build a calculator" → "the calculator".
  if (ASK_VERBS.has(first))
    phrase = phrase
      .slice(first.length)
      .replace(/^\s+(?:an?|the)\s+/i, ' ')
      .trim();
  if (!phrase || /^(?:be|have)\b/.test(phrase)) return 'the work';
  return /^(?:the|a|an)\b/i.test(phrase) ? phrase : `the ${phrase}`;
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
  return findRequirements(splitSentences(text), text).map((r) => ({
    text: r.sentence.text,
    strength: r.strength,
  }));
}

/** What the brief leaves out of scope, in its own words (see `readAsks`). */
export function scopeExclusions(text: string): string[] {
  return readAsks(splitSentences(text)).outOfScope;
}

/** What a rubric of `text` cannot stand behind, said to the caller with the rubric (empty: nothing). */
export function rubricWarnings(text: string): string[] {
  return findRequirementSentences(text).length === 0
    ? [
        'The brief asks for nothing: no sentence says what the work must, should or needs to have, and it lists no ' +
          'deliverables. These criteria are read from its wording, not from requirements an employer set, so they ' +
          "cannot be defended as the brief's. Add the requirements to the brief and generate again.",
      ]
    : [];
}
