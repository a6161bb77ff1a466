/**
 * Local evaluation: scores a submission against a rubric, criterion by criterion.
 *
 * For each criterion the score combines three things:
 * - coverage: how many of the criterion's content words (stemmed) the submission uses, its
 *   name and source sentence counting double against the longer description;
 * - evidence: artefacts of the criterion's theme (test files for testing, a README for
 *   documentation, a Dockerfile or CI workflow for deployment, …);
 * - substance: how much the submission says at all — counted only where it is on topic, so a
 *   long off-topic essay gains nothing.
 * Explanations name the words and artefacts that were found and the words that were missing.
 *
 * Works on any rubric (also ones written by Workers AI): the theme is re-detected from the
 * criterion's own text.
 */

import { contentStems, splitSentences, surfaceWords, tokenize } from './text';
import { classifyTheme, THEMES, type ThemeKey, themeStems } from './themes';
import type { CriterionScore, Rubric, RubricCriterion, SubmissionContent, SubmissionScore } from './types';

/** Coverage at which the coverage component is full: a submission need not echo every word of the brief. */
const FULL_COVERAGE = 0.45;
/** Content words at which the substance component is full. */
const FULL_SUBSTANCE = 150;
const WEIGHTS = { coverage: 0.55, evidence: 0.3, substance: 0.15 } as const;
/** Upper bounds of the raw score (0..1) for levels 1–4; anything above is a 5. */
const LEVEL_CUTS = [0.15, 0.35, 0.55, 0.75] as const;

/**
 * Words of rubric boilerplate that say nothing about the work: generic rubric vocabulary, and
 * the words of the local themes' summary sentences that are not theme keywords ("the
 * features and interfaces the brief asks for" → "interfaces", "asks", …).
 */
const RUBRIC_WORDS: ReadonlySet<string> = (() => {
  const words = new Set(
    contentStems(
      'brief implied requirement requirements criterion criteria submission work working works level score meets gaps minor main',
    ),
  );
  for (const theme of THEMES) {
    const keywords = themeStems(theme);
    for (const s of contentStems(theme.summary)) if (!keywords.has(s)) words.add(s);
  }
  return words;
})();

type Evidence = { strength: number; found: string[] };

type Submission = {
  paths: string[];
  /** Text, paths and file contents together, for pattern checks. */
  all: string;
  stems: Set<string>;
  contentWords: number;
};

/** Words a sentence needs before restating the rubric counts as an echo ("A test suite." may be a claim). */
const MIN_ECHO_WORDS = 4;
/** Non-blank characters a text file needs before its path counts as evidence. */
const MIN_EVIDENCE_CHARS = 20;
/** Files whose content the API does not carry as text: their path alone is the artefact. */
const BINARY_PATH =
  /\.(pdf|png|jpe?g|gif|webp|fig|sketch|xd|pptx?|key|xlsx?|docx?|parquet|pkl|joblib|onnx|zip)$/i;

/** The rubric's words, for echo checks: its criteria's names, and all its text as one token string. */
type RubricEcho = { names: ReadonlySet<string>; text: string };

const words = (text: string) => tokenize(text, { parts: false }).join(' ');

function rubricEcho(rubric: Rubric): RubricEcho {
  const text = rubric.criteria
    .flatMap((c) => [c.name, c.source, c.description, ...c.levels.map((l) => l.descriptor)])
    .join('\n');
  return { names: new Set(rubric.criteria.map((c) => words(c.name))), text: ` ${words(text)} ` };
}

const NO_ECHO: RubricEcho = { names: new Set(), text: ' ' };

/**
 * The text without its sentences that restate the rubric word for word: pasting the brief's
 * requirements or the criteria's names back ("Problem details. Errors use problem details.") is
 * not evidence of meeting them.
 */
function withoutEcho(text: string, echo: RubricEcho): string {
  let out = '';
  let at = 0;
  for (const s of splitSentences(text)) {
    const said = words(s.text);
    const restated =
      echo.names.has(said) || (said.split(' ').length >= MIN_ECHO_WORDS && echo.text.includes(` ${said} `));
    if (!restated) continue;
    out += text.slice(at, s.start);
    at = s.start + s.text.length;
  }
  return out + text.slice(at);
}

/** Whether a file proves its artefact exists: a binary one by its path, a text one by having content. */
const isArtefact = (f: { path: string; content: string }) =>
  BINARY_PATH.test(f.path.trim()) || f.content.replace(/\s/g, '').length >= MIN_EVIDENCE_CHARS;

function prepare(submission: SubmissionContent, echo = NO_ECHO): Submission {
  const files = (submission.files ?? []).filter((f) => f.path.trim());
  const paths = files.filter(isArtefact).map((f) => f.path.trim());
  const all = [
    withoutEcho(submission.text ?? '', echo),
    ...paths,
    ...files.map((f) => withoutEcho(f.content, echo)),
  ].join('\n');
  const stems = contentStems(all);
  return { paths, all, stems: new Set(stems), contentWords: stems.length };
}

type Detector = {
  paths?: RegExp;
  content?: RegExp;
  label: string;
  /** Evidence from a matching path; below 1 where a file proves little (any source file is "code"). */
  pathStrength?: number;
};

/**
 * What counts as evidence per theme. A matching file path is strong evidence (the artefact
 * exists); a matching phrase in the text or code is weaker (the work talks about it).
 */
const DETECTORS: Readonly<Record<ThemeKey, Detector>> = {
  testing: {
    label: 'test files or test code',
    paths: /(^|\/)(tests?|__tests__|spec)\/|\.(test|spec)\.[a-z]+$|(^|\/)test_[^/]+\.py$|_test\.(go|py)$/i,
    content: /\b(describe|it|test)\s*\(|\bassert\w*\b|\bdef test_|@Test\b|\bexpect\s*\(|\bcoverage\b/,
  },
  documentation: {
    label: 'documentation',
    paths: /(^|\/)readme(\.[a-z]+)?$|\.(md|rst|adoc)$|(^|\/)docs?\/|openapi\.(ya?ml|json)$/i,
    content: /^#{1,3} \S|\bREADME\b|\bhow to (run|install|use)\b|\bsetup instructions\b/im,
  },
  performance: {
    label: 'performance measurements',
    paths: /bench(mark)?|load[-_]?test|k6|lighthouse/i,
    content:
      /\b\d+(\.\d+)?\s?(ms|milliseconds|rps|req\/s)\b|\bp9[59]\b|\bbenchmark|\blatency\b|\bcach(e|ing)\b|\blighthouse\b/i,
  },
  security: {
    label: 'security measures',
    paths: /security|auth|csp|\.env\.example$/i,
    content:
      /\b(bcrypt|argon2|scrypt|pbkdf2|hash(ed|ing)?|jwt|oauth|csrf|xss|sanitis|sanitiz|helmet|content-security-policy|parameteri[sz]ed|prepared statement|rate[- ]?limit|owasp)\b/i,
  },
  'code-quality': {
    label: 'code-quality tooling',
    paths:
      /(^|\/)(biome\.jsonc?|\.eslintrc(\.\w+)?|eslint\.config\.\w+|\.prettierrc(\.\w+)?|tsconfig\.json|pyproject\.toml|ruff\.toml|\.editorconfig|\.flake8)$/i,
    content: /\b(lint|linter|refactor(ed|ing)?|typescript|type-safe|strict mode)\b/i,
  },
  accessibility: {
    label: 'accessibility work',
    paths: /a11y|accessib/i,
    content:
      /\baria-|\balt=|\brole=|\bwcag\b|screen reader|\btalkback\b|\bvoiceover\b|contrast ratio|contentDescription|accessibilityLabel|focus order|touch target/i,
  },
  'ux-design': {
    label: 'design artefacts',
    paths: /\.(fig|sketch|xd|png|jpe?g|svg|pdf)$|wireframe|prototype|mockup|design/i,
    content:
      /\b(wireframes?|prototypes?|figma|mockups?|user flows?|design system|style guide|typography|layout)\b/i,
  },
  'user-research': {
    label: 'research evidence',
    paths: /interview|research|persona|survey|findings|usability/i,
    content:
      /\b(interview(ed|s)?|participants?|personas?|survey(ed)?|usability test(s|ing)?|insights?|findings|journey map|pain points?|affinity)\b/i,
  },
  data: {
    label: 'data work',
    paths: /\.(csv|tsv|parquet|sql|ipynb|xlsx)$|(^|\/)(data|migrations?)\//i,
    content:
      /\b(dataframe|pd\.read_\w+|read_csv|select\s+.+\s+from|create table|missing values?|dropna|fillna|outliers?|schema|imputed?)\b/i,
  },
  modelling: {
    label: 'modelling or evaluation code',
    paths: /\.(ipynb|pkl|joblib|onnx)$|model|train/i,
    content:
      /\.fit\(|\.predict(_proba)?\(|\b(sklearn|scikit-learn|xgboost|lightgbm|roc[_ ]auc|auc|f1|precision|recall|accuracy|cross[_ -]val\w*|train_test_split|baseline)\b/i,
  },
  deployment: {
    label: 'deployment artefacts',
    paths:
      /(^|\/)(dockerfile|docker-compose\.ya?ml|compose\.ya?ml|wrangler\.(toml|jsonc?)|procfile|vercel\.json|netlify\.toml|fly\.toml|\.gitlab-ci\.yml)$|\.github\/workflows\/|(^|\/)(k8s|helm|terraform)\/|\.tf$/i,
    content:
      /\b(deployed (to|at|on)|docker|kubectl|github actions|ci pipeline|live at|https?:\/\/\S+\.(app|dev|io|com)\b)/i,
  },
  communication: {
    label: 'report or presentation',
    paths: /\.(pdf|pptx?|key)$|report|slides|summary/i,
    content:
      /\b(summary|recommendations?|stakeholders?|presentation|slides|executive|conclusions?|next steps)\b/i,
  },
  functionality: {
    label: 'implementation code',
    pathStrength: 0.6,
    paths: /\.(ts|tsx|js|jsx|mjs|py|go|rb|java|kt|swift|rs|cs|php|dart)$/i,
    content:
      /\b(app|router)\.(get|post|put|patch|delete)\s*\(|@app\.(route|get|post)|\bfastapi\b|\bexpress\(\)|\bnew Hono\b|\b(GET|POST|PUT|PATCH|DELETE) \/\S*|\bstatus(Code)?\s*[:=(]\s*\d{3}\b/,
  },
};

function evidenceFor(theme: ThemeKey | null, sub: Submission): Evidence {
  if (theme === null) return { strength: 0, found: [] };
  const d = DETECTORS[theme];
  const files = d.paths ? sub.paths.filter((p) => d.paths?.test(p)) : [];
  if (files.length > 0) {
    const shown = files.slice(0, 3).join(', ');
    return {
      strength: d.pathStrength ?? 1,
      found: [`${d.label} (${shown}${files.length > 3 ? `, +${files.length - 3} more` : ''})`],
    };
  }
  const m = d.content?.exec(sub.all);
  if (m) return { strength: 0.6, found: [`${d.label} (mentions "${m[0].trim().slice(0, 40)}")`] };
  return { strength: 0, found: [] };
}

type Terms = { core: Map<string, string>; extra: Map<string, string> };

/** The words a criterion is about: name and source are the core, the description adds detail. */
function criterionTerms(c: RubricCriterion): Terms {
  const clean = (m: Map<string, string>) => {
    for (const s of [...m.keys()]) if (RUBRIC_WORDS.has(s)) m.delete(s);
    return m;
  };
  // Source first: its words are the concrete ask, so they lead the "missing" list.
  const core = clean(surfaceWords(`${c.source}\n${c.name}`));
  const extra = clean(surfaceWords(c.description));
  for (const s of core.keys()) extra.delete(s);
  return { core, extra };
}

function levelFor(raw: number): number {
  const index = LEVEL_CUTS.findIndex((cut) => raw < cut);
  return index === -1 ? 5 : index + 1;
}

const quote = (words: string[]) => words.map((w) => `"${w}"`).join(', ');

/**
 * Coverage of a criterion's terms by the submission, 0..1. Core terms (name and source) count
 * double, and each term is divided by the number of criteria that use it, so words that
 * tell this criterion apart from the others ("dashboard") count more than shared ones
 * ("simple", "team").
 */
function coverageOf(terms: Terms, sub: Submission, documentFrequency: Map<string, number>): number {
  let total = 0;
  let found = 0;
  for (const [map, weight] of [
    [terms.core, 2],
    [terms.extra, 1],
  ] as const) {
    for (const s of map.keys()) {
      const w = weight / (documentFrequency.get(s) ?? 1);
      total += w;
      if (sub.stems.has(s)) found += w;
    }
  }
  return total === 0 ? 0 : found / total;
}

function scoreCriterion(
  c: RubricCriterion,
  sub: Submission,
  documentFrequency: Map<string, number>,
): CriterionScore {
  const terms = criterionTerms(c);
  const foundCore = [...terms.core].filter(([s]) => sub.stems.has(s));
  const foundExtra = [...terms.extra].filter(([s]) => sub.stems.has(s));
  const coverageScore = Math.min(1, coverageOf(terms, sub, documentFrequency) / FULL_COVERAGE);

  const theme = classifyTheme(new Set([...terms.core.keys(), ...terms.extra.keys()]));
  const evidence = evidenceFor(theme?.key ?? null, sub);
  const onTopic = Math.min(1, 2 * (coverageScore + evidence.strength));
  const substance = Math.min(1, sub.contentWords / FULL_SUBSTANCE) * onTopic;

  const raw =
    WEIGHTS.coverage * coverageScore + WEIGHTS.evidence * evidence.strength + WEIGHTS.substance * substance;
  const score = levelFor(raw);

  const found = [...foundCore, ...foundExtra].map(([, w]) => w).slice(0, 8);
  const missing = [...terms.core, ...terms.extra]
    .filter(([s]) => !sub.stems.has(s))
    .map(([, w]) => w)
    .slice(0, 6);
  const parts = [`${score}/5 on "${c.name}".`];
  parts.push(found.length > 0 ? `Found: ${quote(found)}.` : 'None of the criterion’s key words appear.');
  if (evidence.found.length > 0) parts.push(`Evidence: ${evidence.found.join('; ')}.`);
  else if (theme) parts.push(`No ${DETECTORS[theme.key].label} found.`);
  parts.push(missing.length > 0 ? `Missing: ${quote(missing)}.` : 'Nothing obvious is missing.');
  if (sub.contentWords < 30) parts.push('The submission is very short.');
  return { criterionId: c.id, score, explanation: parts.join(' ') };
}

/**
 * Scores a submission against a rubric.
 *
 * Each criterion gets an integer 1..5 with an explanation naming what was found and what was
 * missing. `overallScore` is the weight-averaged criterion score rounded to an integer in
 * 1..5; `verdict` is `pass` iff the unrounded weighted mean reaches `rubric.passThreshold`
 * (so a mean of 2.6 rounds to 3 but still fails a threshold of 3). A submission with no text,
 * no files and no file content scores 1 on every criterion and fails. Deterministic.
 */
export function scoreSubmission(rubric: Rubric, submission: SubmissionContent): SubmissionScore {
  const sub = prepare(submission, rubricEcho(rubric));
  const documentFrequency = new Map<string, number>();
  for (const c of rubric.criteria) {
    const { core, extra } = criterionTerms(c);
    for (const s of new Set([...core.keys(), ...extra.keys()]))
      documentFrequency.set(s, (documentFrequency.get(s) ?? 0) + 1);
  }
  const empty = isEmptySubmission(submission);
  const criterionScores = rubric.criteria.map(
    (c): CriterionScore =>
      empty
        ? {
            criterionId: c.id,
            score: 1,
            explanation: `1/5 on "${c.name}". The submission is empty: no text or files.`,
          }
        : scoreCriterion(c, sub, documentFrequency),
  );
  return { criterionScores, ...overallFromScores(rubric, criterionScores, empty) };
}

/** Whether a submission has nothing to assess: no file paths and no words. */
export function isEmptySubmission(submission: SubmissionContent): boolean {
  const paths = (submission.files ?? []).filter((f) => f.path.trim());
  const all = [submission.text ?? '', ...(submission.files ?? []).map((f) => f.content)].join('\n');
  return paths.length === 0 && tokenize(all).length === 0;
}

/**
 * The overall score and verdict that follow from per-criterion scores, whoever gave them:
 * `overallScore` is the weight-averaged score rounded to an integer in 1..5, and `verdict` is
 * `pass` iff the unrounded weighted mean reaches `rubric.passThreshold` (an empty submission
 * always fails). Scores are matched to criteria by id; a criterion without a score counts 1.
 */
export function overallFromScores(
  rubric: Rubric,
  criterionScores: readonly CriterionScore[],
  empty = false,
): Pick<SubmissionScore, 'overallScore' | 'verdict'> {
  const scoreOf = new Map(criterionScores.map((s) => [s.criterionId, s.score]));
  const totalWeight = rubric.criteria.reduce((sum, c) => sum + Math.max(0, c.weight), 0);
  const scores = rubric.criteria.map((c) => scoreOf.get(c.id) ?? 1);
  const mean =
    scores.length === 0
      ? 1
      : totalWeight > 0
        ? rubric.criteria.reduce((sum, c, i) => sum + (scores[i] ?? 1) * Math.max(0, c.weight), 0) /
          totalWeight
        : scores.reduce((sum, x) => sum + x, 0) / scores.length;
  const overallScore = Math.min(5, Math.max(1, Math.round(mean)));
  return { overallScore, verdict: !empty && mean >= rubric.passThreshold ? 'pass' : 'fail' };
}
