/**
 * The theme lexicon: the recurring kinds of requirement in project briefs (testing,
 * documentation, security, …), each with the words that signal it, a name and summary for
 * a rubric criterion, and five level descriptors.
 *
 * Rubric extraction groups requirements by theme; evaluation re-detects a criterion's theme
 * from its text (so it also works on rubrics that Workers AI wrote) to know which kind of
 * evidence to look for in a submission.
 */
import { contentStems } from './text';
import type { CatalogueDomain } from './tutorial-catalogue';

export type ThemeKey =
  | 'functionality'
  | 'testing'
  | 'documentation'
  | 'performance'
  | 'security'
  | 'code-quality'
  | 'accessibility'
  | 'ux-design'
  | 'user-research'
  | 'data'
  | 'modelling'
  | 'deployment'
  | 'communication';

/** Five descriptors, scores 1..5; `{focus}` is replaced by what the criterion is about. */
export type LevelTemplates = readonly [string, string, string, string, string];

export type Theme = {
  key: ThemeKey;
  /** Criterion name when a whole group has this theme. */
  name: string;
  /** Prefix for the names of the parts when a theme's group is split. */
  short: string;
  /** First sentence of the criterion description. */
  summary: string;
  /** Words and phrases that signal the theme; a phrase counts once per word it has. */
  keywords: readonly string[];
  /** Domains where the theme is expected: breaks ties in its favour. */
  domains: readonly CatalogueDomain[];
  levels: LevelTemplates;
};

/** The fields whose work is software that runs: tested, and measured for performance. */
const BUILT_AND_RUN: Theme['domains'] = [
  'web-development',
  'backend',
  'devops',
  'mobile-ios',
  'mobile-android',
  'mobile-cross-platform',
  'ml-research',
];

export const THEMES: readonly Theme[] = [
  {
    key: 'functionality',
    name: 'Functionality & API design',
    short: 'Functionality',
    summary: 'The features and interfaces the brief asks for, working as specified.',
    keywords: [
      'endpoint',
      'api',
      'rest',
      'restful',
      'crud',
      'route',
      'request',
      'response',
      'http',
      'status code',
      'json',
      'pagination',
      'filter',
      'sort',
      'search',
      'error handling',
      'input validation',
      'feature',
      'functionality',
      'functional',
      'webhook',
      'graphql',
      'user story',
      'offline',
      'sync',
      'notification',
      // What a rate limiter does is its feature: "rate-limits per API key using token buckets".
      'rate limit',
      'token bucket',
      // "Malformed readings get a 422": how the interface answers bad input.
      'malformed',
    ],
    domains: ['web-development', 'backend', 'mobile-ios', 'mobile-android', 'mobile-cross-platform'],
    levels: [
      'No working implementation of {focus}.',
      'Part of {focus} exists, but key behaviour is missing or broken.',
      'The main cases of {focus} work as the brief describes; errors and edge cases are handled unevenly.',
      'Works as specified for {focus}, including errors and edge cases, with only minor gaps.',
      'Complete, robust and consistent for {focus}, going beyond the brief where it helps users.',
    ],
  },
  {
    key: 'testing',
    name: 'Testing & verification',
    short: 'Testing',
    summary: 'Automated tests that show the work behaves as required.',
    keywords: [
      'test',
      'unit test',
      'integration test',
      'end-to-end test',
      'e2e',
      'coverage',
      'assert',
      'regression',
      'qa',
      'jest',
      'vitest',
      'pytest',
      'test case',
      'edge case',
      'test suite',
    ],
    domains: BUILT_AND_RUN,
    levels: [
      'No automated tests; nothing verifies {focus}.',
      'A few tests exist, but they miss most of {focus} or do not run.',
      'Tests run and cover the main paths of {focus}; edge cases and failures are largely untested.',
      'Tests cover {focus}, including edge cases and error paths, with only minor gaps.',
      'A thorough, reliable and easy-to-run test suite covers {focus}, edge cases and regressions.',
    ],
  },
  {
    key: 'documentation',
    name: 'Documentation',
    short: 'Documentation',
    summary: 'Written material that lets others set up, use and understand the work.',
    keywords: [
      'documentation',
      'readme',
      'docs',
      'docstring',
      // "comment" stems to "com", which "comes" shares: code comments are named so.
      'code comments',
      'inline comments',
      'guide',
      'setup instructions',
      'instructions',
      'openapi',
      'swagger',
      'changelog',
      'api reference',
      'architecture decision',
      'reasoning',
      'rationale',
      'decision record',
      'design decision',
      'style guide',
    ],
    domains: ['backend', 'web-development', 'technical-writing', 'devops'],
    levels: [
      'No documentation of {focus}.',
      'Documentation of {focus} is sparse or out of date; a reader cannot get started from it alone.',
      'Documentation covers {focus} well enough to set up and use the work, with gaps.',
      'Clear, accurate documentation of {focus}, including setup, usage and key decisions.',
      'Excellent documentation of {focus}: complete, accurate, with examples and the reasons for decisions.',
    ],
  },
  {
    key: 'performance',
    name: 'Performance',
    short: 'Performance',
    summary: 'Speed, efficiency and behaviour under load.',
    keywords: [
      'performance',
      'performant',
      'fast',
      'latency',
      'speed',
      'load time',
      'load test',
      'respond',
      'millisecond',
      'ms',
      'throughput',
      'scalable',
      'scalability',
      'cache',
      'caching',
      'efficient',
      'memory',
      'response time',
      'p95',
      'p99',
      'benchmark',
      'lighthouse',
      'core web vitals',
    ],
    domains: BUILT_AND_RUN,
    levels: [
      'Performance of {focus} is not considered or is clearly unacceptable.',
      'Performance of {focus} is mentioned but not measured; obvious bottlenecks remain.',
      'Basic measurements show {focus} meeting the stated targets.',
      'Measurements show {focus} meeting the targets, with sensible optimisations explained.',
      'Benchmarks show {focus} beating the targets, with profiling evidence and trade-offs explained.',
    ],
  },
  {
    key: 'security',
    name: 'Security & privacy',
    short: 'Security',
    summary: "Protection of the system and of its users' data.",
    keywords: [
      'security',
      'secure',
      'authentication',
      'authorisation',
      'authorization',
      'auth',
      'login',
      'password',
      'token',
      'jwt',
      'oauth',
      'encrypt',
      'encryption',
      'owasp',
      'vulnerability',
      'injection',
      'xss',
      'csrf',
      'permission',
      // "access" alone stems like "accessible" (Accessibility): access control is security's.
      'access control',
      'role-based access',
      'rbac',
      'access rights',
      'privacy',
      'gdpr',
      'personal data',
      'pii',
      'sanitise',
      'sanitize',
      'secret',
      'rate limit',
      'threat model',
    ],
    domains: ['security', 'backend', 'web-development', 'devops'],
    levels: [
      'Security of {focus} is not addressed; obvious vulnerabilities are present.',
      'Some protection for {focus}, but common weaknesses (such as the OWASP Top 10) remain.',
      'The basics of {focus} are secured with no obvious vulnerabilities, though hardening is incomplete.',
      'Security of {focus} follows established guidance (e.g. OWASP), with only minor gaps.',
      'Security of {focus} is thorough: threats are considered, defences are tested and documented.',
    ],
  },
  {
    key: 'code-quality',
    name: 'Code quality & maintainability',
    short: 'Code quality',
    summary: 'Readable, maintainable and well-structured code.',
    keywords: [
      'clean code',
      'readable',
      'readability',
      'maintainable',
      'maintainability',
      'lint',
      'linter',
      'linting',
      'code style',
      'typescript',
      'type safety',
      'typed',
      'refactor',
      'modular',
      'code structure',
      'structure',
      'project structure',
      'conventions',
      'code quality',
      'code review',
      'idiomatic',
      'separation of concerns',
      'version control',
      'git',
      'commit',
      'commits',
    ],
    domains: ['web-development', 'backend', 'mobile-ios', 'mobile-android', 'mobile-cross-platform'],
    levels: [
      'The code is hard to read or run; {focus} is not addressed.',
      'The code works in places but is inconsistent; {focus} is weak.',
      'The code is readable and reasonably organised; {focus} meets the basics.',
      'The code is clean, consistent and well structured; {focus} is handled well.',
      'Exemplary code that is idiomatic and easy to change; {focus} is a strength.',
    ],
  },
  {
    key: 'accessibility',
    name: 'Accessibility',
    short: 'Accessibility',
    summary: 'Usable by everyone, including people who rely on assistive technology.',
    keywords: [
      'accessibility',
      'accessible',
      'a11y',
      'wcag',
      'screen reader',
      'talkback',
      'voiceover',
      'contrast',
      'keyboard',
      'focus order',
      'alt text',
      'aria',
      'assistive',
      'colour blind',
      'color blind',
      'touch target',
      'font scaling',
      'dynamic type',
      'inclusive',
      'disabilities',
    ],
    domains: [
      'mobile-ios',
      'mobile-android',
      'mobile-cross-platform',
      'visual-design',
      'ux-research',
      'web-development',
    ],
    levels: [
      'Accessibility of {focus} is not considered.',
      'Some accessibility work on {focus}, but major barriers remain (missing labels, poor contrast).',
      'The main accessibility barriers in {focus} are addressed against WCAG, with several issues left.',
      'Accessibility of {focus} meets WCAG AA in nearly all checks, verified with assistive technology.',
      'Accessibility of {focus} is exemplary: WCAG AA met, tested with assistive technology and documented.',
    ],
  },
  {
    key: 'ux-design',
    name: 'User experience & visual design',
    short: 'Design',
    summary: 'The design of the user experience and interface.',
    keywords: [
      'ux',
      'ui',
      'user experience',
      'user interface',
      'design',
      'layout',
      'visual',
      'typography',
      'wireframe',
      'prototype',
      'mockup',
      'figma',
      'design system',
      'responsive',
      'navigation',
      'user flow',
      'onboarding',
      'interaction',
      'brand',
      'style guide',
      'visual hierarchy',
      'consistent',
      'high-fidelity',
      'low-fidelity',
    ],
    domains: [
      'visual-design',
      'ux-research',
      'web-development',
      'mobile-ios',
      'mobile-android',
      'mobile-cross-platform',
    ],
    levels: [
      'No design work on {focus}.',
      'A rough design of {focus}, with unclear flows or inconsistent visuals.',
      'A usable design of {focus} that covers the main flows, with rough edges.',
      'A clear, consistent design of {focus} covering main and edge flows, with its rationale.',
      'A polished, consistent design of {focus}, validated with users and ready to hand over.',
    ],
  },
  {
    key: 'user-research',
    name: 'User research & validation',
    short: 'Research',
    summary: 'Evidence from real users that informs the work.',
    keywords: [
      'user research',
      'research',
      'interview',
      'persona',
      'survey',
      'usability test',
      'usability testing',
      'participants',
      'user testing',
      'insights',
      'journey map',
      'pain points',
      'affinity',
      'card sort',
      'heuristic evaluation',
      'diary study',
    ],
    domains: ['ux-research', 'visual-design', 'marketing'],
    levels: [
      'No research evidence for {focus}.',
      'Research on {focus} is thin: few participants, or conclusions not backed by evidence.',
      'Research on {focus} follows a sound method and yields usable findings, with gaps.',
      'Well-run research on {focus}, with clear, evidenced findings that drive decisions.',
      'Rigorous research on {focus}: sound method, rich evidence and insights that change the design.',
    ],
  },
  {
    key: 'data',
    name: 'Data handling & preparation',
    short: 'Data',
    summary: 'How the data is collected, cleaned, stored and managed.',
    keywords: [
      'data',
      'dataset',
      'csv',
      'database',
      'schema',
      'sql',
      'database table',
      'query',
      'migration',
      'data cleaning',
      'clean the data',
      'missing values',
      'outliers',
      'data pipeline',
      'etl',
      'ingest',
      'data model',
      'feature engineering',
      'exploratory',
      'eda',
      'preprocessing',
      'leakage',
      // A test split checked against the training data is the data's hygiene, not a test suite.
      'contamination',
      'training data',
      'persist',
      'storage',
    ],
    domains: ['data-science', 'ml-research', 'backend', 'finance'],
    levels: [
      'Data handling for {focus} is missing or incorrect.',
      'Data for {focus} is loaded, but problems (missing values, errors, leakage) are not handled.',
      'Data for {focus} is prepared correctly for the main cases; some issues are left unexplained.',
      'Data for {focus} is clean, validated and documented, with issues handled deliberately.',
      'Exemplary data work on {focus}: reproducible, validated, every transformation justified.',
    ],
  },
  {
    key: 'modelling',
    name: 'Modelling & evaluation',
    short: 'Modelling',
    summary: 'How the model is built and how well it is evaluated.',
    keywords: [
      'model',
      'train',
      'training',
      'predict',
      'prediction',
      'accuracy',
      'precision',
      'recall',
      'auc',
      'roc',
      'f1',
      'baseline',
      'cross-validation',
      'cross validation',
      'feature importance',
      'classifier',
      'classification',
      'regression model',
      'hyperparameter',
      'overfitting',
      'calibration',
      'shap',
      'xgboost',
      'scikit-learn',
      'machine learning',
    ],
    domains: ['data-science', 'ml-research'],
    levels: [
      'No model or evaluation for {focus}.',
      'A model for {focus} exists but is not evaluated properly (no baseline, or the wrong metric).',
      'A reasonable model for {focus}, evaluated against a baseline with appropriate metrics.',
      'A well-tuned model for {focus}, validated (e.g. cross-validation) and clearly beating the baseline.',
      'An excellent model for {focus}: robustly validated, interpreted, with its limits explained.',
    ],
  },
  {
    key: 'deployment',
    name: 'Deployment & operations',
    short: 'Deployment',
    summary: 'Shipping the work and running it reliably.',
    keywords: [
      'deploy',
      'deployment',
      'deployed',
      'docker',
      'container',
      'dockerfile',
      'ci',
      'cd',
      'continuous integration',
      'ci pipeline',
      'github actions',
      'kubernetes',
      'hosted',
      'hosting',
      'cloud',
      'production',
      // "the old slot is released" is no deployment: a release is one of software.
      'release build',
      'release pipeline',
      'release process',
      'new release',
      'environment',
      'infrastructure',
      'monitoring',
      'structured logging',
      'observability',
      'prometheus',
      'grafana',
      'opentelemetry',
      // "expiry alerts" are a product's feature; an operator's alerting is named so.
      'alerting rules',
      'alertmanager',
      'pagerduty',
      'slo-based alerts',
      'uptime',
      'rollback',
      'terraform',
      'health check',
      'app store',
      'play store',
    ],
    domains: [
      'devops',
      'backend',
      'web-development',
      'mobile-ios',
      'mobile-android',
      'mobile-cross-platform',
    ],
    levels: [
      'No deployment or automation for {focus}.',
      'Deployment of {focus} is manual, fragile or undocumented.',
      'Deployment of {focus} works and can be repeated from written instructions.',
      'Deployment of {focus} is automated (e.g. CI) and reliable, with configuration kept out of the code.',
      'Deployment of {focus} is fully automated, monitored and recoverable (rollbacks, health checks).',
    ],
  },
  {
    key: 'communication',
    name: 'Communication & reporting',
    short: 'Communication',
    summary: 'How the work and its findings are presented to their audience.',
    keywords: [
      'present',
      'presentation',
      'slides',
      'deck',
      'stakeholders',
      'report',
      'summary',
      'summarise',
      'summarize',
      'explain',
      'communicate',
      'demo',
      'video',
      'walkthrough',
      'non-technical',
      'recommendations',
      'audience',
      'findings',
      'executive summary',
      'storytelling',
    ],
    domains: [
      'data-science',
      'ml-research',
      'ux-research',
      'marketing',
      'finance',
      'security',
      'sales',
      'content-writing',
    ],
    levels: [
      'No communication of {focus}.',
      'Communication of {focus} is unclear or misses key points for its audience.',
      'Communication of {focus} is clear for the intended audience, with some gaps.',
      'Communication of {focus} is clear, well structured and backed by evidence.',
      'Communication of {focus} is compelling: concise, evidenced and leading to clear decisions.',
    ],
  },
];

/** Descriptors for requirements that match no theme; `{focus}` names what they ask for. */
export const GENERIC_LEVELS: LevelTemplates = [
  'The work does not address {focus}.',
  'The work touches on {focus}, but it is incomplete or largely unsupported.',
  'The work addresses {focus} as the brief asks, with noticeable gaps.',
  'The work fully addresses {focus}, with only minor gaps.',
  'The work addresses {focus} completely and convincingly, beyond what the brief asks.',
];

/**
 * Two criteria every piece of work can be judged on, used when a brief states fewer than
 * three asks ("Build a calculator."): how well the asked-for thing is made, and how well the
 * candidate explains it. `{focus}` is the brief's main ask.
 */
export const CRAFT_LEVELS: LevelTemplates = [
  'The quality of {focus} is poor: unfinished, careless or full of obvious errors.',
  'The quality of {focus} is uneven: it works or reads in part, with several visible flaws.',
  'The quality of {focus} is sound for its purpose, with some rough edges.',
  'The quality of {focus} is high: careful, consistent and with only minor flaws.',
  'The quality of {focus} is excellent: polished, consistent and ready to use as it is.',
];
export const RATIONALE_LEVELS: LevelTemplates = [
  'The work gives no explanation of how {focus} was made or why.',
  'The explanation of {focus} is thin: it lists what was done without the reasons.',
  'The explanation of {focus} covers the main choices and how to use the result.',
  'The explanation of {focus} is clear: the choices, the trade-offs and how to use the result.',
  'The explanation of {focus} is clear and convincing: choices, trade-offs, limits and next steps.',
];

/**
 * Descriptors for a prohibition ("must not use paid tools"): `{focus}` is what the brief rules
 * out, and the scale rewards its absence, never the forbidden thing itself.
 */
export const PROHIBITION_LEVELS: LevelTemplates = [
  'The work does not avoid {focus}, which the brief rules out.',
  'The work avoids {focus} only in part: it still appears in places.',
  'The work avoids {focus} apart from a minor lapse.',
  'The work avoids {focus} entirely.',
  'The work avoids {focus} entirely and shows how it was kept out (an alternative, a check or a note).',
];

/**
 * Keywords that also mean something else outside their theme: a financial "model" is not
 * machine learning, "contrast the scenarios" is not colour contrast, a "production plan" is
 * not deployment. On its own such a word labels a requirement only in a field where the theme
 * is expected, or together with a second keyword of the theme.
 */
const AMBIGUOUS_KEYWORDS: Readonly<Partial<Record<ThemeKey, readonly string[]>>> = {
  functionality: [
    'feature',
    'functional',
    'functionality',
    'request',
    'response',
    'search',
    'filter',
    'sort',
    'sync',
    'notification',
    'offline',
    'route',
    'json',
    'user story',
  ],
  testing: ['test', 'qa', 'assert', 'regression', 'edge case', 'test case'],
  documentation: ['guide', 'instructions', 'code comments', 'reasoning', 'rationale', 'docs'],
  performance: [
    'fast',
    'speed',
    'respond',
    'ms',
    'memory',
    'efficient',
    'scalable',
    'cache',
    'caching',
    'benchmark',
  ],
  security: ['login', 'token', 'password', 'permission', 'secret', 'privacy', 'auth', 'secure'],
  'code-quality': [
    'structure',
    'typed',
    'conventions',
    'readable',
    'modular',
    'commit',
    'commits',
    'project structure',
    'refactor',
  ],
  accessibility: ['contrast', 'keyboard', 'inclusive', 'focus order', 'accessible'],
  'ux-design': [
    'design',
    'visual',
    'layout',
    'interaction',
    'brand',
    'consistent',
    'navigation',
    'prototype',
    'responsive',
    'onboarding',
  ],
  'user-research': ['research', 'insights', 'participants', 'survey', 'pain points'],
  data: ['data', 'query', 'schema', 'storage', 'persist', 'migration', 'ingest', 'exploratory'],
  modelling: [
    'model',
    'train',
    'training',
    'predict',
    'prediction',
    'accuracy',
    'precision',
    'recall',
    'baseline',
    'calibration',
    'regression model',
    'classification',
  ],
  deployment: [
    'environment',
    'production',
    'release',
    'cloud',
    'hosted',
    'hosting',
    'ci',
    'cd',
    'infrastructure',
    'logging',
    'monitoring',
  ],
  communication: [
    'present',
    'report',
    'summary',
    'explain',
    'audience',
    'findings',
    'recommendations',
    'video',
    'demo',
    'communicate',
    'summarise',
    'summarize',
  ],
};

const THEME_STEMS: readonly { theme: Theme; phrases: { stems: string[]; ambiguous: boolean }[] }[] =
  THEMES.map((theme) => {
    const ambiguous = new Set((AMBIGUOUS_KEYWORDS[theme.key] ?? []).map((k) => contentStems(k).join(' ')));
    return {
      theme,
      phrases: theme.keywords
        .map((k) => contentStems(k))
        .filter((p) => p.length > 0)
        .map((stems) => ({ stems, ambiguous: ambiguous.has(stems.join(' ')) })),
    };
  });

/** Every stem of a theme's keywords: what makes a phrase "about" the theme. */
export function themeStems(theme: Theme): Set<string> {
  return new Set(THEME_STEMS.find((t) => t.theme.key === theme.key)?.phrases.flatMap((p) => p.stems) ?? []);
}

export type ThemeMatch = { theme: Theme; score: number; matched: string[] };

/**
 * Scores every theme against a set of stems: each keyword phrase whose stems are all present
 * scores its word count, so "usability test" (2) outweighs the bare "test" (1) of Testing.
 * Themes expected in `domain` get half a point, enough to break ties only.
 */
export function themeMatches(
  stems: ReadonlySet<string>,
  domain?: CatalogueDomain,
  allowed?: ReadonlySet<ThemeKey>,
): ThemeMatch[] {
  const out: ThemeMatch[] = [];
  for (const { theme, phrases } of THEME_STEMS) {
    if (allowed && !allowed.has(theme.key)) continue;
    let score = 0;
    let unambiguous = false;
    const matched: string[] = [];
    const distinct = new Set<string>();
    // Keywords that stem alike ("readable", "readability") are one match, not two.
    const counted = new Set<string>();
    for (const phrase of phrases) {
      const key = phrase.stems.join(' ');
      if (counted.has(key)) continue;
      if (phrase.stems.every((s) => stems.has(s))) {
        counted.add(key);
        score += phrase.stems.length;
        matched.push(phrase.stems.join(' '));
        for (const x of phrase.stems) distinct.add(x);
        if (!phrase.ambiguous) unambiguous = true;
      }
    }
    if (score === 0) continue;
    const expected = domain !== undefined && theme.domains.includes(domain);
    // An ambiguous word alone is not enough outside the theme's own fields.
    if (!unambiguous && distinct.size < 2 && !expected) continue;
    if (domain && theme.domains.includes(domain)) score += 0.5;
    out.push({ theme, score, matched });
  }
  // Stable: equal scores keep lexicon order.
  return out.sort((a, b) => b.score - a.score);
}

/** The best theme for a set of stems, or null when no keyword matches. */
export function classifyTheme(
  stems: ReadonlySet<string>,
  domain?: CatalogueDomain,
  allowed?: ReadonlySet<ThemeKey>,
): Theme | null {
  return themeMatches(stems, domain, allowed)[0]?.theme ?? null;
}

/** Themes about software that runs: their names and levels (OWASP, code review, latency) mean nothing elsewhere. */
export const SOFTWARE_THEMES: ReadonlySet<ThemeKey> = new Set([
  'functionality',
  'testing',
  'performance',
  'security',
  'code-quality',
  'deployment',
]);
/** Fields whose work is software, where every theme applies. */
const SOFTWARE_FIELDS: ReadonlySet<string> = new Set([...BUILT_AND_RUN, 'data-science', 'security']);
/**
 * Words that say a brief is about software whatever its field: a medical "coding" brief, a
 * contract review's "data protection" clause or a podcast's "background noise" have none.
 */
const SOFTWARE_MARKERS =
  /\b(?:api|apis|endpoints?|readme|dockerfile|site|cart|checkout|login|browser|online|ios|android|app|apps|application|website|web ?site|web app|frontend|backend|server|database|sql|repo|repository|git|github|deploy(?:ed|ment)?|code ?base|source code|codebase|unit tests?|integration tests?|test suite|ci|docker|kubernetes|cli|sdk|library|framework|script|scripts|firmware|microservice|javascript|typescript|python|golang|rust|java|kotlin|swift|c\+\+|c#|php|ruby|react|node(?:\.js)?|html|css|json|http|rest|graphql|software|program|programming|algorithm|notebook|saas)\b/i;

/**
 * Markers other fields use in their own sense: a trial's primary "endpoint" and "site", a patent
 * "application", a video "script", a course "program", wheat "rust", a confidence interval "CI",
 * a lab "notebook". One of them alone does not make a brief about software; two different ones do.
 */
const AMBIGUOUS_MARKERS = new Set([
  'endpoint',
  'site',
  'application',
  'online',
  'program',
  'programming',
  'script',
  'rust',
  'java',
  'swift',
  'ci',
  'library',
  'framework',
  'notebook',
  'app',
  'algorithm',
]);

/** Whether a text reads as a software brief. */
export function mentionsSoftware(text: string): boolean {
  const found = new Set(
    // "endpoint" and "endpoints" are one marker.
    [...text.matchAll(new RegExp(SOFTWARE_MARKERS.source, 'gi'))].map((m) =>
      m[0].toLowerCase().replace(/s$/, ''),
    ),
  );
  const ambiguous = [...found].filter((m) => AMBIGUOUS_MARKERS.has(m));
  return found.size > ambiguous.length || ambiguous.length >= 2;
}

/**
 * The themes that may label a criterion of this brief, so a criterion and its levels speak the
 * brief's own field: every theme in a software field or a brief that talks about software; the
 * others in a known field outside software (medical coding is not code quality, a contract
 * review gets no OWASP levels); none in a field the knowledge base does not know, whose
 * criteria are then named and graded in the brief's own words.
 */
export function themesForBrief(text: string, field: string): ReadonlySet<ThemeKey> {
  const all = THEMES.map((t) => t.key);
  if (SOFTWARE_FIELDS.has(field) || mentionsSoftware(text)) return new Set(all);
  if (field === 'unknown') return new Set();
  return new Set(all.filter((k) => !SOFTWARE_THEMES.has(k)));
}

/** Fills a level template. A `{focus}` at the start of a descriptor is capitalised. */
export function fillLevels(templates: LevelTemplates, focus: string): string[] {
  return templates.map((t) =>
    t.startsWith('{focus}')
      ? `${focus.charAt(0).toUpperCase()}${focus.slice(1)}${t.slice('{focus}'.length)}`
      : t.replaceAll('{focus}', focus),
  );
}
