/**
 * A small text toolkit shared by the local pillar engines: sentence splitting that keeps
 * verbatim offsets, tokenising, stopwords and a light suffix-stripping stemmer.
 *
 * Everything here is deterministic and dependency-free. The stemmer is deliberately
 * lighter than Porter's: it only has to make "tests", "testing" and "tested" meet, and
 * "document", "documentation" and "documented" meet, so word overlap between a brief, a
 * rubric and a submission is not defeated by inflection.
 */
import { lineForms } from './document-form';

/** A sentence (or list item) of a text, with where it came from. */
export type Sentence = {
  /** The sentence exactly as it appears in the text, trimmed, bullet marker removed. */
  text: string;
  /** Offset of `text` in the original string: `original.slice(start, start + text.length) === text`. */
  start: number;
  /** Position among all sentences (0-based). */
  index: number;
  /** Whether the sentence came from a list item ("- ", "* ", "•", "1.", "a)"). */
  bullet: boolean;
  /** For list items: the heading or "…:" line that introduced the list, if any. */
  leadIn: string | null;
  /** Whether the sentence is itself a heading or a line ending in ":" that introduces a list. */
  heading: boolean;
  /** A line that sets an ask up without asking: a story's "Given …", "When …", "As a …" (see document-form.ts). */
  context?: boolean;
  /** A story's own title ("Scenario: Price drop") for its outcome line: a name its author chose. */
  title?: string;
};

/**
 * Hindi function words as they are typed in Roman script (Hinglish briefs are common): "bhi"
 * (also), "chahiye" (should), "aur" (and), "karna hai" (has to be done). They carry no topic,
 * so they must not end up in criterion names ("Pricing section bhi"). Words that are also
 * English ("do", "the", "par", "hi", "to") are left out on purpose.
 */
export const HINGLISH_FUNCTION_WORDS: readonly string[] =
  `hai hain bhi ka ki ke ko mein aur ya nahi nahin chahiye chahie karna karni karne karo karke kar
  hona hoga hogi honi hone jo yeh ye woh wo kuch sab bahut thoda toh tha thi raha rahe rahi wala wali wale apna apne
  hum humein hame hamein aap aapko kya kaise jaise lekin sirf zaroor zaroori zaruri jaruri chahte chahta dena dijiye
  banao banani karein kijiye saath liye se mujhe hamara hamari humara humari unka iska uska agar jab tak bas
  achha accha acha ekdum matlab waise phir fir abhi bilkul hamare humare dhyan rakhna rakho rakhein rakhe wahi yahan wahan
  ek har baar agle pichle zyada kare likhna likho likhein banana dikhana dikhao bhejna bhejo samajh aane aana`
    .split(/\s+/)
    .filter(Boolean);

function foldedSet(words: readonly string[]): ReadonlySet<string> {
  return new Set(
    words.map((w) =>
      w
        .normalize('NFC')
        .toLowerCase()
        .replace(/\u093C/g, ''),
    ),
  );
}

/**
 * Hindi function words in Devanagari (written without the nukta, as `foldToken` compares
 * them): postpositions, pronouns, auxiliaries and the verbs that only carry a requirement
 * ("होना", "करना", "देना"). They carry no topic, so they neither name a criterion nor make two
 * requirements look alike.
 */
export const HINDI_FUNCTION_WORDS: readonly string[] =
  `है हैं था थी थे भी का की के को में मे से पर और या तथा एवं नहीं न मत कि जो जिसे जिससे यह ये वह वे इस इसे
  इसमें उस उसे उसमें इन उन हम हमें हमारा हमारी हमारे आप आपको आपका आपकी अपना अपनी अपने मुझे मेरा कुछ सब सभी बहुत
  एक लिए साथ द्वारा तक तो ही भी चाहिए चाहिये चाहिएं होना होनी होने होगा होगी होंगे होंगी हो हों करना करनी करने
  करें करो कर करके देना देनी देने दें दो लेना लेनी लेने रखना रखनी रखने चाहते चाहता चाहती जाना जानी जाने जाए
  सके सकता सकती सकते रहना रहे रही रहा वाला वाली वाले भी अगर जब तब फिर कैसे क्या कौन इसलिए लेकिन परंतु सिर्फ केवल
  ஒரு அது இது அந்த இந்த மற்றும் இருக்க இருக்கும் ஆக একটি এবং ও এই সেই করতে হবে এক اور ایک یہ وہ کو میں سے کا کی کے ہے ہیں`
    .split(/\s+/)
    .filter(Boolean);

/** Function words that carry no topic. Kept short on purpose: rare words are the signal. */
export const STOPWORDS: ReadonlySet<string> = foldedSet(
  `a about above after again against all also am an and any are aren as at be because been before being
  below between both but by can cannot could did didn do does doesn doing don down during each either
  etc every few for from further had has have having he her here hers herself him himself his how however
  except i if in into is isn it its itself just least less let like longer made make makes many me more most much my
  myself neither no nor not now of off on once one only or other others otherwise our ours ourselves out
  over own per please same see seen set show shown so some such than that the their theirs them themselves then there these they
  this those through thus to too under until up upon us very via was wasn we were weren what when where
  way well whether which while who whom whose why will with use used uses using work within without won would yet you your yours yourself
  yourselves e g eg ie i.e vs`
    .split(/\s+/)
    .filter(Boolean)
    .concat(HINGLISH_FUNCTION_WORDS, HINDI_FUNCTION_WORDS),
);

/**
 * Words that mark a sentence as a requirement but say nothing about its topic. They are
 * excluded from content words so two requirements do not look alike just because both
 * say "must".
 */
export const CUE_WORDS: ReadonlySet<string> = foldedSet(
  `must should shall need needs needed required require requires requirement requirements expect expected
  expects ensure ensures may might ought want wants wanted nice bonus optional ideally preferably
  mandatory essential candidate candidates applicant applicants able sure welcome criterion criteria
  shoud shuld sholud shoudl shuold msut mst requred requird love glad happy appreciate appreciated great
  जरूरी जरुरी अनिवार्य आवश्यक आवश्यकता आवश्यकताएं आवश्यकताएँ अपेक्षित पाहिजे वैकल्पिक வேண்டும் கட்டாயம் উচিত
  প্রয়োজন চাই ضروری چاہیے لازمی`
    .split(/\s+/)
    .filter(Boolean),
);

/**
 * How a word is compared: NFC, lower case, and without the Devanagari nukta, which briefs
 * type inconsistently ("ज़रूरी" and "जरूरी", precomposed or not, are one word).
 */
export function foldToken(word: string): string {
  return word
    .normalize('NFC')
    .toLowerCase()
    .replace(/\u093C/g, '');
}

/** A word in any script: a letter, then letters, combining marks (Devanagari vowel signs) and digits. */
/** Words, and the few digit-led terms that are words of their own ("3G", "4K", "2FA", "3D"). */
const WORD_TOKEN = /\b[2-6]G\b|\b[248]K\b|\b2FA\b|\b3D\b|\p{L}[\p{L}\p{M}\p{N}]*/gu;

/**
 * Splits a text into lower-case word tokens, in any script (Devanagari, Tamil, …). camelCase and snake_case identifiers are split
 * so code (`getUserById`, `test_login`) meets prose ("get user by id", "login test").
 */
export function tokenize(text: string, options?: { parts?: boolean }): string[] {
  const withParts = options?.parts ?? true;
  const out: string[] = [];
  for (const word of text.match(WORD_TOKEN) ?? []) {
    const lower = foldToken(word);
    out.push(lower);
    if (!withParts) continue;
    // Product names in prose ("TalkBack") must still meet "talkback"; identifiers in code
    // ("getUserById") must meet "user" and "id": keep the whole word and add its parts.
    const parts = word
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
      .toLowerCase()
      .split(' ');
    if (parts.length > 1) out.push(...parts);
  }
  return out;
}

const VOWEL = /[aeiouy]/;

/**
 * Light stemmer: plural and inflectional endings, a few derivational suffixes, undoubling
 * and a final "e". Conservative by design: a stem keeps at least three letters and a vowel,
 * so short words ("need", "string", "only") are left alone.
 */
export function stem(word: string): string {
  let w = word.toLowerCase();
  if (w.length <= 3) return w;
  if (/(ies|ied)$/.test(w) && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  const SUFFIXES = [
    'ibility',
    'ability',
    'ization',
    'isation',
    'ational',
    'ations',
    'ation',
    'ition',
    'ments',
    'ment',
    'ness',
    'ance',
    'ence',
    'ings',
    'ing',
    'ity',
    'ible',
    'able',
    'ed',
    'ly',
    'al',
  ];
  // Two passes, so "documentation" → "document" → "docu" meets "documents" → "document" → "docu".
  for (let pass = 0; pass < 2; pass++) {
    const suffix = SUFFIXES.find((x) => {
      if (!w.endsWith(x)) return false;
      const base = w.slice(0, -x.length);
      // "need", "speed", "string": stripping would leave no real stem.
      return base.length >= 3 && VOWEL.test(base) && !(x === 'ed' && base.endsWith('e'));
    });
    if (suffix === undefined) break;
    w = w.slice(0, -suffix.length);
    if ((suffix === 'ing' || suffix === 'ed') && /([^aeiouylsz])\1$/.test(w)) w = w.slice(0, -1);
  }
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

/** Whether a lower-case token is a content word: not a stopword, not a requirement cue. */
export function isContentWord(token: string): boolean {
  return token.length >= 2 && !STOPWORDS.has(token) && !CUE_WORDS.has(token);
}

/** Stems of the content words of a text, in order, with repeats. */
export function contentStems(text: string): string[] {
  return tokenize(text).filter(isContentWord).map(stem);
}

/** Distinct content stems of a text. */
export function stemSet(text: string): Set<string> {
  return new Set(contentStems(text));
}

/**
 * Maps each content stem to the first surface word that produced it, for human-readable
 * output. Whole words only: "OpenAPI" is reported as "openapi", not also as "open".
 */
export function surfaceWords(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const token of tokenize(text, { parts: false })) {
    if (!isContentWord(token)) continue;
    const s = stem(token);
    if (!out.has(s)) out.set(s, token);
  }
  return out;
}

/** Jaccard similarity of two sets (0 when both are empty). */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let shared = 0;
  for (const x of a) if (b.has(x)) shared++;
  return shared / (a.size + b.size - shared);
}

/** Collapses runs of whitespace (including newlines inside a wrapped sentence) to one space. */
export function normaliseSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Upper-cases the first letter. */
export function capitalise(text: string): string {
  return text.length === 0 ? text : `${text[0]?.toUpperCase()}${text.slice(1)}`;
}

/**
 * Lower-cases the first letter unless the first word looks like an acronym or a proper name
 * written in capitals ("API", "WCAG"), so "Write tests" can follow "must" mid-sentence.
 */
export function lowerFirst(text: string): string {
  if (/^[A-Z][A-Z0-9]/.test(text)) return text;
  return text.length === 0 ? text : `${text[0]?.toLowerCase()}${text.slice(1)}`;
}

/** Shortens to at most `max` characters at a word boundary, with an ellipsis. */
export function truncateWords(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}

/** Abbreviations after which a full stop does not end a sentence (compared without dots). */
const ABBREVIATIONS = new Set([
  'eg',
  'ie',
  'vs',
  'cf',
  'al',
  'approx',
  'incl',
  'esp',
  'fig',
  'dept',
  'dr',
  'mr',
  'mrs',
  'ms',
  'prof',
  'st',
  'jr',
  'sr',
  'inc',
  'ltd',
  'co',
  'no',
  'nos',
  'vol',
  'min',
  'max',
  'resp',
]);

// List markers: "-", "*", "•", "‣", "▪", "–", "◦", "●", "○", "■", "□", "➤", "►", "→", "✓", "✔", "1.",
// "1)", "१.", "(a)", "a)", "(क)", "क)": digits and letters of any script. A letter followed by "."
// is not accepted ("A. Smith" starts a line more often than a lettered list does).
const BULLET =
  /^[ \t]*(?:[-*•‣▪–—◦●○■□➤►→✓✔·]|\p{Nd}{1,3}[.)]|\(?(?:[a-z]|\p{Lo}\p{M}?)\)|\(?[ivx]{1,5}[.)]|\(?[IVX]{1,5}\)|[a-z][.])[ \t]+/u;
const HEADING = /^[ \t]*#{1,6}[ \t]+/;

type Line = { start: number; end: number; text: string };
type Block = {
  start: number;
  end: number;
  bullet: boolean;
  heading: boolean;
  leadIn: string | null;
  context?: boolean;
  /** A story's own title ("Scenario: Price drop") for its outcome line: a name its author chose. */
  title?: string;
};

function lines(text: string): Line[] {
  const out: Line[] = [];
  let start = 0;
  for (const raw of text.split('\n')) {
    out.push({ start, end: start + raw.length, text: raw });
    start += raw.length + 1;
  }
  return out;
}

/**
 * Full stops of other scripts: the Devanagari danda and double danda (Hindi, Marathi, Nepali,
 * Sanskrit; Bengali uses the same), the Arabic and Urdu question mark and full stop, the
 * Ethiopic and Myanmar full stops, and the CJK ideographic full stop and full-width marks.
 * They end a sentence even without a following space.
 */
const SCRIPT_STOPS = '।॥؟۔።။。！？';
const SENTENCE_END_CHAR = new RegExp(`[.!?${SCRIPT_STOPS}]["'”’)\\]」』]*$`);

const wordCount = (s: string) => (s.match(/\S+/g) ?? []).length;

/**
 * A line with no closing punctuation and a handful of words, followed by a capitalised line,
 * a list or a blank line, is a heading ("Scope", "What we expect") rather than a sentence
 * wrapped mid-way. A line ending in ":" introduces what follows.
 */
function looksLikeHeading(line: string, next: string | undefined): boolean {
  const t = line.trim();
  if (t.endsWith(':')) return true;
  if (SENTENCE_END_CHAR.test(t) || /[,;]$/.test(t) || next === undefined) return false;
  return wordCount(t) <= 8 && (next.trim() === '' || BULLET.test(next) || /^[ \t]*[A-Z0-9"'“(#]/.test(next));
}

/** Groups lines into blocks: list items, headings, and paragraphs of wrapped prose. */
function blocks(text: string): Block[] {
  const out: Block[] = [];
  const all = lines(text);
  const forms = lineForms(all.map((l) => l.text));
  let current: Block | null = null;
  let previousLine = '';
  let leadIn: string | null = null;
  const flush = () => {
    if (current) out.push(current);
    current = null;
  };
  // A heading or "…:" line. When it holds several sentences ("Run tests. Along the way:"),
  // only the last introduces what follows; the ones before it stay ordinary prose.
  const heading = (start: number, end: number) => {
    flush();
    const sentences = splitBlock(text, start, end);
    const last = sentences[sentences.length - 1];
    let from = start;
    if (last && sentences.length > 1) {
      out.push({ start, end: last[0], bullet: false, heading: false, leadIn: null });
      from = last[0];
    }
    out.push({ start: from, end, bullet: false, heading: true, leadIn: null });
    leadIn = text.slice(from, end).trim();
  };
  for (let i = 0; i < all.length; i++) {
    const line = all[i] as Line;
    const next = all[i + 1]?.text;
    const previous = previousLine;
    previousLine = line.text;
    // The document's form (chat prefixes, story keywords, tables, quoting, mail headers):
    // each message, row or story line is a block of its own, without its prefix.
    const form = forms[i];
    if (form?.kind === 'skip') {
      flush();
      continue;
    }
    if (form?.kind === 'item' || form?.kind === 'context') {
      flush();
      const context = form.kind === 'context';
      out.push({
        start: line.start + form.from,
        end: form.kind === 'item' && form.to !== undefined ? line.start + form.to : line.end,
        bullet: !context,
        heading: context,
        leadIn: context ? null : form.leadIn,
        ...(context ? { context: true } : {}),
        ...(form.kind === 'item' && form.title ? { title: form.title } : {}),
      });
      continue;
    }
    if (line.text.trim() === '') {
      flush();
      continue;
    }
    const bullet = BULLET.exec(line.text);
    if (bullet) {
      flush();
      current = { start: line.start + bullet[0].length, end: line.end, bullet: true, heading: false, leadIn };
      continue;
    }
    const marker = HEADING.exec(line.text);
    if (marker) {
      heading(line.start + marker[0].length, line.end);
      continue;
    }
    // An indented or lower-case line continues the list item above it.
    if (current?.bullet && /^[ \t]+\S|^[ \t]*[a-z]/.test(line.text)) {
      current.end = line.end;
      continue;
    }
    // "Must-haves: offline sync, export to Excel" / "Out: payroll, invoicing": a labelled line is a
    // list of its own (each item an ask under the label), never a wrapped line of the prose above.
    // A label that is an instruction ("Harden our login: …") keeps its sentence whole.
    const labelled = LABELLED_LIST.exec(line.text);
    const instruction = IMPERATIVE_VERBS.has((line.text.trim().split(/[\s:]/)[0] ?? '').toLowerCase());
    if (labelled && !instruction) {
      const items = labelledItems(line.text, labelled[0].length);
      const listLabel =
        /^[ \t]*(?:must[- ]haves?|nice[- ]to[- ]haves?|should[- ]haves?|optional|extras?|bonus|out|out of scope|not needed|later)\s*:/i.test(
          line.text,
        );
      if (items.length >= 2 || (items.length === 1 && listLabel)) {
        flush();
        const label = line.text.slice(0, labelled[0].length).trim();
        for (const [from, to] of items)
          out.push({
            start: line.start + from,
            end: line.start + to,
            bullet: true,
            heading: false,
            leadIn: label,
          });
        leadIn = null;
        continue;
      }
    }
    const startsFresh =
      current === null ||
      current.bullet ||
      /:\s*$/.test(previous) ||
      SENTENCE_END_CHAR.test(previous.trimEnd());
    if (startsFresh && looksLikeHeading(line.text, next)) {
      heading(line.start, line.end);
      continue;
    }
    if (current && !current.bullet && !(labelled && !instruction)) {
      current.end = line.end;
    } else {
      flush();
      // Prose after a list ends the list's lead-in.
      leadIn = null;
      current = { start: line.start, end: line.end, bullet: false, heading: false, leadIn: null };
    }
    // A paragraph that ends in ":" introduces the list below it.
    if (line.text.trim().endsWith(':') && current) {
      const block: Block = current;
      current = null;
      heading(block.start, block.end);
    }
  }
  flush();
  return out;
}

/** A line opening with a short label and a colon: "Must-haves: …", "Nice-to-haves: …", "Out: …". */
const LABELLED_LIST = /^[ \t]*\p{Lu}[\p{L}'’-]*(?:[ -][\p{L}'’-]+){0,3}\s*:\s+(?=\S)/u;

/** The comma-separated items after a label, as [from, to) offsets in the line; empty unless each is a short phrase. */
function labelledItems(line: string, from: number): [number, number][] {
  const out: [number, number][] = [];
  const re = /[^,;]+/g;
  re.lastIndex = from;
  for (let m = re.exec(line); m !== null; m = re.exec(line)) {
    const raw = m[0];
    const lead = raw.length - raw.trimStart().length;
    const text = raw.trim().replace(/[.]$/, '');
    if (text === '') continue;
    out.push([m.index + lead, m.index + lead + text.length]);
  }
  const short = out.every(
    ([a, b]) => line.slice(a, b).split(/\s+/).length <= 8 && !/[.!?]\s/.test(line.slice(a, b)),
  );
  return short ? out : [];
}

/** Whether the full stop at `dot` (index into `text`) ends a sentence. */
function endsSentence(text: string, dot: number): boolean {
  const ch = text[dot];
  if (ch !== '.') return true;
  // Only the word before the dot matters; a bounded window keeps long texts linear.
  const before = text.slice(Math.max(0, dot - 40), dot);
  const word = (/(\S+)$/.exec(before)?.[1] ?? '').replace(/^[("'“[]+/, '');
  const bare = word.replace(/\./g, '').toLowerCase();
  if (ABBREVIATIONS.has(bare)) return false;
  // Initials ("J. Smith") and dotted abbreviations ("U.S.").
  if (/^[A-Z]$/.test(word) || /^([a-zA-Z]\.)+[a-zA-Z]$/.test(word)) return false;
  return true;
}

/** Whether the word before the full stop at `dot` is short enough to be an abbreviation. */
function continuesAfter(text: string, dot: number): boolean {
  const word = (/(\S+)$/.exec(text.slice(Math.max(0, dot - 40), dot))?.[1] ?? '').replace(/^[("'“[]+/, '');
  const bare = word.replace(/\./g, '').toLowerCase();
  return ABBREVIATIONS.has(bare) || word.includes('.') || bare.length <= 2;
}

/** Splits one block into sentences, returning [start, end) offsets into `text`. */
function splitBlock(text: string, start: number, end: number): [number, number][] {
  const out: [number, number][] = [];
  let from = start;
  const re = new RegExp(`[.!?]+["'”’)\\]]*(?=\\s+|$)|[${SCRIPT_STOPS}]+["'”’)\\]」』]*`, 'g');
  const slice = text.slice(start, end);
  for (let m = re.exec(slice); m !== null; m = re.exec(slice)) {
    const stop = start + m.index + m[0].length;
    let next = stop;
    while (next < end && /\s/.test(text[next] as string)) next++;
    const nextChar = next < end ? text[next] : undefined;
    // After an abbreviation a lower-case word continues the sentence ("e.g. react", "approx.
    // five"); after an ordinary word it starts one, since briefs are often typed all in lower case.
    if (
      nextChar !== undefined &&
      /[a-z]/.test(nextChar) &&
      m[0] === '.' &&
      continuesAfter(text, start + m.index)
    )
      continue;
    if (!endsSentence(text, start + m.index)) continue;
    out.push([from, stop]);
    from = stop;
  }
  if (from < end) out.push([from, end]);
  return out;
}

/**
 * Splits a text into sentences and list items. Each result's `text` is a verbatim, trimmed
 * slice of the input (so it can be quoted as a source). Copes with bullets and numbered
 * lists, headings and "…:" lead-ins, wrapped lines, and abbreviations such as "e.g.".
 */
export function splitSentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  for (const block of blocks(text)) {
    for (const [s, e] of splitBlock(text, block.start, block.end)) {
      const raw = text.slice(s, e);
      const trimmed = raw.trim();
      if (!/\p{L}/u.test(trimmed)) continue;
      out.push({
        text: trimmed,
        start: s + raw.indexOf(trimmed),
        index: out.length,
        bullet: block.bullet,
        leadIn: block.leadIn,
        heading: block.heading,
        ...(block.context ? { context: true } : {}),
        ...(block.title ? { title: block.title } : {}),
      });
    }
  }
  return out;
}

/**
 * Verbs that open an imperative requirement ("Write tests…", "Deploy to…"). A list item or
 * sentence that starts with one is an instruction even without "must".
 */
export const IMPERATIVE_VERBS: ReadonlySet<string> = new Set(
  `add achieve adopt allow analyse analyze annotate apply assess audit automate benchmark build calculate
  capture check choose clean collect communicate compare compile configure conduct containerise containerize
  create define deliver demonstrate deploy describe design detect develop document draft enable encrypt
  estimate evaluate explain explore export expose extract fix follow gather generate handle identify
  implement import improve include instrument integrate interview investigate justify keep label list load
  localise localize log maintain make map measure meet migrate minimise minimize model monitor optimise optimize
  outline perform persist plan prepare present prioritise prioritize produce profile propose protect
  prototype provide publish rank recommend record reduce refactor report research return review run
  sanitise sanitize secure segment select set share ship show sketch specify store structure submit
  summarise summarize support synthesise synthesize test track train translate update use validate verify
  visualise visualize write reproduce replicate retest rewrite restructure harden refresh redesign survey
  query arrange shortlist flag score`
    .split(/\s+/)
    .filter(Boolean),
);

/** Words that open a sentence before a determiner without being a verb ("During the …", "Only the …"). */
const NOT_VERBS = new Set(
  'after before since during for from in on at with without by of to into over under about as if when while because although once until unless like per via across between among through beyond within near below above unlike despite and but or so then also just even only here there what which who where how why our your their its this that these those one two three four five six seven eight nine ten note total budget deadline scope goal aim target timeline'.split(
    ' ',
  ),
);

/** Whether a sentence opens with an imperative verb ("Write unit tests for …"). */
// Words that may open an instruction before its verb: "Finally, present …", "Then deploy …".
const LEADING_ADVERBS = new Set(
  'finally then also next first second third lastly additionally afterwards briefly please kindly pls plz now and'.split(
    ' ',
  ),
);

/**
 * Whether a sentence is an instruction: it opens with an imperative verb ("Write unit tests
 * for …"), possibly after an adverb ("Finally, present …"), or its main clause does after a
 * leading clause ("Before you hand anything over, run usability tests …").
 */
export function isImperative(sentence: string): boolean {
  const opensWithVerb = (clause: string) => {
    const words = (clause.match(/[A-Za-z]+/g) ?? []).map((w) => w.toLowerCase());
    let i = 0;
    while (i < words.length && LEADING_ADVERBS.has(words[i] as string)) i++;
    // "Re-test", "re-run": the verb after the prefix decides.
    if (words[i] === 're' && words[i + 1] !== undefined) i++;
    const verb = words[i];
    if (verb === undefined) return false;
    if (IMPERATIVE_VERBS.has(verb)) return true;
    // A verb the list does not know, by its place: the first word, a plain form (no "-s",
    // "-ed", "-ing", "-ly"), not a function word, and an object after it that opens with a
    // determiner or a quantity ("Weigh the sample …", "Scout at least 60 fields …").
    const next = words.slice(i + 1, i + 3).join(' ');
    return (
      /^[a-z]{3,}$/.test(verb) &&
      !/(?:s|ed|ing|ly)$/.test(verb) &&
      !NOT_VERBS.has(verb) &&
      isContentWord(verb) &&
      /^(?:the|a|an|each|every|all|any|at least|at most|up to|this|these|those)\b/.test(next)
    );
  };
  if (opensWithVerb(sentence)) return true;
  const clauses = sentence.split(/[,;]\s+/).slice(1, 3);
  return (
    /^(before|after|once|when|if|as|while|for|to|using|with|from|in)\b/i.test(sentence.trim()) &&
    clauses.some(opensWithVerb)
  );
}
