/**
 * Stylometric "AI content" signal. Pure functions: no bindings, no I/O.
 *
 * SOFT SIGNAL. Stylometric detectors of machine-generated text misfire, and they misfire
 * most on people writing in a second language, whose simpler vocabulary and regular
 * sentences look "machine-like" to every feature below. This signal may lower a score and,
 * with corroboration, send work to review; it must never decide a verdict on its own
 * (score.ts enforces that). Its risk is capped at MAX_AI_RISK because it is never proof.
 *
 * Features (all reported in evidence, rounded to 4 decimals):
 *  - sentenceLengthMean, sentenceLengthCv: words per sentence and its coefficient of variation
 *    ("burstiness"). People mix short and long sentences (CV ≈ 0.5–0.8); templated generated
 *    text is even (CV ≈ 0.2–0.35).
 *  - mattr: moving-average type-token ratio over a 50-word window (Covington & McFall 2010),
 *    which unlike the plain ratio does not fall as a text gets longer.
 *  - functionWordRate, hapaxRatio, avgWordLength, punctuationDiversity.
 *  - repeatedTrigramRate: share of word trigrams whose trigram occurs more than once.
 *  - aiPhraseRate: stock phrases ("moreover", "it is important to note", "delve", …) per
 *    100 words; connectiveOpenerShare: share of sentences opening with a stock connective.
 *
 * Scoring: each weighted feature is turned into a bounded deviation s (roughly −1 = human-like,
 * +1 = template-like, see SCORING) and risk = σ(−1.5 + Σ weight·s), σ the logistic function,
 * capped at MAX_AI_RISK. With every deviation at 0 the risk is σ(−1.5) ≈ 0.18. Function-word
 * rate and hapax ratio are reported but carry no weight: they depend on text length and on
 * the writer's first language more than on who wrote the text. Lexical diversity (mattr) gets
 * a small weight for the same reason.
 *
 * Texts under MIN_WORDS (80) words are too short to measure: risk is capped at
 * SHORT_TEXT_RISK_CAP (0.3) and a note says so. Empty text has risk 0.
 *
 * Reporting follows Turnitin's practice for its AI indicator (`reportAiContent`): no figure
 * for texts under AI_FIGURE_MIN_WORDS (300) words (risk 0, band `insufficient_text`), and a
 * band rather than a point below AI_BAND_CEILING (20 %: risk 0, band `below_20_percent`),
 * because false positives concentrate in exactly those two regions.
 */

/** Below this many words, stylometry is noise: risk is capped and a note added. */
export const MIN_WORDS = 80;
/** Risk cap for texts shorter than MIN_WORDS. */
export const SHORT_TEXT_RISK_CAP = 0.3;
/** A stylometric signal is never certainty. */
export const MAX_AI_RISK = 0.9;
/** MATTR window, in words. */
export const MATTR_WINDOW = 50;
/** Logistic intercept: the risk when every deviation is neutral is σ(INTERCEPT) ≈ 0.18. */
export const INTERCEPT = -1.5;

/** No AI-content figure is given for shorter texts. */
export const AI_FIGURE_MIN_WORDS = 300;
/** Below this estimate only a band is reported, never the point. */
export const AI_BAND_CEILING = 0.2;

/** How an AI-content estimate is reported: no figure, a band, or the measured risk. */
export type AiContentBand = 'insufficient_text' | 'below_20_percent' | 'measured';

export type AiContentSignal = {
  risk: number;
  evidence: { features: Record<string, number>; notes: string[]; soft: true; band?: AiContentBand };
};

/**
 * Applies the reporting policy to an estimate (local or blended with a model's): under 300
 * words no figure, under 20 % a band. The risk that feeds the score is what is reported, so a
 * figure that is not shown cannot lower a score either.
 */
export function reportAiContent(signal: AiContentSignal): AiContentSignal {
  const words = signal.evidence.features.wordCount ?? 0;
  const { logit: _logit, ...features } = signal.evidence.features;
  if (words < AI_FIGURE_MIN_WORDS)
    return {
      risk: 0,
      evidence: {
        ...signal.evidence,
        features,
        band: 'insufficient_text',
        notes: [
          `No figure: ${words} words is fewer than ${AI_FIGURE_MIN_WORDS}, below which AI-content estimates are unreliable.`,
          ...signal.evidence.notes.filter((n) => !n.startsWith('Low confidence')),
        ],
      },
    };
  if (signal.risk < AI_BAND_CEILING)
    return {
      risk: 0,
      evidence: {
        ...signal.evidence,
        features,
        band: 'below_20_percent',
        notes: [
          `Below ${Math.round(AI_BAND_CEILING * 100)} %: reported as a band, not a figure.`,
          ...signal.evidence.notes,
        ],
      },
    };
  return { ...signal, evidence: { ...signal.evidence, band: 'measured' } };
}

/** Phrases over-represented in generated prose. Matched on lower-case text at word boundaries. */
export const AI_PHRASES: readonly string[] = [
  'moreover',
  'furthermore',
  'additionally',
  'in addition',
  'in conclusion',
  'in summary',
  'to summarize',
  'overall',
  'ultimately',
  'it is important to note',
  'it is worth noting',
  'it is crucial',
  'it is essential',
  'delve',
  'delves',
  'delving',
  'in today’s',
  "in today's",
  'fast-paced',
  'ever-evolving',
  'landscape',
  'tapestry',
  'testament to',
  'plays a crucial role',
  'play a crucial role',
  'plays a pivotal role',
  'play a pivotal role',
  'pivotal',
  'crucial',
  'comprehensive',
  'holistic',
  'multifaceted',
  'seamless',
  'robust',
  'leverage',
  'leveraging',
  'harness',
  'foster',
  'underscore',
  'underscores',
  'navigating the complexities',
  'navigate the complexities',
  'in the realm of',
  'a myriad of',
  'firstly',
  'secondly',
  'thirdly',
];

/** Connectives whose use as a sentence opener is counted in connectiveOpenerShare. */
const OPENERS: readonly string[] = [
  'moreover',
  'furthermore',
  'additionally',
  'in addition',
  'in conclusion',
  'in summary',
  'overall',
  'ultimately',
  'consequently',
  'therefore',
  'thus',
  'firstly',
  'secondly',
  'thirdly',
  'finally',
  'lastly',
];

/** Common English function words (articles, pronouns, prepositions, auxiliaries, conjunctions). */
const FUNCTION_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the this that these those i me my mine we us our you your he him his she her it its they ' +
    'them their what which who whom whose and but or nor so yet for if then than because as while ' +
    'although though since unless until when where whether of in on at by with from to into onto ' +
    'about above below over under between among through during before after against without within ' +
    'along across behind beyond up down out off around near is am are was were be been being have ' +
    'has had having do does did doing will would shall should can could may might must not no yes ' +
    'all any both each every few more most other some such only own same very just also too there ' +
    'here how why again once'
  ).split(' '),
);

/** Punctuation marks counted for diversity; curly quotes are folded to straight ones first. */
const PUNCTUATION_MARKS = [',', '.', ';', ':', '!', '?', '—', '–', '-', '(', '"', "'", '…'];

const WORD = /\p{L}[\p{L}\p{M}\p{N}'’-]*/gu;

type Scored = { feature: string; weight: number; deviation: (x: number) => number };

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

/**
 * How each weighted feature moves the logit. Deviations are linear ramps, clamped: the
 * constants are the neutral point and the distance to a full ±1.
 */
export const SCORING: readonly Scored[] = [
  // Even sentence lengths: CV 0.2 → +1, 0.45 → 0, 0.7 → −1.
  { feature: 'sentenceLengthCv', weight: 1.2, deviation: (cv) => clamp((0.45 - cv) / 0.25, -1, 1) },
  // Stock phrases: 0 per 100 words → 0, 2 → +1, 3 or more → +1.5.
  { feature: 'aiPhraseRate', weight: 1.5, deviation: (r) => clamp(r / 2, 0, 1.5) },
  // Connective openers: 10 % of sentences → 0, 40 % → +1; none → −0.33.
  { feature: 'connectiveOpenerShare', weight: 1.2, deviation: (s) => clamp((s - 0.1) / 0.3, -0.5, 1) },
  // Recycled trigrams: 5 % → 0, 20 % → +1.
  { feature: 'repeatedTrigramRate', weight: 0.8, deviation: (r) => clamp((r - 0.05) / 0.15, -0.5, 1) },
  // Low lexical diversity: 0.72 → 0, 0.60 → +1. Small weight: L2 writers have smaller vocabularies.
  { feature: 'mattr', weight: 0.3, deviation: (m) => clamp((0.72 - m) / 0.12, -1, 1) },
  // Few kinds of punctuation: 4 of 13 marks → 0, none → +1.
  { feature: 'punctuationDiversity', weight: 0.4, deviation: (d) => clamp((0.3 - d) / 0.3, -1, 1) },
  // Long words: 4.8 letters → 0, 5.4 → +1.
  { feature: 'avgWordLength', weight: 0.4, deviation: (l) => clamp((l - 4.8) / 0.6, -1, 1) },
];

const round4 = (x: number) => (Number.isFinite(x) ? Math.round(x * 10_000) / 10_000 : 0);
const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);

function words(text: string): string[] {
  return (text.toLowerCase().match(WORD) ?? []).map((w) => w.replace(/’/g, "'"));
}

/**
 * Sentences: split after . ! ? … followed by space, at blank lines, and before list items or
 * headings, so that hard-wrapped paragraphs stay whole but bullet lists do not merge.
 */
function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?…])["')\]]*\s+|\n\s*\n|\n(?=\s*(?:[-*•#]|\d+[.)])\s)/u)
    .map((s) => s.trim())
    .filter((s) => words(s).length > 0);
}

function mattr(tokens: readonly string[], window: number): number {
  if (tokens.length === 0) return 0;
  if (tokens.length <= window) return new Set(tokens).size / tokens.length;
  const counts = new Map<string, number>();
  let distinct = 0;
  const add = (w: string, d: number) => {
    const c = (counts.get(w) ?? 0) + d;
    if (c === 0) {
      counts.delete(w);
      distinct--;
    } else {
      if (c === 1 && d === 1) distinct++;
      counts.set(w, c);
    }
  };
  for (let i = 0; i < window; i++) add(tokens[i]!, 1);
  let sum = distinct;
  for (let i = window; i < tokens.length; i++) {
    add(tokens[i]!, 1);
    add(tokens[i - window]!, -1);
    sum += distinct;
  }
  return sum / window / (tokens.length - window + 1);
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const phrasePattern = (phrases: readonly string[]) =>
  new RegExp(`(?<![\\p{L}\\p{N}])(?:${phrases.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}])`, 'gu');
const AI_PHRASE_PATTERN = phrasePattern(
  // Longest first, so "plays a crucial role" is one hit rather than "crucial" alone.
  [...AI_PHRASES].sort((a, b) => b.length - a.length),
);
const OPENER_PATTERN = new RegExp(`^["'(]*(?:${OPENERS.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}])`, 'u');

/**
 * Stylometric features of a text. Every value is a finite number (0 when undefined, e.g. the
 * CV of an empty text).
 */
export function stylometricFeatures(text: string): Record<string, number> {
  const tokens = words(text);
  const sents = sentences(text);
  const lengths = sents.map((s) => words(s).length);
  const mean = ratio(
    lengths.reduce((a, b) => a + b, 0),
    lengths.length,
  );
  const variance = ratio(
    lengths.reduce((a, b) => a + (b - mean) ** 2, 0),
    lengths.length,
  );
  const counts = new Map<string, number>();
  for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
  const hapax = [...counts.values()].filter((c) => c === 1).length;

  const trigramCounts = new Map<string, number>();
  for (let i = 0; i + 2 < tokens.length; i++) {
    const key = `${tokens[i]} ${tokens[i + 1]} ${tokens[i + 2]}`;
    trigramCounts.set(key, (trigramCounts.get(key) ?? 0) + 1);
  }
  const trigramTotal = Math.max(0, tokens.length - 2);
  const repeated = [...trigramCounts.values()].filter((c) => c > 1).reduce((a, b) => a + b, 0);

  const folded = text.replace(/[“”]/g, '"').replace(/[‘’]/g, "'");
  const marksUsed = PUNCTUATION_MARKS.filter((m) => folded.includes(m)).length;
  const lower = text.toLowerCase().replace(/’/g, "'");
  const phraseHits = lower.match(AI_PHRASE_PATTERN)?.length ?? 0;
  const openers = sents.filter((s) => OPENER_PATTERN.test(s.toLowerCase())).length;

  const features: Record<string, number> = {
    wordCount: tokens.length,
    sentenceCount: sents.length,
    sentenceLengthMean: mean,
    sentenceLengthCv: ratio(Math.sqrt(variance), mean),
    mattr: mattr(tokens, MATTR_WINDOW),
    functionWordRate: ratio(tokens.filter((t) => FUNCTION_WORDS.has(t)).length, tokens.length),
    hapaxRatio: ratio(hapax, counts.size),
    avgWordLength: ratio(
      tokens.reduce((a, t) => a + t.replace(/['’-]/g, '').length, 0),
      tokens.length,
    ),
    punctuationDiversity: marksUsed / PUNCTUATION_MARKS.length,
    repeatedTrigramRate: ratio(repeated, trigramTotal),
    aiPhraseRate: ratio(phraseHits * 100, tokens.length),
    connectiveOpenerShare: ratio(openers, sents.length),
  };
  for (const key of Object.keys(features)) features[key] = round4(features[key] ?? 0);
  return features;
}

/**
 * The AI-content signal of a text: stylometric features combined by a fixed logistic model
 * (see the module comment). A SOFT signal: it misfires on non-native writers and must never
 * decide a verdict alone. Deterministic; never NaN.
 */
export function aiContentSignal(text: string): AiContentSignal {
  const features = stylometricFeatures(text);
  const notes: string[] = [];
  const wordCount = features.wordCount ?? 0;
  if (wordCount === 0) {
    notes.push('No text to analyse.');
    return { risk: 0, evidence: { features, notes, soft: true } };
  }

  let logit = INTERCEPT;
  for (const { feature, weight, deviation } of SCORING) {
    // Burstiness needs a few sentences before it means anything.
    if (feature === 'sentenceLengthCv' && (features.sentenceCount ?? 0) < 3) continue;
    logit += weight * deviation(features[feature] ?? 0);
  }
  let risk = Math.min(MAX_AI_RISK, 1 / (1 + Math.exp(-logit)));
  features.logit = round4(logit);

  if (wordCount < MIN_WORDS) {
    risk = Math.min(risk, SHORT_TEXT_RISK_CAP);
    notes.push(
      `Low confidence: only ${wordCount} words (fewer than ${MIN_WORDS}); risk capped at ${SHORT_TEXT_RISK_CAP}.`,
    );
  }
  if ((features.aiPhraseRate ?? 0) >= 2) notes.push('Frequent stock connective phrases.');
  if ((features.sentenceCount ?? 0) >= 3 && (features.sentenceLengthCv ?? 1) < 0.3) {
    notes.push('Unusually even sentence lengths.');
  }
  if ((features.repeatedTrigramRate ?? 0) >= 0.15) notes.push('Many repeated three-word phrases.');
  notes.push('Soft signal: stylometry misfires on non-native writers and never decides a verdict alone.');
  return { risk: round4(risk), evidence: { features, notes, soft: true } };
}
