/**
 * Which field a brief comes from: its `domain` names it when it can, and the brief's own
 * vocabulary (title, deliverables, criteria) decides otherwise or confirms. A brief that
 * points nowhere clearly is `unknown`, and its plan says so (`confidence: "low"`). The field
 * comes back with the variants the brief's words switch on already applied (an analysis brief
 * gets no train/test split; a Flutter brief no React Native tools).
 *
 * Also here: the archetype a deliverable is planned from (borrowed from another field when its
 * own has none that fits) and the way each success criterion is checked.
 */
import { stem } from '../text';
import {
  CRITERION_CHECKS,
  type DeliverableArchetype,
  FIELDS,
  type Field,
  type FieldKey,
  GENERAL_FIELD,
} from './fields';

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

/** Stemmed vocabulary phrases, computed once: the vocabulary is fixed, briefs are many. */
const PHRASE_CACHE = new Map<string, string[]>();
function stemmedPhrase(phrase: string): string[] {
  let out = PHRASE_CACHE.get(phrase);
  if (!out) {
    out = stemmed(phrase);
    if (PHRASE_CACHE.size < 20_000) PHRASE_CACHE.set(phrase, out);
  }
  return out;
}

/** Score of the phrases found: a phrase counts its word count, so "financial model" beats "model". */
export function phraseScore(text: string | readonly string[], phrases: readonly string[]): number {
  const haystack = typeof text === 'string' ? stemmed(text) : text;
  let score = 0;
  for (const p of phrases) {
    const phrase = stemmedPhrase(p);
    if (hasPhrase(haystack, phrase)) score += phrase.length;
  }
  return score;
}

/**
 * The field a free-form domain names ("Android", "FP&A", "UX research"), or `unknown`. Longer
 * names win ("ux research" over "ux", "data science" over "data"); "mobile" alone names no
 * platform, so it decides nothing.
 */
export function fieldForDomain(domain: string | undefined | null): FieldKey {
  if (!domain) return 'unknown';
  const slug = domain.toLowerCase().trim();
  const exact = FIELDS.find((f) => f.key === slug);
  if (exact) return exact.key;
  const alias = DOMAIN_ALIASES[slug];
  if (alias) return alias;
  const haystack = stemmed(domain);
  let best: { key: FieldKey; length: number } | null = null;
  for (const field of FIELDS)
    for (const name of field.domains) {
      const phrase = stemmed(name);
      if (hasPhrase(haystack, phrase) && (best === null || phrase.length > best.length))
        best = { key: field.key, length: phrase.length };
    }
  return best?.key ?? 'unknown';
}

/**
 * Domains that name a field only as the whole domain: "Go" and "Rust" are the languages of a
 * backend service, but as words of a longer domain ("go-to-market", "wheat rust") they are not.
 */
const DOMAIN_ALIASES: Readonly<Record<string, FieldKey>> = {
  go: 'backend',
  golang: 'backend',
  rust: 'backend',
};

/** Whether the domain names the field in so many words ("Data Science"), not only by a shared stem ("Analytical chemistry"). */
function namesFieldExactly(domain: string, key: FieldKey): boolean {
  const field = FIELDS.find((f) => f.key === key);
  if (!field) return false;
  const surface = words(domain);
  const slug = domain.toLowerCase().trim();
  return slug === key || field.domains.some((name) => hasPhrase(surface, words(name)));
}

/**
 * The field the domain names, when the brief bears it out: named in so many words, or by a
 * shared stem with at least one word of the field's vocabulary in the brief. "Analytical
 * chemistry" shares a stem with "analytics" and nothing else with data science: unknown.
 */
export function supportedDomainField(domain: string, text: readonly string[]): FieldKey {
  const named = fieldForDomain(domain);
  if (named === 'unknown') return named;
  const field = FIELDS.find((f) => f.key === named);
  if (!field) return 'unknown';
  // "Interior design", "Market research", "Medical writing", "Data annotation": a generic head
  // word of a field, qualified by a word the field does not know, names another field. The
  // brief's own words must then carry the field on their own (see `vocabularyEvidence`).
  if (qualifiedElsewhere(domain, field)) return 'unknown';
  if (namesFieldExactly(domain, named)) return named;
  return vocabularyEvidence(text, field).distinctive > 0 ? named : 'unknown';
}

/**
 * Head words that many fields share: a domain naming a field by one of these alone, with a
 * qualifier the field does not know, names a field outside the knowledge base.
 */
const GENERIC_HEADS = new Set(
  'design research writing data analytics analysis statistics content cloud infrastructure security audit documentation docs finance financial investment banking accounting server database api apis ops communications growth editorial ux ui'.split(
    ' ',
  ),
);
/** Words of a domain that qualify nothing: "app development", "backend services", "content team". */
const NEUTRAL_DOMAIN_WORDS = new Set(
  'and & of for the a an in app apps application applications development developer engineering engineer services service project projects team work specialist freelance consulting consultant lead senior junior general basic advanced end product products platform platforms software tech technology it digital online mobile website web systems system'.split(
    ' ',
  ),
);

/** Whether the domain names the field only by a generic head word that another word of the domain qualifies away. */
function qualifiedElsewhere(domain: string, field: Field): boolean {
  const surface = words(domain);
  if (surface.length < 2) return false;
  const known = new Set(
    [...field.domains, ...field.vocabulary, ...field.key.split('-')].flatMap((p) => words(p)),
  );
  // Only a single generic word of the domain names the field: longer names ("ux research",
  // "data science", "cloud engineering") name it in so many words.
  const longNames = field.domains.filter((d) => words(d).length > 1);
  if (longNames.some((name) => hasPhrase(surface, words(name)))) return false;
  const heads = surface.filter((w) => GENERIC_HEADS.has(w) && known.has(w));
  if (heads.length === 0) return false;
  return surface.some((w) => !known.has(w) && !NEUTRAL_DOMAIN_WORDS.has(w) && !GENERIC_HEADS.has(w));
}

/**
 * Vocabulary words that other fields use as much, known to the knowledge base or not: "data"
 * and "model" in actuarial work, "survey" in land surveying, "audit" in accounting, "coding"
 * in medicine, "endpoint" in a clinical trial, "room" in a flat. They count half, and never
 * make a field on their own: a field needs at least one of its distinctive words.
 */
const SHARED_VOCABULARY = new Set(
  [
    // data science
    'data',
    'dataset',
    'model',
    'analysis',
    'forecast',
    'predict',
    'dashboard',
    'csv',
    'sql',
    'regression',
    'classification',
    'cohort',
    // ml research
    'paper',
    'baseline',
    'hypothesis',
    'benchmark',
    'reproduce',
    'reproduction',
    'embedding',
    'checkpoint',
    // ux research
    'research',
    'survey',
    'interview',
    'interviews',
    'participants',
    'insights',
    'persona',
    'personas',
    'journey map',
    'affinity',
    'user testing',
    'usability',
    // security
    'audit',
    'attack',
    'injection',
    'hardening',
    'exploit',
    'vulnerability',
    'vulnerabilities',
    // design
    'brand',
    'colour',
    'color',
    'logo',
    'icons',
    'typography',
    'prototype',
    'mockup',
    'mockups',
    'poster',
    'flyer',
    'brochure',
    'illustration',
    'components',
    'style guide',
    // marketing and writing
    'copy',
    'launch',
    'social',
    'email',
    'emails',
    'audience',
    'ad',
    'ads',
    'campaign',
    'conversion',
    'blog',
    'newsletter',
    'funnel',
    'article',
    'articles',
    'editorial',
    'essay',
    'plagiarism',
    'citations',
    'cites',
    'word count',
    'long form',
    // devops and backend
    'pipeline',
    'deploy',
    'monitoring',
    'alerting',
    'uptime',
    'infrastructure',
    'ci',
    'cd',
    'runbook',
    'api',
    'rest',
    'endpoint',
    'endpoints',
    'server',
    'queue',
    'database',
    'crud',
    'webhook',
    // technical writing
    'documentation',
    'docs',
    'reference',
    'guide',
    'manual',
    'tutorial',
    'how-to',
    'knowledge base',
    'help center',
    'onboarding guide',
    'release notes',
    // finance and sales
    'revenue',
    'budget',
    'scenario',
    'sensitivity',
    'variance',
    'valuation',
    'cash flow',
    'pivot',
    'excel',
    'spreadsheet',
    'balance sheet',
    'p&l',
    'sales',
    'prospect',
    'prospects',
    'b2b',
    'crm',
    'quota',
    'outbound',
    'objection',
    // web and mobile
    'component',
    'browser',
    'responsive',
    'single page',
    'website',
    'compose',
    'room',
    'swift',
    'apple',
    'expo',
    'dart',
    'both platforms',
  ].map((p) => stemmed(p).join(' ')),
);

/** How much of a field's vocabulary the words use: shared words half, and how many distinctive words. */
export function vocabularyEvidence(
  text: readonly string[],
  field: Field,
): { score: number; distinctive: number } {
  let score = 0;
  let distinctive = 0;
  for (const p of field.vocabulary) {
    const phrase = stemmedPhrase(p);
    if (!hasPhrase(text, phrase)) continue;
    if (SHARED_VOCABULARY.has(phrase.join(' '))) score += phrase.length / 2;
    else {
      score += phrase.length;
      distinctive += 1;
    }
  }
  return { score, distinctive };
}

/**
 * Words of fields the knowledge base does not cover (clinical, legal, surveying, actuarial,
 * translation, civil, agriculture, logistics, HR, audio and video, interiors, teaching,
 * accounting, events). They compete with the known fields: a brief that uses them as much as
 * any known field's words is `unknown`, unless its domain names a known field outright.
 */
const OTHER_FIELDS_VOCABULARY = [
  // clinical, pharma, medicine
  'clinical',
  'patient',
  'patients',
  'trial',
  'trials',
  'pharmacovigilance',
  'adverse event',
  'adverse events',
  'regulatory',
  'dossier',
  'drug',
  'dose',
  'physician',
  'diagnosis',
  'diagnoses',
  'medical',
  'hospital',
  'nurse',
  'icd',
  'meddra',
  'whodrug',
  'sop',
  'gmp',
  'laboratory',
  'assay',
  'protocol',
  'efficacy',
  'safety',
  'estimand',
  'estimands',
  'csr',
  'ich',
  'smpc',
  'leaflet',
  'inhaler',
  // legal, patents
  'contract',
  'contracts',
  'clause',
  'clauses',
  'agreement',
  'indemnity',
  'liability',
  'litigation',
  'counsel',
  'statute',
  'patent',
  'patents',
  'redline',
  'legal',
  'lawyer',
  'court',
  // surveying, GIS, civil engineering
  'boundary',
  'cadastral',
  'parcel',
  'traverse',
  'total station',
  'theodolite',
  'topographic',
  'gis',
  'dem',
  'flood',
  'hydraulic',
  'river',
  'rainfall',
  'catchment',
  'culvert',
  'bridge',
  'concrete',
  'rcc',
  'reinforcement',
  'structural',
  'beam',
  'foundation',
  'chainage',
  // agriculture, food
  'crop',
  'crops',
  'farm',
  'farmer',
  'farmers',
  'soil',
  'fertiliser',
  'fertilizer',
  'irrigation',
  'harvest',
  'seed',
  'livestock',
  'dairy',
  'milk',
  'food safety',
  'recipe',
  'kitchen',
  'menu',
  'catering',
  // logistics
  'freight',
  'shipment',
  'shipments',
  'warehouse',
  'fleet',
  'route',
  'routes',
  'van',
  'vans',
  'truck',
  'trucks',
  'depot',
  'cold chain',
  // insurance, actuarial, accounting
  'actuarial',
  'reserving',
  'reserve',
  'reserves',
  'claims',
  'premium',
  'mortality',
  'ibnr',
  'insurance',
  'underwriting',
  'annuity',
  'ledger',
  'reconciliation',
  'gst',
  'tax',
  'asset',
  'assets',
  'chain-ladder',
  'triangle',
  'triangles',
  // translation
  'translate',
  'translation',
  'translator',
  'linguist',
  'localisation',
  'localization',
  'glossary',
  'subtitles',
  'subtitle',
  // HR
  'hr',
  'payroll',
  'recruitment',
  'hiring',
  'salary',
  'salaries',
  'compensation',
  'employees',
  'levelling',
  'leveling',
  'appraisal',
  'job description',
  // audio, video
  'podcast',
  'audio',
  'mixing',
  'mastering',
  'mixed',
  'mastered',
  'loudness',
  'lufs',
  'video',
  'footage',
  'storyboard',
  'voice-over',
  'voiceover',
  'animation',
  'episode',
  'episodes',
  // interiors, architecture
  'interior',
  'furniture',
  'lighting',
  'floor plan',
  'apartment',
  'flat',
  'architecture',
  'architect',
  // teaching
  'e-learning',
  'learners',
  'course',
  'lesson',
  'lessons',
  'curriculum',
  'quiz',
  'scorm',
  'teacher',
  'students',
  'syllabus',
  // events, retail, annotation
  'wedding',
  'guests',
  'venue',
  'event',
  'retailer',
  'retailers',
  'store',
  'stores',
  'focus group',
  'market sizing',
  'annotation',
  'annotator',
  'annotators',
  'labelling',
  'labeling',
  'bounding box',
  'bounding boxes',
];

/** How much the words use the vocabulary of fields the knowledge base does not cover. */
export function otherFieldsEvidence(text: readonly string[]): number {
  return phraseScore(text, OTHER_FIELDS_VOCABULARY);
}

/**
 * The field of a free-text brief (a rubric's): the domain's, when the brief bears it out (see
 * `supportedDomainField`), else the field whose vocabulary the text uses most, with at least
 * three words and no tie; else `unknown`.
 */
export function fieldOfText(domain: string | undefined, text: string): FieldKey {
  const haystack = stemmed(text);
  const named = domain ? supportedDomainField(domain, haystack) : 'unknown';
  if (named !== 'unknown') return named;
  return fieldByVocabulary(haystack, 3);
}

/**
 * The field whose vocabulary the words carry clearly, or `unknown`: at least `minimum` points
 * (shared words count half) with at least one distinctive word, one point more than the
 * runner-up, and more than the words of fields outside the knowledge base.
 */
function fieldByVocabulary(haystack: readonly string[], minimum: number): FieldKey {
  const [top, next] = FIELDS.map((f) => ({ key: f.key, ...vocabularyEvidence(haystack, f) })).sort(
    (a, b) => b.score - a.score,
  );
  if (!top || top.score < minimum || top.distinctive === 0) return 'unknown';
  if (next && top.score - next.score < 1) return 'unknown';
  return otherFieldsEvidence(haystack) >= top.score ? 'unknown' : top.key;
}

export type BriefLike = {
  title: string;
  domain: string;
  deliverables: readonly string[];
  successCriteria: readonly string[];
};

/** The stemmed words of a brief's title, deliverables and criteria. */
export function briefWords(brief: Omit<BriefLike, 'domain'>): string[] {
  return stemmed([brief.title, ...brief.deliverables, ...brief.successCriteria].join(' \n '));
}

/** The best archetype of a field for a deliverable, or null when none of its words match. */
export function archetypeFor(field: Field, deliverable: string): DeliverableArchetype | null {
  return bestArchetype(field, stemmed(deliverable))?.archetype ?? null;
}

function bestArchetype(
  field: Field,
  haystack: readonly string[],
): { archetype: DeliverableArchetype; score: number } | null {
  let best: { archetype: DeliverableArchetype; score: number } | null = null;
  for (const archetype of field.archetypes) {
    const score = phraseScore(haystack, archetype.match);
    if (score > 0 && (best === null || score > best.score)) best = { archetype, score };
  }
  return best;
}

/**
 * The field with the variants the brief's words switch on applied, in order: their members
 * replace the field's, their archetypes replace those of the same key or are added.
 */
export function resolveField(field: Field, words: readonly string[]): Field {
  let out = field;
  for (const variant of field.variants ?? []) {
    if (phraseScore(words, variant.when) === 0) continue;
    const own = variant.archetypes ?? [];
    const replaced = new Map(own.map((a) => [a.key, a] as const));
    const archetypes = [
      ...out.archetypes.map((a) => replaced.get(a.key) ?? a),
      ...own.filter((a) => !out.archetypes.some((b) => b.key === a.key)),
    ];
    out = {
      ...out,
      setup: variant.setup ?? out.setup,
      habit: variant.habit ?? out.habit,
      check: variant.check ?? out.check,
      integrate: variant.integrate ?? out.integrate,
      setupTopics: variant.setupTopics ?? out.setupTopics,
      fallback: variant.fallback ?? out.fallback,
      guidance: variant.guidance ?? out.guidance,
      archetypes,
    };
  }
  return out;
}

/** Where a deliverable's steps come from: an archetype of the brief's field or, borrowed, of another. */
export type PlannedArchetype = { archetype: DeliverableArchetype; from: FieldKey };

/**
 * The archetype a deliverable is planned from. Its own field's best archetype when one matches;
 * otherwise, outside `unknown`, the best archetype of another field whose own vocabulary also
 * names the deliverable (a logo in a marketing brief is planned as visual design, a budget
 * spreadsheet as finance), scored by archetype and vocabulary words matched. Fields tied on that
 * score are separated by how much of their vocabulary the whole brief uses; a tie that remains
 * borrows nothing, and the field's fallback steps apply.
 */
export function planArchetype(
  field: Field,
  deliverable: string,
  brief: readonly string[],
): PlannedArchetype | null {
  const haystack = stemmed(deliverable);
  const own = bestArchetype(field, haystack);
  if (own) return { archetype: own.archetype, from: field.key };
  if (field.key === 'unknown') return null;
  type Candidate = PlannedArchetype & { score: number; affinity: number };
  let best: Candidate | null = null;
  let tied = false;
  for (const other of FIELDS) {
    if (other.key === field.key) continue;
    const vocabulary = phraseScore(haystack, other.vocabulary);
    if (vocabulary === 0) continue;
    const found = bestArchetype(resolveField(other, brief), haystack);
    if (!found) continue;
    const candidate: Candidate = {
      archetype: found.archetype,
      from: other.key,
      score: found.score + vocabulary,
      affinity: phraseScore(brief, other.vocabulary),
    };
    const order = best === null ? 1 : candidate.score - best.score || candidate.affinity - best.affinity;
    if (order > 0) {
      best = candidate;
      tied = false;
    } else if (order === 0) tied = true;
  }
  return best && !tied ? { archetype: best.archetype, from: best.from } : null;
}

/**
 * How a success criterion is checked: by the criterion rule (`CRITERION_CHECKS`) of the field,
 * or of every field, whose words match it best (ties to the earlier rule), else the field's own
 * way (`Field.check`).
 */
export function checkFor(field: Field, criterion: string): string {
  const haystack = stemmed(criterion);
  let best: { check: string; score: number } | null = null;
  for (const rule of CRITERION_CHECKS) {
    if (rule.fields && !rule.fields.includes(field.key)) continue;
    const score = phraseScore(haystack, rule.match);
    if (score > 0 && (best === null || score > best.score)) best = { check: rule.check, score };
  }
  return best?.check ?? field.check;
}

/**
 * The field of a brief and how sure the plan can be. The domain counts four points; vocabulary
 * in the brief counts a point per word matched. Below two points, or when two fields tie, the
 * brief is `unknown`. A field that `supersedes` others takes the brief when the brief names it
 * ("React Native") and the domain names one of those others, or nothing: native Android steps
 * are wrong for a React Native app whatever the domain says.
 */
export function detectField(brief: BriefLike): { field: Field; confidence: PlanConfidence } {
  const text = briefWords(brief);
  const named = supportedDomainField(brief.domain, text);
  const claimed = FIELDS.find(
    (f) =>
      f.supersedes !== undefined &&
      (named === f.key || named === 'unknown' || f.supersedes.fields.includes(named)) &&
      phraseScore(text, f.supersedes.when) > 0,
  );
  const scored = FIELDS.map((field) => {
    const evidence = vocabularyEvidence(text, field);
    return {
      field,
      vocabulary: evidence.score,
      distinctive: evidence.distinctive,
      score: evidence.score + (field.key === named ? 4 : 0),
    };
  }).sort((a, b) => b.score - a.score);
  const [top, next] = scored;
  const chosen = claimed ? scored.find((s) => s.field.key === claimed.key) : top;
  // Without a domain that names it, a field needs its own words: two points or more, at least
  // one distinctive word, a point clear of the runner-up, and more than the words of fields the
  // knowledge base does not cover ("dose", "clause", "soil", "podcast").
  const weak =
    !top ||
    top.score < 2 ||
    (next !== undefined && top.score - next.score < 1) ||
    (top.field.key !== named && (top.distinctive === 0 || otherFieldsEvidence(text) >= top.vocabulary));
  if (!claimed && weak) return { field: GENERAL_FIELD, confidence: 'low' };
  if (!chosen) return { field: GENERAL_FIELD, confidence: 'low' };
  const field = resolveField(chosen.field, text);
  const matched = brief.deliverables.filter((d) => archetypeFor(field, d) !== null).length;
  const share = brief.deliverables.length === 0 ? 0 : matched / brief.deliverables.length;
  const sure =
    claimed !== undefined || (field.key === named && chosen.vocabulary >= 1) || chosen.vocabulary >= 3;
  return { field, confidence: sure && share >= 0.5 ? 'high' : 'medium' };
}
