/**
 * The knowledge base behind playbooks: the fields briefs come from, and in each field the
 * kinds of deliverable ("archetypes") with the steps an expert in that field takes to produce
 * one. Playbooks are written from this knowledge rather than by wrapping the brief's own words
 * in "Build …" / "Deliver …" templates, so two unrelated briefs of the same shape get different
 * plans, and a copywriting plan never opens with "set up a repository".
 *
 * In step texts `{d}` stands for the deliverable as the brief names it. `topics` name the
 * catalogue topics whose links fit the step (see tutorial-catalogue.ts).
 */

export const FIELD_KEYS = [
  'web-development',
  'backend',
  'mobile-ios',
  'mobile-android',
  'data-science',
  'ml-research',
  'devops',
  'security',
  'ux-research',
  'visual-design',
  'marketing',
  'finance',
  'technical-writing',
  'general',
] as const;
export type FieldKey = (typeof FIELD_KEYS)[number];

export type DeliverableArchetype = {
  key: string;
  /** Words and phrases that identify this kind of deliverable in the brief's wording. */
  match: readonly string[];
  /** What an expert does to produce it, in order. */
  steps: readonly string[];
  /** Catalogue topics with links worth reading for it. */
  topics: readonly string[];
};

export type Field = {
  key: FieldKey;
  name: string;
  /** Free-form domain names that mean this field ("android", "fp&a"). */
  domains: readonly string[];
  /** Words in a brief that point to the field. */
  vocabulary: readonly string[];
  /** The first steps of any project in the field. */
  setup: readonly string[];
  /** A habit to keep while building, in the field's own terms. */
  habit: string;
  /** How a success criterion is checked in this field: "Check “…” {check}". */
  check: string;
  /** How the final milestone puts the pieces together before hand-over. */
  integrate: readonly string[];
  /** Topics of the kick-off milestone's links. */
  setupTopics: readonly string[];
  archetypes: readonly DeliverableArchetype[];
  /** For a deliverable that matches no archetype: still the field's way of working. */
  fallback: readonly string[];
  /** One paragraph for the Workers AI prompt: how an expert in the field plans. */
  guidance: string;
};

export const FIELDS: readonly Field[] = [
  {
    key: 'web-development',
    name: 'Web development',
    domains: [
      'web',
      'web development',
      'webdev',
      'frontend',
      'front end',
      'full stack',
      'fullstack',
      'react',
      'javascript',
    ],
    vocabulary: [
      'website',
      'web app',
      'landing page',
      'frontend',
      'react',
      'html',
      'css',
      'browser',
      'single page',
      'component',
      'responsive',
      'next.js',
      'vue',
      'angular',
    ],
    setup: [
      'Scaffold the app with its build tool, a linter and a test runner, and check it runs in the browser',
      'Sketch the page map and the components each page needs before writing markup',
    ],
    habit:
      'Keep the main branch deployable: small commits, each with its test, reviewed in the browser at mobile and desktop widths',
    check: 'in the browser at mobile and desktop widths, and with an automated test where it can be scripted',
    integrate: [
      'Run Lighthouse and an axe accessibility scan on every page and fix what they flag',
      'Deploy a preview build and click through every user flow end to end',
    ],
    setupTopics: ['web-basics', 'web-testing'],
    archetypes: [
      {
        key: 'web-form',
        match: ['form', 'signup', 'sign up', 'login', 'checkout', 'registration', 'booking', 'contact form'],
        steps: [
          'Mark up {d} with native inputs, visible labels and autocomplete attributes',
          'Validate {d} on the client with inline error messages, and again on the server',
          'Handle the submit states of {d}: pending, success, server error and offline',
          'Test {d} with the keyboard only and with a screen reader',
        ],
        topics: ['forms', 'accessibility'],
      },
      {
        key: 'web-page',
        match: [
          'landing page',
          'page',
          'website',
          'homepage',
          'site',
          'portfolio',
          'dashboard',
          'ui',
          'frontend',
        ],
        steps: [
          'Build the layout of {d} mobile-first with CSS grid or flexbox and semantic HTML landmarks',
          'Split {d} into reusable components with typed props',
          'Load data for {d} with loading, empty and error states',
          'Optimise images and fonts on {d} to keep Largest Contentful Paint under 2.5 s',
        ],
        topics: ['layout', 'components', 'performance'],
      },
      {
        key: 'web-tests',
        match: ['test suite', 'tests', 'test', 'e2e', 'end-to-end'],
        steps: [
          'Write component tests for the states of each view in {d}',
          'Script the critical user journeys of {d} as Playwright end-to-end tests',
          'Run {d} in CI on every push and keep it under five minutes',
        ],
        topics: ['web-testing'],
      },
      {
        key: 'web-deploy',
        match: ['deployed', 'deploy', 'hosting', 'live url', 'production'],
        steps: [
          'Configure environment variables and a production build for {d}',
          'Set up preview deployments per branch and a production deployment from main for {d}',
        ],
        topics: ['web-deploy'],
      },
    ],
    fallback: [
      'Design the component structure and data flow for {d}',
      'Implement {d} behind a feature branch with tests for its states',
    ],
    guidance:
      'Plan like a senior front-end engineer: components and routes, client and server validation, loading/empty/error states, accessibility (WCAG 2.2 AA, keyboard, screen reader), Core Web Vitals, component and Playwright tests, preview deployments.',
  },
  {
    key: 'backend',
    name: 'Backend and APIs',
    domains: ['backend', 'back end', 'api', 'apis', 'server', 'server side', 'node', 'database'],
    vocabulary: [
      'api',
      'rest',
      'endpoint',
      'endpoints',
      'database',
      'server',
      'crud',
      'graphql',
      'microservice',
      'postgres',
      'postgresql',
      'sql',
      'webhook',
      'queue',
      'openapi',
    ],
    setup: [
      'Write the data model and the API contract (OpenAPI) before the handlers',
      'Run the service and its database locally with one command, with a test database for the suite',
    ],
    habit: 'Land each endpoint with its integration test and its migration in the same change',
    check:
      'with an integration test against a real database, and with the response timed under load where it sets a number',
    integrate: [
      'Run the whole suite against a fresh database built from the migrations alone',
      'Exercise every endpoint from the OpenAPI document with a generated client or contract test',
    ],
    setupTopics: ['http', 'api-design'],
    archetypes: [
      {
        key: 'rest-api',
        match: ['api', 'rest', 'endpoint', 'endpoints', 'crud', 'service', 'graphql', 'backend'],
        steps: [
          'Define the resources, routes and status codes of {d} in an OpenAPI document',
          'Implement the handlers of {d} with input validation and RFC 9457 problem responses',
          'Add pagination, filtering and idempotency where {d} lists or creates resources',
          'Cover each route of {d} with integration tests for success, validation and not-found cases',
        ],
        topics: ['http', 'api-design', 'errors'],
      },
      {
        key: 'database',
        match: [
          'database',
          'schema',
          'migrations',
          'sql',
          'postgres',
          'postgresql',
          'sqlite',
          'data model',
          'persistence',
        ],
        steps: [
          'Model the tables of {d} with keys, constraints and indexes for the main queries',
          'Write {d} as versioned migrations that run forward on an empty database',
          'Check the query plans of the hottest queries in {d}',
        ],
        topics: ['database'],
      },
      {
        key: 'auth',
        match: ['auth', 'authentication', 'login', 'jwt', 'oauth', 'session', 'permissions', 'roles'],
        steps: [
          'Store passwords for {d} with a slow salted hash (Argon2id, scrypt or bcrypt)',
          'Issue and expire sessions or tokens for {d}, and check authorisation on every route',
          'Test {d} for the OWASP authentication failures: brute force, enumeration, fixation',
        ],
        topics: ['auth'],
      },
      {
        key: 'api-docs',
        match: ['openapi', 'swagger', 'api documentation', 'api description', 'readme'],
        steps: [
          'Generate {d} from the route definitions so it cannot drift from the code',
          'Add request and response examples and error cases to {d}',
        ],
        topics: ['api-design'],
      },
    ],
    fallback: [
      'Define the interface and failure modes of {d} before implementing it',
      'Implement {d} with integration tests and structured logs',
    ],
    guidance:
      'Plan like a senior backend engineer: data model and migrations, API contract first (OpenAPI), validation and RFC 9457 errors, authentication and authorisation, integration tests against a real database, query plans and latency budgets.',
  },
  {
    key: 'mobile-ios',
    name: 'iOS development',
    domains: ['ios', 'iphone', 'ipad', 'swift', 'swiftui', 'apple'],
    vocabulary: [
      'ios',
      'iphone',
      'ipad',
      'swift',
      'swiftui',
      'uikit',
      'xcode',
      'testflight',
      'app store',
      'voiceover',
      'xctest',
    ],
    setup: [
      'Create the Xcode project with SwiftUI, a unit-test and a UI-test target, and run it on a device',
      'Sketch the screens and navigation against the Human Interface Guidelines',
    ],
    habit: 'Run the XCTest suite and try each new screen with VoiceOver and Dynamic Type before committing',
    check:
      'on a device with XCTest and XCUITest, with VoiceOver and the largest Dynamic Type size switched on',
    integrate: [
      'Archive a release build and distribute it through TestFlight',
      'Walk through every screen with VoiceOver and the Accessibility Inspector and fix what they report',
    ],
    setupTopics: ['ios-basics'],
    archetypes: [
      {
        key: 'ios-screen',
        match: ['app', 'screen', 'screens', 'ui', 'feature', 'view', 'onboarding', 'widget'],
        steps: [
          'Build the views of {d} in SwiftUI with an observable view model per screen',
          'Support Dynamic Type, Dark Mode and every iPhone size in {d}',
          'Persist the data {d} needs with SwiftData or Core Data and handle a failed load',
          'Write XCTest unit tests for the view models and an XCUITest for the main flow of {d}',
        ],
        topics: ['ios-ui', 'ios-testing'],
      },
      {
        key: 'ios-accessibility',
        match: ['accessibility', 'accessible', 'voiceover', 'a11y', 'audit'],
        steps: [
          'Audit {d} with VoiceOver and the Accessibility Inspector, screen by screen',
          'Give every control in {d} an accessibility label, trait and hint where needed',
          'Check colour contrast and touch targets of at least 44 × 44 points in {d}',
        ],
        topics: ['ios-accessibility'],
      },
      {
        key: 'ios-release',
        match: ['testflight', 'app store', 'release', 'build', 'submission'],
        steps: [
          'Prepare signing, the privacy manifest and App Store screenshots for {d}',
          'Check {d} against the App Store Review Guidelines before submitting',
        ],
        topics: ['ios-release'],
      },
    ],
    fallback: [
      'Design {d} within the Human Interface Guidelines',
      'Implement {d} in Swift with XCTest coverage',
    ],
    guidance:
      'Plan like a senior iOS engineer: SwiftUI views and view models, SwiftData/Core Data, XCTest and XCUITest, VoiceOver and Dynamic Type, Human Interface Guidelines, TestFlight and App Store review. Never cite Android or web material.',
  },
  {
    key: 'mobile-android',
    name: 'Android development',
    domains: ['android', 'kotlin', 'jetpack', 'jetpack compose'],
    vocabulary: [
      'android',
      'kotlin',
      'jetpack',
      'compose',
      'play store',
      'talkback',
      'gradle',
      'room',
      'espresso',
      'apk',
    ],
    setup: [
      'Create the Android Studio project with Jetpack Compose, Gradle version catalogs and an emulator per target API level',
      'Plan the screens and the navigation graph against Material 3',
    ],
    habit: 'Run the unit and instrumented tests and try each new screen with TalkBack before committing',
    check:
      'on an emulator and a real device with instrumented tests, with TalkBack and large font scaling switched on',
    integrate: [
      'Build a signed release bundle and test it on the lowest supported API level',
      'Run the Accessibility Scanner over every screen and fix what it reports',
    ],
    setupTopics: ['android-basics'],
    archetypes: [
      {
        key: 'android-screen',
        match: ['app', 'screen', 'screens', 'ui', 'feature', 'view', 'onboarding', 'widget'],
        steps: [
          'Build the screens of {d} in Jetpack Compose with a ViewModel exposing UI state',
          'Persist what {d} needs with Room and survive process death and rotation',
          'Support font scaling, dark theme and small screens in {d}',
          'Write unit tests for the ViewModels and Compose UI tests for the main flow of {d}',
        ],
        topics: ['android-ui', 'android-testing', 'android-architecture'],
      },
      {
        key: 'android-accessibility',
        match: ['accessibility', 'accessible', 'talkback', 'a11y', 'audit'],
        steps: [
          'Audit {d} with TalkBack and the Accessibility Scanner, screen by screen',
          'Add content descriptions and semantics to every control in {d}, and merge decorative nodes',
          'Check colour contrast and touch targets of at least 48 × 48 dp in {d}',
        ],
        topics: ['android-accessibility'],
      },
      {
        key: 'android-release',
        match: ['play store', 'release', 'apk', 'bundle', 'build'],
        steps: [
          'Configure R8, signing and versioning for the release of {d}',
          'Prepare the Play Console listing and data-safety form for {d}',
        ],
        topics: ['android-release'],
      },
    ],
    fallback: ['Design {d} within Material 3', 'Implement {d} in Kotlin with unit and instrumented tests'],
    guidance:
      'Plan like a senior Android engineer: Jetpack Compose, ViewModel and Room, the recommended app architecture, unit and instrumented tests, TalkBack and the Accessibility Scanner, Material 3, signed release bundles. Never cite Apple or web material.',
  },
  {
    key: 'data-science',
    name: 'Data science and analytics',
    domains: [
      'data science',
      'data analysis',
      'data analytics',
      'analytics',
      'data',
      'statistics',
      'datascience',
      'business intelligence',
    ],
    vocabulary: [
      'dataset',
      'data',
      'csv',
      'notebook',
      'pandas',
      'churn',
      'forecast',
      'regression',
      'classification',
      'eda',
      'dashboard',
      'analysis',
      'predict',
      'model',
      'sql',
      'cohort',
    ],
    setup: [
      'Pin a reproducible environment (requirements or conda file) and load the raw data read-only',
      'Profile the dataset: row counts, types, missing values, duplicates and the target distribution',
    ],
    habit: 'Keep raw data untouched and every transformation in code, so the notebook reruns top to bottom',
    check: 'on a held-out test set, against a simple baseline, with the numbers in the notebook',
    integrate: [
      'Restart the kernel and run the whole notebook from the raw files to check it reproduces every figure',
      'Write the limitations: data quality, leakage risks and what the model must not be used for',
    ],
    setupTopics: ['data-basics', 'notebook'],
    archetypes: [
      {
        key: 'model',
        match: [
          'model',
          'predict',
          'prediction',
          'classifier',
          'churn',
          'forecast',
          'regression',
          'classification',
          'scoring',
        ],
        steps: [
          'Split the data for {d} into train and test sets before any fitting, stratified or by time as the problem needs',
          'Fit a baseline for {d} (majority class or last value) and record its metrics',
          'Train {d} in a scikit-learn Pipeline with cross-validated hyperparameter search',
          'Evaluate {d} on the held-out set with the metrics the decision needs, plus a calibration check',
        ],
        topics: ['model-evaluation', 'cross-validation', 'pitfalls'],
      },
      {
        key: 'cleaning',
        match: [
          'clean',
          'cleaning',
          'missing',
          'outliers',
          'data quality',
          'pipeline',
          'etl',
          'preprocessing',
        ],
        steps: [
          'Document every missing-value and outlier decision for {d} with its effect on row counts',
          'Put the preprocessing of {d} in one function or pipeline step so train and test are treated alike',
        ],
        topics: ['missing-data', 'preprocessing'],
      },
      {
        key: 'eda',
        match: ['eda', 'exploratory', 'analysis', 'insights', 'drivers', 'cohort', 'segmentation'],
        steps: [
          'Plot distributions and relationships relevant to {d}, one question per chart',
          'Test the main patterns in {d} for significance or stability across time periods',
        ],
        topics: ['visualisation'],
      },
      {
        key: 'dashboard',
        match: ['dashboard', 'report', 'deck', 'slides', 'presentation', 'summary'],
        steps: [
          'Lead {d} with the answer and the decision it supports, then the evidence',
          'Label every chart in {d} with units, the time range and the data source',
        ],
        topics: ['visualisation'],
      },
      {
        key: 'notebook',
        match: ['notebook', 'jupyter', 'code'],
        steps: [
          'Structure {d} as load → clean → explore → model → evaluate, with a markdown cell stating each result',
          'Fix random seeds in {d} and record library versions',
        ],
        topics: ['notebook'],
      },
    ],
    fallback: [
      'State the question {d} answers and the metric that decides it',
      'Produce {d} from code that reruns on the raw data',
    ],
    guidance:
      'Plan like a senior data scientist: reproducible environment, data profiling, train/test split before fitting, a baseline, scikit-learn pipelines, cross-validation, leakage checks, held-out evaluation with decision-relevant metrics, charts with units, limitations.',
  },
  {
    key: 'ml-research',
    name: 'Machine-learning research',
    domains: [
      'ml research',
      'machine learning research',
      'deep learning',
      'ai research',
      'nlp',
      'computer vision',
      'research engineering',
    ],
    vocabulary: [
      'paper',
      'ablation',
      'benchmark',
      'transformer',
      'fine-tune',
      'fine tune',
      'pytorch',
      'reproduce',
      'reproduction',
      'baseline',
      'hypothesis',
      'llm',
      'embedding',
      'gpu',
      'checkpoint',
      'arxiv',
    ],
    setup: [
      'Write down the hypothesis, the benchmark and the metric that would refute it',
      'Set up experiment tracking, fixed seeds and a config file per run',
    ],
    habit:
      'Log every run with its config, seed, commit and metrics; never compare numbers from untracked runs',
    check: 'over at least three seeds, reporting mean and spread against the strongest baseline',
    integrate: [
      'Re-run the headline experiment from a clean checkout and the released config',
      'Write the limitations and the negative results next to the positive ones',
    ],
    setupTopics: ['ml-basics', 'reproducibility'],
    archetypes: [
      {
        key: 'experiment',
        match: ['experiment', 'experiments', 'model', 'training', 'fine-tune', 'fine tune', 'train'],
        steps: [
          'Reproduce the published baseline for {d} before changing anything',
          'Run {d} over several seeds and record mean and standard deviation',
          'Watch training curves for {d} and stop runs that diverge instead of tuning on the test set',
        ],
        topics: ['training', 'reproducibility'],
      },
      {
        key: 'ablation',
        match: ['ablation', 'ablations', 'analysis', 'error analysis'],
        steps: [
          'Remove one component at a time in {d} and keep everything else fixed',
          'Inspect failure cases behind {d} by hand and group them into error types',
        ],
        topics: ['evaluation'],
      },
      {
        key: 'paper',
        match: ['paper', 'write-up', 'writeup', 'report', 'preprint'],
        steps: [
          'Outline {d}: claim, method, experiments that test the claim, limitations',
          'Make every number in {d} traceable to a logged run',
        ],
        topics: ['evaluation'],
      },
      {
        key: 'benchmark',
        match: ['benchmark', 'evaluation', 'eval', 'leaderboard', 'dataset'],
        steps: [
          'Check {d} for train/test contamination and label noise before trusting it',
          'Version the splits of {d} and publish the evaluation script',
        ],
        topics: ['datasets', 'evaluation'],
      },
    ],
    fallback: ['Frame {d} as a testable claim', 'Produce {d} from tracked, seeded runs'],
    guidance:
      'Plan like an ML research engineer: hypothesis first, reproduce the baseline, tracked and seeded runs, several seeds with spread, ablations, contamination checks, error analysis, numbers traceable to runs, honest limitations.',
  },
  {
    key: 'devops',
    name: 'DevOps and cloud',
    domains: [
      'devops',
      'sre',
      'site reliability',
      'platform engineering',
      'cloud',
      'cloud engineering',
      'infrastructure',
      'infrastructure as code',
      'ops',
      'kubernetes',
      'docker',
    ],
    vocabulary: [
      'ci',
      'cd',
      'pipeline',
      'docker',
      'dockerfile',
      'kubernetes',
      'k8s',
      'terraform',
      'helm',
      'monitoring',
      'alerting',
      'uptime',
      'slo',
      'infrastructure',
      'aws',
      'gcp',
      'azure',
      'deploy',
      'runbook',
    ],
    setup: [
      'Inventory the current environments, secrets and deploy steps, and draw the target architecture',
      'Create a sandbox account or cluster where infrastructure changes are safe to try',
    ],
    habit:
      'Change infrastructure only through reviewed code and a plan output; nothing by hand in the console',
    check:
      'by measuring it in the staging environment (deploy time, error rate, alert fired) and recording the result',
    integrate: [
      'Tear the environment down and rebuild it from code alone to prove it is reproducible',
      'Run a game day: break one component and follow the runbook to recover',
    ],
    setupTopics: ['containers', 'iac'],
    archetypes: [
      {
        key: 'ci-pipeline',
        match: ['ci', 'cd', 'pipeline', 'github actions', 'workflow', 'build'],
        steps: [
          'Build {d} as lint → test → build image → deploy stages with cached dependencies',
          'Gate production deploys in {d} on passing checks and a manual approval or canary',
          'Keep secrets for {d} in the CI secret store, scoped per environment',
        ],
        topics: ['ci'],
      },
      {
        key: 'container',
        match: ['docker', 'dockerfile', 'container', 'image', 'compose'],
        steps: [
          'Write {d} as a multi-stage build on a slim base image running as a non-root user',
          'Scan the image of {d} for vulnerabilities and pin base image digests',
        ],
        topics: ['containers'],
      },
      {
        key: 'kubernetes',
        match: ['kubernetes', 'k8s', 'helm', 'manifests', 'cluster'],
        steps: [
          'Write the Deployment and Service for {d} with resource requests, limits and readiness probes',
          'Roll out {d} with a rolling update and check that a failed rollout rolls back',
        ],
        topics: ['kubernetes'],
      },
      {
        key: 'iac',
        match: ['terraform', 'infrastructure', 'iac', 'modules', 'cloudformation', 'network', 'vpc'],
        steps: [
          'Write {d} as Terraform modules with remote state and locking',
          'Review the plan of {d} in CI before any apply',
        ],
        topics: ['iac'],
      },
      {
        key: 'observability',
        match: [
          'monitoring',
          'alerting',
          'alerts',
          'dashboards',
          'logging',
          'observability',
          'slo',
          'uptime',
          'runbook',
          'runbooks',
        ],
        steps: [
          'Define SLOs for {d} from user-facing symptoms (latency, errors), not causes',
          'Alert on SLO burn rate in {d} and link every alert to its runbook',
          'Write {d} so an on-call engineer can act at 3 a.m. without context',
        ],
        topics: ['observability'],
      },
    ],
    fallback: ['Automate {d} as code under review', 'Monitor {d} and document how to recover it'],
    guidance:
      'Plan like a senior SRE/DevOps engineer: infrastructure as code with reviewed plans, multi-stage container builds, CI/CD with gates, Kubernetes probes and rollbacks, SLOs and burn-rate alerts, runbooks, rebuild-from-code and game days.',
  },
  {
    key: 'security',
    name: 'Security',
    domains: [
      'security',
      'cyber security',
      'cybersecurity',
      'infosec',
      'appsec',
      'application security',
      'information security',
      'pentest',
      'pentesting',
      'cyber',
    ],
    vocabulary: [
      'vulnerability',
      'vulnerabilities',
      'penetration',
      'pentest',
      'owasp',
      'threat model',
      'exploit',
      'cve',
      'xss',
      'injection',
      'hardening',
      'audit',
      'asvs',
      'attack',
    ],
    setup: [
      'Agree the scope, rules of engagement and an isolated test environment in writing',
      'Map the attack surface: entry points, trust boundaries, assets and their owners',
    ],
    habit: 'Log each finding as you go with evidence, reproduction steps and a CVSS score',
    check: 'by re-testing the finding or control and attaching the request and response as evidence',
    integrate: [
      'Re-test every fixed finding and mark it closed only with fresh evidence',
      'Rank the findings by risk and write the executive summary last',
    ],
    setupTopics: ['security-basics'],
    archetypes: [
      {
        key: 'threat-model',
        match: ['threat model', 'threat modelling', 'threat modeling', 'risk assessment', 'stride'],
        steps: [
          'Draw the data-flow diagram for {d} with trust boundaries',
          'Enumerate threats in {d} per element with STRIDE and rate them',
          'Map each threat in {d} to a mitigation or an accepted risk with an owner',
        ],
        topics: ['threat-modelling'],
      },
      {
        key: 'pentest',
        match: [
          'pentest',
          'penetration test',
          'assessment',
          'audit',
          'vulnerabilities',
          'vulnerability',
          'findings',
        ],
        steps: [
          'Test {d} against the OWASP Web Security Testing Guide categories in scope',
          'Confirm each issue in {d} manually; discard scanner false positives',
          'Score each finding in {d} with CVSS and give a concrete fix',
        ],
        topics: ['testing-guide', 'scoring'],
      },
      {
        key: 'hardening',
        match: ['hardening', 'fix', 'remediation', 'controls', 'authentication', 'headers', 'csp'],
        steps: [
          'Apply the fixes for {d} from the OWASP cheat sheets and verify each with a test',
          'Add security headers and a Content Security Policy for {d}',
        ],
        topics: ['cheat-sheets'],
      },
      {
        key: 'security-report',
        match: ['report', 'write-up', 'summary', 'presentation'],
        steps: [
          'Write {d} with an executive summary, scope, methodology and findings ranked by risk',
          'Give every finding in {d} evidence, impact, reproduction steps and remediation',
        ],
        topics: ['scoring'],
      },
    ],
    fallback: ['Assess {d} against OWASP ASVS requirements in scope', 'Record evidence for {d} as you test'],
    guidance:
      'Plan like a senior application-security engineer: written scope and rules of engagement, attack-surface mapping, STRIDE threat modelling, OWASP WSTG/ASVS testing, manual confirmation, CVSS scoring, remediation with re-tests, a risk-ranked report.',
  },
  {
    key: 'ux-research',
    name: 'UX research',
    domains: [
      'ux research',
      'user research',
      'ux',
      'research',
      'usability',
      'product research',
      'design research',
    ],
    vocabulary: [
      'interview',
      'interviews',
      'usability',
      'participants',
      'persona',
      'personas',
      'survey',
      'journey map',
      'insights',
      'research',
      'user testing',
      'diary study',
      'card sort',
      'affinity',
    ],
    setup: [
      'Write the research questions and the decisions they will inform, with the product owner',
      'Choose methods per question and draft a recruitment screener for the participant profile',
    ],
    habit: 'Write up each session the same day: observations apart from interpretations, with quotes',
    check: 'against the session notes and recordings, counting how many participants showed it',
    integrate: [
      'Run an affinity-mapping session across all sessions and name the themes',
      'Play back the findings to the team and agree which decisions they change',
    ],
    setupTopics: ['research-methods'],
    archetypes: [
      {
        key: 'interviews',
        match: ['interview', 'interviews', 'discovery', 'contextual inquiry'],
        steps: [
          'Write a semi-structured discussion guide for {d} with open, non-leading questions',
          'Recruit five to eight participants for {d} who match the screener, plus a backup',
          'Run {d} with a note-taker and record with consent',
        ],
        topics: ['interviews'],
      },
      {
        key: 'usability-test',
        match: ['usability', 'usability test', 'user testing', 'prototype test', 'test'],
        steps: [
          'Write realistic tasks and success criteria for {d}, and pilot them once',
          'Run {d} with five participants per user group, thinking aloud',
          'Rate the severity of each problem found in {d} and note how many participants hit it',
        ],
        topics: ['usability-testing'],
      },
      {
        key: 'synthesis',
        match: [
          'persona',
          'personas',
          'journey map',
          'journey',
          'insights',
          'synthesis',
          'findings',
          'report',
          'recommendations',
        ],
        steps: [
          'Cluster the observations behind {d} on an affinity map before naming themes',
          'Ground every claim in {d} in quotes or counts from the sessions',
          'Turn {d} into prioritised recommendations with the evidence for each',
        ],
        topics: ['synthesis'],
      },
      {
        key: 'survey',
        match: ['survey', 'questionnaire', 'poll'],
        steps: [
          'Draft {d} with one idea per question and balanced answer scales, and pilot it with three people',
          'Decide the sample for {d} and how you will handle non-response before sending it',
        ],
        topics: ['research-methods'],
      },
    ],
    fallback: [
      'Choose the research method that answers the question behind {d}',
      'Collect evidence for {d} from real users',
    ],
    guidance:
      'Plan like a senior UX researcher: research questions tied to decisions, method choice, screeners and recruitment, discussion guides, five users per round, consent, same-day notes, affinity mapping, severity ratings, evidence-backed recommendations.',
  },
  {
    key: 'visual-design',
    name: 'Visual and UI design',
    domains: [
      'design',
      'ui',
      'ui design',
      'visual design',
      'graphic design',
      'product design',
      'ux ui',
      'ui ux',
      'uxui',
      'branding',
      'interaction design',
    ],
    vocabulary: [
      'figma',
      'mockup',
      'mockups',
      'wireframe',
      'wireframes',
      'prototype',
      'design system',
      'style guide',
      'typography',
      'colour',
      'color',
      'logo',
      'brand',
      'icons',
      'high-fidelity',
      'components',
    ],
    setup: [
      'Collect the brand assets, constraints and three reference designs the stakeholders like',
      'Set up a Figma file with pages for exploration, components and hand-off',
    ],
    habit: 'Share work in progress at each fidelity step and log the feedback with the decision taken',
    check: 'in a design review against the brief, with contrast and type sizes measured',
    integrate: [
      'Link every screen into one clickable prototype and walk the main flows',
      'Prepare the hand-off: specs, exported assets and component states',
    ],
    setupTopics: ['design-tools'],
    archetypes: [
      {
        key: 'wireframes',
        match: [
          'wireframe',
          'wireframes',
          'flows',
          'user flow',
          'low-fidelity',
          'sketches',
          'information architecture',
        ],
        steps: [
          'Sketch several layouts for {d} in grayscale before choosing one',
          'Map the flows in {d} including empty, error and edge states',
        ],
        topics: ['design-tools'],
      },
      {
        key: 'hifi',
        match: [
          'mockup',
          'mockups',
          'high-fidelity',
          'hi-fi',
          'screens',
          'ui',
          'prototype',
          'redesign',
          'landing page',
        ],
        steps: [
          'Set the type scale, colour palette and spacing grid for {d}',
          'Design {d} at mobile and desktop sizes with real content, not lorem ipsum',
          'Check the colour contrast of {d} against WCAG 2.2 AA',
        ],
        topics: ['colour', 'typography', 'contrast'],
      },
      {
        key: 'design-system',
        match: ['design system', 'style guide', 'components', 'component library', 'ui kit'],
        steps: [
          'Build {d} as Figma components with variants for every state',
          'Document usage rules and tokens (colour, type, spacing) for {d}',
        ],
        topics: ['design-tools', 'colour', 'typography'],
      },
      {
        key: 'brand',
        match: ['logo', 'brand', 'identity', 'icons', 'illustrations', 'poster', 'banner'],
        steps: [
          'Explore at least three directions for {d} and test them at small sizes and in one colour',
          'Produce {d} as vector masters with export presets',
        ],
        topics: ['colour'],
      },
    ],
    fallback: [
      'Explore options for {d} before refining one',
      'Review {d} against the brief with stakeholders',
    ],
    guidance:
      'Plan like a senior product/visual designer: references and constraints, divergent sketches, flows with edge states, type scale and colour palette, real content, WCAG contrast, Figma components with variants, clickable prototype, developer hand-off.',
  },
  {
    key: 'marketing',
    name: 'Marketing and copywriting',
    domains: [
      'marketing',
      'copywriting',
      'content',
      'content marketing',
      'growth',
      'seo',
      'social media',
      'digital marketing',
      'brand marketing',
      'communications',
    ],
    vocabulary: [
      'campaign',
      'copy',
      'copywriting',
      'newsletter',
      'email',
      'emails',
      'social',
      'instagram',
      'linkedin',
      'seo',
      'audience',
      'launch',
      'tagline',
      'blog',
      'ad',
      'ads',
      'funnel',
      'conversion',
      'brand voice',
    ],
    setup: [
      'Write a one-page creative brief: audience, single-minded message, proof points, call to action and channel',
      'Gather the voice-of-customer material: reviews, support tickets and sales-call notes, and pull the phrases customers use',
    ],
    habit: 'Read every draft aloud and cut it by a fifth before anyone else sees it',
    check:
      'by reviewing the draft against the creative brief and, where it can be measured, with the tracked metric',
    integrate: [
      'Line up every asset in a launch calendar with owners, dates and UTM-tagged links',
      'Proofread everything once more for claims that need evidence and for legal wording',
    ],
    setupTopics: ['web-writing'],
    archetypes: [
      {
        key: 'landing-copy',
        match: ['landing page', 'web copy', 'website copy', 'page', 'homepage', 'pricing', 'hero'],
        steps: [
          'Write three headline options for {d} that state the benefit, and pick one with the stakeholder',
          'Structure {d} as problem, promise, proof, offer and a single call to action',
          'Optimise the title tag, meta description and headings of {d} for the search terms customers use',
        ],
        topics: ['web-writing', 'seo'],
      },
      {
        key: 'email',
        match: ['email', 'emails', 'newsletter', 'sequence', 'drip', 'nurture'],
        steps: [
          'Map {d}: trigger, goal and single call to action of each message',
          'Write subject lines and preview text for {d}, two variants each for an A/B test',
          'Check {d} on mobile and in dark mode, with links tagged for tracking',
        ],
        topics: ['analytics', 'web-writing'],
      },
      {
        key: 'social',
        match: ['social', 'instagram', 'linkedin', 'twitter', 'posts', 'reels', 'tiktok', 'content calendar'],
        steps: [
          'Plan {d} as a content calendar with one idea per post and the format that suits the channel',
          'Write hooks for the first line of each post in {d} and adapt length per platform',
        ],
        topics: ['analytics'],
      },
      {
        key: 'campaign',
        match: ['campaign', 'launch', 'plan', 'strategy', 'go-to-market', 'gtm', 'ads', 'ad'],
        steps: [
          'Set the objective, audience segments and KPI targets of {d}',
          'Choose channels and budget split for {d} from where the audience already is',
          'Define how {d} will be measured: UTM conventions, conversion events and a reporting cadence',
        ],
        topics: ['analytics', 'advertising-rules'],
      },
      {
        key: 'article',
        match: ['blog', 'article', 'post', 'case study', 'press release', 'copy', 'tagline', 'slogan'],
        steps: [
          'Outline {d} around one reader question and the answer in the first paragraph',
          'Back every claim in {d} with a source or a customer quote',
        ],
        topics: ['web-writing'],
      },
    ],
    fallback: [
      'Write {d} for one named audience and one action',
      'Test {d} with five readers from the audience',
    ],
    guidance:
      'Plan like a senior marketer/copywriter: creative brief, audience and single-minded message, voice-of-customer research, headline options, proof for every claim, one call to action, A/B variants, UTM tracking, launch calendar, advertising rules. No code, repositories or software tooling.',
  },
  {
    key: 'finance',
    name: 'Finance and spreadsheets',
    domains: [
      'finance',
      'financial',
      'accounting',
      'fp&a',
      'fp a',
      'fpa',
      'spreadsheets',
      'excel',
      'financial modelling',
      'financial modeling',
      'investment',
      'banking',
    ],
    vocabulary: [
      'spreadsheet',
      'excel',
      'google sheets',
      'financial model',
      'forecast',
      'budget',
      'cash flow',
      'p&l',
      'balance sheet',
      'valuation',
      'dcf',
      'npv',
      'irr',
      'revenue',
      'scenario',
      'sensitivity',
      'variance',
      'pivot',
    ],
    setup: [
      'Agree the model purpose, time periods, currency and the decisions it must support',
      'Lay out the workbook: an inputs sheet, calculation sheets and an outputs sheet, with a colour code for inputs and formulas',
    ],
    habit:
      'Keep one formula per row across periods, no hard-coded numbers inside formulas, every assumption sourced',
    check:
      'with a check cell that must read zero (balances, totals reconcile) and a manual recalculation of one period',
    integrate: [
      'Add a checks sheet that sums every reconciliation and shows one overall OK/ERROR flag',
      'Have someone else trace three outputs back to their inputs and log what they could not follow',
    ],
    setupTopics: ['spreadsheet-basics', 'modelling-standards'],
    archetypes: [
      {
        key: 'three-statement',
        match: [
          'financial model',
          'three-statement',
          'three statement',
          'p&l',
          'balance sheet',
          'cash flow',
          'projections',
          'model',
        ],
        steps: [
          'Build the revenue and cost drivers for {d} on the inputs sheet with their sources',
          'Link the P&L, balance sheet and cash flow in {d} so the balance sheet balances every period',
          'Add a scenario switch (base, upside, downside) to {d} that changes only inputs',
        ],
        topics: ['formulas', 'modelling-standards'],
      },
      {
        key: 'valuation',
        match: ['valuation', 'dcf', 'npv', 'irr', 'discounted', 'investment case', 'payback'],
        steps: [
          'Derive the discount rate for {d} and document every component',
          'Compute NPV and IRR for {d} with XNPV/XIRR on dated cash flows',
          'Build a sensitivity table for {d} on the two assumptions that move the answer most',
        ],
        topics: ['valuation-functions', 'what-if'],
      },
      {
        key: 'budget',
        match: ['budget', 'forecast', 'variance', 'actuals', 'plan vs actual', 'rolling forecast'],
        steps: [
          'Map the chart of accounts into the lines {d} reports on',
          'Compute variances in {d} in amount and percent, and flag the ones above a threshold',
        ],
        topics: ['formulas', 'pivot'],
      },
      {
        key: 'analysis-sheet',
        match: ['spreadsheet', 'sheet', 'workbook', 'tracker', 'pivot', 'report', 'dashboard', 'template'],
        steps: [
          'Structure the data behind {d} as one table with one row per record and validated inputs',
          'Summarise {d} with PivotTables or SUMIFS, and lookups with XLOOKUP',
          'Protect the formula cells of {d} and leave inputs unlocked',
        ],
        topics: ['pivot', 'formulas', 'validation'],
      },
      {
        key: 'memo',
        match: ['memo', 'deck', 'summary', 'recommendation', 'presentation', 'board'],
        steps: [
          'Open {d} with the recommendation and the number that drives it',
          'Show the key sensitivities and risks in {d} next to the base case',
        ],
        topics: ['what-if'],
      },
    ],
    fallback: [
      'Define the inputs and outputs of {d} before building formulas',
      'Reconcile {d} against a known total',
    ],
    guidance:
      'Plan like a senior FP&A analyst/financial modeller: purpose and periods agreed, inputs–calculations–outputs layout, colour-coded inputs, one formula per row, no hard-codes, linked three statements that balance, scenarios, sensitivity tables, XNPV/XIRR, check cells, peer review of the model. No code, repositories or software testing.',
  },
  {
    key: 'technical-writing',
    name: 'Technical writing',
    domains: [
      'technical writing',
      'tech writing',
      'documentation',
      'docs',
      'content design',
      'developer documentation',
      'api documentation',
    ],
    vocabulary: [
      'documentation',
      'docs',
      'tutorial',
      'guide',
      'how-to',
      'reference',
      'readme',
      'manual',
      'knowledge base',
      'help center',
      'release notes',
      'style guide',
      'onboarding guide',
    ],
    setup: [
      'Identify the readers, what they already know and the task each page must let them complete',
      'Audit the existing docs and sort each page into tutorial, how-to, reference or explanation',
    ],
    habit: 'Test each procedure by following it literally on a clean machine or account before publishing',
    check: 'by having a reader from the audience follow the page while you watch, noting where they stop',
    integrate: [
      'Check every link, code sample and screenshot against the current product',
      'Edit the whole set for terminology and voice against the style guide',
    ],
    setupTopics: ['docs-basics'],
    archetypes: [
      {
        key: 'tutorial',
        match: ['tutorial', 'getting started', 'quickstart', 'quick start', 'onboarding', 'walkthrough'],
        steps: [
          'Choose one concrete result the reader of {d} will have at the end, and the shortest path to it',
          'Write {d} as numbered steps with the expected output after each',
          'Test {d} from scratch on a clean environment and fix every gap',
        ],
        topics: ['docs-structure', 'docs-basics'],
      },
      {
        key: 'how-to',
        match: ['how-to', 'how to', 'guide', 'guides', 'procedure', 'runbook', 'manual'],
        steps: [
          "Title each page of {d} by the task it solves, in the reader's words",
          'Put prerequisites first in {d} and one action per step',
        ],
        topics: ['docs-structure'],
      },
      {
        key: 'reference',
        match: ['reference', 'api reference', 'api documentation', 'parameters', 'cli reference', 'openapi'],
        steps: [
          'Generate the skeleton of {d} from the source of truth (schema, OpenAPI, CLI help)',
          'Give every entry in {d} its type, default, constraints and an example',
        ],
        topics: ['api-reference', 'docs-structure'],
      },
      {
        key: 'readme',
        match: ['readme', 'read me', 'release notes', 'changelog'],
        steps: [
          'Open {d} with what the project does and who it is for, then install and first use',
          'Keep {d} scannable: short sections, code blocks that can be copied, links to deeper docs',
        ],
        topics: ['readme'],
      },
      {
        key: 'style-guide',
        match: ['style guide', 'glossary', 'terminology', 'voice and tone'],
        steps: [
          'Collect the terms in use and choose one per concept for {d}',
          "Write the rules in {d} with a do and a don't example each",
        ],
        topics: ['style-guides'],
      },
    ],
    fallback: ['Define the reader and the task {d} serves', 'Test {d} with a reader from the audience'],
    guidance:
      'Plan like a senior technical writer: audience and task analysis, Diátaxis (tutorial, how-to, reference, explanation), one task per page, tested procedures, examples for every reference entry, a style guide and consistent terminology, link and sample checks.',
  },
];

/**
 * The plan for briefs the knowledge base does not recognise: honest, general and marked
 * `confidence: "low"`, rather than another field's steps dressed up as expertise.
 */
export const GENERAL_FIELD: Field = {
  key: 'general',
  name: 'General',
  domains: [],
  vocabulary: [],
  setup: [
    'Ask the brief owner what a successful result looks like and who will judge it',
    'List what you need (materials, access, people) and what you do not know yet',
  ],
  habit: 'Keep a short log of what you did, what you decided and why',
  check: 'by asking the brief owner or someone from the intended audience to review it against the criterion',
  integrate: ['Review everything together against the brief and close the gaps'],
  setupTopics: [],
  archetypes: [],
  fallback: [
    'Break {d} into steps you can finish in a day and order them',
    'Produce a first complete draft of {d} and get feedback on it',
    'Revise {d} with the feedback',
  ],
  guidance:
    'The field is not one the platform knows well: write a clearly general plan (clarify the goal, break work down, draft, get feedback, revise) and do not invent field-specific practices or links.',
};

export const FIELD_BY_KEY: ReadonlyMap<FieldKey, Field> = new Map(
  [...FIELDS, GENERAL_FIELD].map((f) => [f.key, f] as const),
);

export function fieldFor(key: FieldKey): Field {
  return FIELD_BY_KEY.get(key) ?? GENERAL_FIELD;
}
