/**
 * The rules a rubric must meet before an employer sees it, whoever wrote it (the local engine
 * or Workers AI): weights that sum to 100 with no criterion above 40 % once there are three,
 * sources quoted verbatim, level descriptors that are complete sentences, and names that are
 * clean noun phrases rather than spliced fragments.
 */
import { fieldForDomain, fieldOfText } from './knowledge/detect';
import { excludedThing, isLetterFormula, withoutFormulas } from './requirements';
import { MAX_CRITERIA, MAX_CRITERION_WEIGHT, MIN_CRITERIA } from './rubric-limits';
import { HINGLISH_FUNCTION_WORDS, IMPERATIVE_VERBS, isContentWord, stem, tokenize } from './text';
import { classifyTheme, SOFTWARE_THEMES, THEMES, themesForBrief } from './themes';
import type { CatalogueDomain } from './tutorial-catalogue';
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
    !hinglishIn(t)
  );
}

/**
 * Hinglish left in an English text: one of its auxiliaries or cue verbs ("hai", "chahiye",
 * "banani"), or two of its function words. One short word alone may be English or a term of
 * the brief's own ("ko" in the game of Go, "ki" in aikido).
 */
function hinglishIn(text: string): boolean {
  const found = text
    .split(/[^A-Za-z]+/)
    .map((w) => w.toLowerCase())
    .filter((w) => HINGLISH.has(w));
  return found.length >= 2 || found.some((w) => !SHORT_AMBIGUOUS.has(w));
}
/** Hinglish function words that are also English or a field's own terms ("ko", "ki", "sab", "bas"). */
const SHORT_AMBIGUOUS = new Set([
  'ko',
  'ki',
  'ke',
  'ka',
  'se',
  'ya',
  'jo',
  'ye',
  'wo',
  'tak',
  'bas',
  'sab',
  'jab',
]);

/** Whether a criterion name is a clean noun phrase: no fragment joined by "&" unless a theme's own name. */
export function isCleanName(name: string): boolean {
  const base = name;
  // "Functionality (2)" cannot be told apart from "Functionality"; control characters are not text.
  if (/\s\(\d+\)$/.test(base) || /\p{Cc}/u.test(base)) return false;
  if (base.length < 3 || base.length > 80) return false;
  if (DANGLING_END.test(base)) return false;
  if (hinglishIn(base)) return false;
  if (base.includes('&') && !THEME_NAMES.has(base) && !THEME_NAMES.has(base.split(':')[0] ?? ''))
    return false;
  return true;
}

/** Words that name nothing gradable on their own ("Areas", "Source", "Written"). */
const GENERIC_NOUNS = new Set(
  'area areas source sources written wake item items thing things stuff work details detail point points part parts section sections aspect aspects requirement requirements scope note notes general other others misc miscellaneous overview summary task tasks deliverable deliverables data information file files format quality output outputs result results system solution platform already also still just only actually'.split(
    ' ',
  ),
);
/** Endings that leave a name cut off ("Dedupes lines across large"). */
const CUT_OFF_END =
  /\s(?:across|over|under|between|within|without|per|via|into|from|than|about|after|before|during|large|small|big|high|low|new|full|many|multiple|various|different|each|every|all|some|any|more|less|most|least|better|worse|higher|lower|faster|slower|greater|fewer|versus|vs)$/i;
/** A modal or an opening "be" in a name: the brief's sentence copied, not named. */
const MODAL_IN_NAME =
  /\b(?:must|should|shall|shoud|needs? to|has to|have to|can(?:not| never)? be|will be|would be)\b|^be\s/i;
/** A company describing itself, in a name. */
const SELF_DESCRIPTION = /\b[A-Z][a-z]+-based\b|\b(?:[Cc]ompany|[Ff]irm|[Ss]tartup|[Aa]gency)\b/;

/**
 * Why a criterion name is not one an expert would write, or null: more than six words (a
 * choice's options aside), a letter formula ("PFB", "As discussed", "Kindly"), a company
 * description, a sentence with its modal ("Stock must never go negative"), a lone generic noun
 * or a cut-off fragment.
 */
export function nameProblem(name: string, source?: string, domain?: CatalogueDomain): string | null {
  const form = formProblem(name, source, domain);
  if (form) return form;
  const words = name
    .replace(/^Choice:\s*/, '')
    .split(/\s+/)
    .filter(Boolean);
  if (!/^Choice:/.test(name) && words.length > 6) return 'more than six words';
  if (
    isLetterFormula(name) ||
    withoutFormulas(name) !== name.trim() ||
    /^(?:mention|greetings|regards|dear)\b/i.test(name)
  )
    return 'a letter formula';
  if (SELF_DESCRIPTION.test(name)) return 'a company description';
  // "Stock must never go negative", "Avoids a slot can never be", "Be royalty-free": a clause of
  // the brief with its modal, not a noun phrase naming what is graded.
  if (words.length >= 2 && MODAL_IN_NAME.test(name)) return 'a sentence, not a noun phrase';
  const bare = words.filter((w, i) => i > 0 || !/^(?:the|a|an|all|any|some)$/i.test(w));
  if (bare.length === 1 && GENERIC_NOUNS.has((bare[0] ?? '').toLowerCase())) return 'a lone generic noun';
  if (CUT_OFF_END.test(name)) return 'a cut-off fragment';
  return null;
}

/** A brief's form left in a name: table borders, tabs, quoting, aligned columns, a chat timestamp. */
const FORM_IN_NAME = /[|\t>]| {3,}|\[\d{1,2}:\d{2}|\b\d{1,2}:\d{2}\s?[AaPp]\.?[Mm]\b/;
/** A user story's or Gherkin scenario's keywords: how the ask is written, not what it asks. */
const STORY_KEYWORD =
  /^(?:given|when|then|as an?|i want|i need|so that|in order to|scenario|feature|user story|story)\b/i;
/** Openers of speech that carry no ask ("Means shortlisting …", "Ok so …", "Basically …"). */
const DISCOURSE_OPENER =
  /^(?:means|meaning|i\.e\.?|that is|basically|btw|quick one|quick question|quick note|heads up|ok(?:ay)?|yes|yeah|yep|right|well|anyway|also|plus|so|and|but|or|hi|hey|hello|thanks|cheers|fyi|pls|please)\b/i;
/** A role or a job line instead of the work ("Researching assistant for systematic review"). */
const ROLE_LINE =
  /^(?:[\p{L}-]+\s+){0,2}(?:assistant|intern|associate|analyst|consultant|manager|engineer|developer|designer|researcher|writer|specialist|executive|officer|coordinator|volunteer|freelancer|candidate|contractor)s?\s+(?:for|of|to|in|at|on|with)\b/iu;

/**
 * Verbs that are rarely nouns: a name opening with one in its base form is an instruction
 * ("Renew a loan", "Tie back", "Expect tests"), not the noun phrase of what is graded.
 */
export const BARE_VERBS: ReadonlySet<string> = new Set(
  `add analyse analyze annotate apply assess calculate capture choose collect compare compile compute
  configure containerise containerize create cut define deliver describe detect develop drop enable encrypt
  ensure estimate evaluate expect explain explore extend extract fetch find fix follow gather generate identify
  implement improve include integrate investigate justify keep make measure merge migrate minimise minimize
  monitor notify optimise optimize perform prepare prioritise prioritize produce propose protect provide publish
  recommend reduce refactor remove renew reproduce reschedule rewrite specify submit summarise summarize take
  tick tie toggle translate validate verify visualise visualize write`.split(/\s+/),
);
/** One word that is a verb and nothing else in a brief: a scenario's title ("Cancel"), a table's row label ("Deploy"). */
const ONE_WORD_VERBS: ReadonlySet<string> = new Set([
  ...BARE_VERBS,
  'cancel',
  'retry',
  'deploy',
  'lint',
  'renew',
]);
/** Verbs a plural subject does in a chat line ("Parents get", "Users add habits", "Teachers mark attendance"). */
export const SUBJECT_VERBS: ReadonlySet<string> = new Set([
  ...BARE_VERBS,
  'get',
  'mark',
  'book',
  'see',
  'receive',
  'pay',
  'need',
  'want',
  'use',
  'start',
  'stop',
  'open',
  'close',
  'leave',
  'tap',
  'scan',
  'choose',
  'pick',
  'download',
  'upload',
  'sign',
  'fill',
  'approve',
  'view',
  'enter',
  'submit',
  'share',
]);
/** Verbs in the third person that are seldom nouns: inside a name they make it a clause. */
export const THIRD_PERSON_VERBS: ReadonlySet<string> = new Set(
  'shows turns sends gets takes gives makes keeps refreshes explains lets allows moves arrives appears becomes contains includes covers requires downloads signs receives sees opens'.split(
    ' ',
  ),
);
/** People a theme label may name by mistake ("Communication: HR heads", "Research: shop owners"). */
const AUDIENCE_END =
  /\b(?:owners?|heads?|users?|customers?|staff|teams?|managers?|parents?|teachers?|students?|patients?|farmers?|members?|clients?|partners?|people|visitors?|guests?|employees?|founders?|investors?)$/i;

function stemsOf(text: string): Set<string> {
  return new Set(tokenize(text, { parts: false }).filter(isContentWord).map(stem));
}

/**
 * The problems of a name that come from how the brief is written, or from the sentence it is
 * named for: form (a table border, a timestamp), a story keyword, a discourse opener, a role
 * line, a theme label with one stray noun ("Functionality: medicine"), a head cut off its
 * complement ("Risk" for "risk of bias": a one-word name) and a theme label over a sentence about something
 * else ("Communication & reporting" over a line on row-level security). One validator for both
 * engines: `rubricProblems` runs it on Workers AI output as on the local engine's.
 */
function formProblem(name: string, source?: string, domain?: CatalogueDomain): string | null {
  const t = name.trim();
  if (FORM_IN_NAME.test(t)) return "the brief's form (a table border, a tab, quoting or a timestamp)";
  if (STORY_KEYWORD.test(t)) return 'a story keyword';
  if (DISCOURSE_OPENER.test(t)) return 'a discourse opener';
  if (ROLE_LINE.test(t)) return 'a role line';
  // "Is removed", "Are asked to sign": a predicate without the thing it is about.
  if (/^(?:is|are|was|were|be|been|gets?|has|have|had|does)\s/i.test(t) && !MODAL_IN_NAME.test(t))
    return 'a verb phrase without its subject';
  // "Shopper gets", "Message says", "Page says": a clause cut before its object.
  if (
    t.split(/\s+/).length <= 3 &&
    /\s(?:says|gets|appears|opens|shows|receives|moves|sees|goes|becomes|stays|does|makes|takes|comes|happens|is|are)$/i.test(
      t,
    )
  )
    return 'a clause cut before its object';
  const labelled = /^([A-Z][\w &]{0,30}):\s+(\S+)$/.exec(t);
  if (labelled && THEMES.some((th) => th.short === labelled[1] || th.name === labelled[1]))
    return 'a theme label with one stray noun';
  // "Functionality: expect tests for every endpoint": a theme label glued to a sentence.
  const glued = /^([A-Z][\w &]{0,30}):\s+(.+)$/.exec(t);
  if (glued && THEMES.some((th) => th.short === glued[1] || th.name === glued[1])) {
    const rest = glued[2] ?? '';
    const first = (rest.split(/\s+/)[0] ?? '').toLowerCase();
    if (
      BARE_VERBS.has(first) ||
      IMPERATIVE_VERBS.has(first) ||
      /\s(?:is|are|was|were|must|should|will|can)\s/i.test(` ${rest} `)
    )
      return 'a theme label glued to a sentence';
    if (AUDIENCE_END.test(rest)) return 'a theme label over the people the work is for';
  }
  // "With consent", "Least 1.2 m clear", "Under a minute": a prepositional phrase or a cut-off "at least".
  if (/^(?:with|without|under|over|within|for|from|at|into|after|before|least|most|than|via)\s/i.test(t))
    return 'a prepositional phrase, not a noun phrase';
  // "Webhook fires", "Approval rates differ": a subject and its verb.
  if (
    t.split(/\s+/).length <= 3 &&
    /\s(?:fires|differ|differs|happens|occurs|arrives|fails|breaks|expires|reaches|changes|drops|rises|exceeds|matches)$/i.test(
      t,
    )
  )
    return 'a clause, not a noun phrase';
  // "We expect", "It has": a pronoun, not the thing graded; "000 water meters": a number cut at its comma.
  if (/^(?:we|i|you|they|it|he|she|us|our|your|their|my)\b/i.test(t)) return 'a pronoun, not a noun phrase';
  if (/^0\d*\s/.test(t)) return 'a number cut at its thousands separator';
  const words0 = t.split(/\s+/);
  const head0 = (words0[0] ?? '').toLowerCase();
  // "Renew a loan", "Extend", "Tie back": an instruction, not a noun phrase.
  if (BARE_VERBS.has(head0) || (words0.length === 1 && ONE_WORD_VERBS.has(head0)))
    return 'a bare verb, not a noun phrase';
  // "Deck not includes pricing", "FAR not exceeds": a negated clause.
  if (/\bnot\s+(?:\p{L}+s|going|to|in|within|part|our|your|needed|required|responsible)\b/iu.test(t))
    return 'a negated clause, not a noun phrase';
  // "Dashboard shows daily sales", "Reorder level turns red": a subject, its verb and what follows.
  const inner = t
    .split(/\s+/)
    .slice(1, -1)
    .map((w) => w.toLowerCase());
  if (inner.some((w) => THIRD_PERSON_VERBS.has(w))) return 'a clause, not a noun phrase';
  // "Launch is 15 Jan", "Goal is 500 registrations": a subject and its verb.
  if (words0.length >= 2 && /\s(?:is|are|was|were)(?:\s|$)/i.test(t)) return 'a clause, not a noun phrase';
  // "Parents get", "Users add habits", "Teachers mark attendance class": a plural subject and its verb.
  if (
    words0.length <= 6 &&
    /^\p{Lu}\p{Ll}+s$/u.test(words0[0] ?? '') &&
    SUBJECT_VERBS.has((words0[1] ?? '').toLowerCase())
  )
    return 'a clause cut before its object';
  // "Recorded", "Posted twice", "Stays marked", "Avoids filled in silently": a predicate without its subject.
  if (
    /^\p{L}+ed$/iu.test(t) ||
    /^\p{L}+ed\s+(?:twice|once|again|silently|separately|correctly|back|in|out|up)$/iu.test(t) ||
    /^(?:stays?|remains?)\s/i.test(t) ||
    /^Avoids\s+\p{L}+ed\s+(?:in|on|out|up|by|twice|once|again|silently|separately)\b/iu.test(t)
  )
    return 'a predicate without its subject';
  if (source === undefined) return null;
  // "Managers download" over "managers download a PDF every Monday": a subject and its verb, cut before the object.
  if (words0.length === 2) {
    const m = new RegExp(
      `^(?:(?:so|yes|and|also|then)\\s+)*(?:the\\s+|our\\s+|all\\s+)?${t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s+(?:a|an|the|every|each|their|our|his|her|its|one|two|three|\\d)\\b`,
      'i',
    ).exec(source.trim());
    if (m && /s$/i.test(words0[0] ?? '') && !/s$/i.test(words0[1] ?? ''))
      return 'a clause cut before its object';
  }
  // "Lint" over "Lint | biome over every package": a table's row label, not what the row asks.
  const cells = source
    .split(/\t+|\s*\|\s*| {3,}/)
    .map((c) => c.trim())
    .filter(Boolean);
  if (
    words0.length === 1 &&
    cells.length >= 2 &&
    (cells[0] ?? '').toLowerCase() === t.toLowerCase() &&
    (ONE_WORD_VERBS.has(t.toLowerCase()) ||
      GENERIC_NOUNS.has(t.toLowerCase()) ||
      AUDIENCE_END.test(t) ||
      /^(?:test|build|report|review|stage|step|head|item|row|line|col(?:umn)?|stock|staff)$/i.test(t))
  )
    return 'a one-word table label';
  // "Karnataka Shops" for "the Karnataka Shops and Establishments Act": a proper name cut at its "and".
  if (
    /^\p{Lu}/u.test(t) &&
    new RegExp(`${t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s+(?:and|&|of)\\s+\\p{Lu}`, 'u').test(source)
  )
    return 'a proper name cut short';
  const words = t.replace(/^(?:the|a|an)\s+/i, '').split(/\s+/);
  const last = words[words.length - 1] ?? '';
  if (
    words.length === 1 &&
    /^\p{L}{3,}$/u.test(last) &&
    new RegExp(`(?:^|[^\\p{L}])${last}\\s+of\\s+(?!the\\b|a\\b|an\\b)[\\p{L}\\p{N}]`, 'iu').test(source) &&
    !new RegExp(`(?:^|[^\\p{L}])${t}(?:[.,;:!?]|\\s+(?!of\\b)|$)`, 'iu').test(source)
  )
    return `a cut-off head ("${last} of …")`;
  const theme = THEMES.find((th) => th.name === t || t.startsWith(`${th.short}:`));
  if (
    theme &&
    classifyTheme(stemsOf(source), domain ?? theme.domains[0], new Set([theme.key])) === null &&
    classifyTheme(stemsOf(source), theme.domains[0], new Set([theme.key])) === null
  )
    return 'a theme label over a sentence about something else';
  return null;
}

/**
 * Words that grade software work: fine where the brief is about software (or uses them itself),
 * another field's language anywhere else.
 */
const SOFTWARE_GRADING_WORDS =
  /\b(?:owasp|xss|sql injection|csrf|linter|linting|refactor(?:ing|ed)?|unit tests?|integration tests?|pull requests?|code ?base|repository|stack traces?|code quality|maintainable code|source code|compiles?|build pipeline)\b/i;
const SOFTWARE_THEMES_ALLOWED = (allowed: ReadonlySet<string>) =>
  [...SOFTWARE_THEMES].some((k) => allowed.has(k));

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
export function rubricProblems(rubric: Rubric, briefText: string, domain?: string): string[] {
  const problems: string[] = [];
  const field = fieldOfText(domain, briefText);
  const allowed = themesForBrief(briefText, field);
  const software = SOFTWARE_THEMES_ALLOWED(allowed) || SOFTWARE_GRADING_WORDS.test(briefText);
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
    const named = nameProblem(c.name, c.source, fieldForDomain(domain));
    if (named) problems.push(`"${c.name}" is not a criterion name an expert would write (${named})`);
    // An exclusion is scope: graded only where the brief says doing it costs marks.
    const excluded = excludedThing(c.source);
    if (excluded) problems.push(`"${c.name}" grades "${excluded}", which the brief puts out of scope`);
    const theme = THEMES.find((t) => t.name === c.name || c.name.startsWith(`${t.short}:`));
    if (theme && SOFTWARE_THEMES.has(theme.key) && !allowed.has(theme.key))
      problems.push(`"${c.name}" is a label of another field than the brief's`);
    // Levels speak the brief's field: a contract review is not graded in OWASP terms, nor
    // medical coding as code quality.
    if (!software) {
      const foreign = [c.name, ...c.levels.map((l) => l.descriptor)]
        .map((t) => t.match(SOFTWARE_GRADING_WORDS)?.[0])
        .find(Boolean);
      if (foreign)
        problems.push(`"${c.name}" is graded in software terms ("${foreign}") the brief does not use`);
    }
    const broken = c.levels.find((l) => !isCompleteSentence(l.descriptor));
    if (broken) problems.push(`a level of "${c.name}" is not a complete sentence: "${broken.descriptor}"`);
  }
  return problems;
}
