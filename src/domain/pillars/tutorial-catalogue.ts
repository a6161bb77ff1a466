/**
 * The curated catalogue of tutorial links that playbooks may cite. Only official or
 * long-standing reference documentation (MDN, web.dev, vendor docs, standards bodies, OWASP,
 * Nielsen Norman Group) — stable pages that are unlikely to move. A playbook never cites a
 * URL that is not in this file; a test holds it to that.
 *
 * Each domain list starts with its broad overviews: they are the fallback when no entry's
 * keywords match a milestone.
 */
import { contentStems } from './text';

export type TutorialEntry = {
  url: string;
  title: string;
  /** Words and phrases a milestone's title and tasks are matched against. */
  keywords: string[];
};

export const CATALOGUE_DOMAINS = [
  'web-development',
  'backend',
  'data-science',
  'mobile',
  'design',
  'devops',
  'security',
  'general',
] as const;
export type CatalogueDomain = (typeof CATALOGUE_DOMAINS)[number];

const MDN = 'https://developer.mozilla.org/en-US/docs';
const OWASP_CS = 'https://cheatsheetseries.owasp.org/cheatsheets';
const SKLEARN = 'https://scikit-learn.org/stable';
const NNG = 'https://www.nngroup.com/articles';

export const TUTORIAL_CATALOGUE: Readonly<Record<CatalogueDomain, readonly TutorialEntry[]>> = {
  'web-development': [
    {
      url: `${MDN}/Learn_web_development`,
      title: 'MDN: Learn web development',
      keywords: ['web', 'website', 'frontend', 'page', 'browser'],
    },
    {
      url: 'https://web.dev/learn',
      title: 'web.dev: Learn',
      keywords: ['web', 'modern web', 'best practices'],
    },
    { url: `${MDN}/Web/HTML`, title: 'MDN: HTML', keywords: ['html', 'markup', 'semantic', 'form', 'page'] },
    { url: `${MDN}/Web/CSS`, title: 'MDN: CSS', keywords: ['css', 'style', 'styling', 'layout', 'theme'] },
    {
      url: `${MDN}/Web/JavaScript`,
      title: 'MDN: JavaScript',
      keywords: ['javascript', 'js', 'script', 'async', 'promise'],
    },
    {
      url: `${MDN}/Web/API/Fetch_API`,
      title: 'MDN: Fetch API',
      keywords: ['fetch', 'request', 'api', 'client', 'call'],
    },
    {
      url: 'https://web.dev/learn/design',
      title: 'web.dev: Learn responsive design',
      keywords: ['responsive', 'mobile', 'layout', 'breakpoint', 'screen'],
    },
    {
      url: 'https://web.dev/learn/forms',
      title: 'web.dev: Learn forms',
      keywords: ['form', 'input', 'validation', 'signup', 'login'],
    },
    {
      url: 'https://web.dev/learn/accessibility',
      title: 'web.dev: Learn accessibility',
      keywords: ['accessibility', 'accessible', 'a11y', 'screen reader', 'keyboard', 'wcag'],
    },
    {
      url: 'https://web.dev/learn/performance',
      title: 'web.dev: Learn performance',
      keywords: ['performance', 'fast', 'speed', 'load', 'optimise', 'optimize'],
    },
    {
      url: 'https://web.dev/articles/vitals',
      title: 'web.dev: Web Vitals',
      keywords: ['core web vitals', 'lighthouse', 'performance', 'metrics', 'lcp'],
    },
    {
      url: 'https://react.dev/learn',
      title: 'React: Quick start',
      keywords: ['react', 'component', 'state', 'hooks', 'jsx', 'ui'],
    },
    {
      url: 'https://www.typescriptlang.org/docs/handbook/intro.html',
      title: 'The TypeScript Handbook',
      keywords: ['typescript', 'types', 'typed', 'type safety'],
    },
    {
      url: 'https://vitest.dev/guide/',
      title: 'Vitest: Getting started',
      keywords: ['test', 'unit test', 'vitest', 'coverage', 'assert'],
    },
    {
      url: 'https://playwright.dev/docs/intro',
      title: 'Playwright: Installation and first test',
      keywords: ['end-to-end', 'e2e', 'browser test', 'ui test', 'test'],
    },
    {
      url: 'https://developers.cloudflare.com/workers/',
      title: 'Cloudflare Workers documentation',
      keywords: ['deploy', 'hosting', 'edge', 'serverless', 'workers'],
    },
  ],
  backend: [
    {
      url: 'https://nodejs.org/en/learn',
      title: 'Node.js: Learn',
      keywords: ['node', 'server', 'backend', 'runtime', 'javascript'],
    },
    {
      url: `${MDN}/Web/HTTP`,
      title: 'MDN: HTTP',
      keywords: ['http', 'api', 'rest', 'request', 'response', 'headers', 'endpoint'],
    },
    {
      url: 'https://www.rfc-editor.org/rfc/rfc9110',
      title: 'RFC 9110: HTTP Semantics',
      keywords: ['http', 'methods', 'status code', 'rest', 'semantics', 'crud'],
    },
    {
      url: 'https://www.rfc-editor.org/rfc/rfc9457',
      title: 'RFC 9457: Problem Details for HTTP APIs',
      keywords: ['error', 'error handling', 'errors', 'problem details', 'status code'],
    },
    {
      url: 'https://spec.openapis.org/oas/latest.html',
      title: 'OpenAPI Specification',
      keywords: ['openapi', 'swagger', 'api documentation', 'api reference', 'schema', 'docs'],
    },
    {
      url: 'https://nodejs.org/docs/latest/api/',
      title: 'Node.js API reference',
      keywords: ['node', 'fs', 'stream', 'module', 'server'],
    },
    {
      url: 'https://hono.dev/docs/',
      title: 'Hono documentation',
      keywords: ['hono', 'routing', 'route', 'middleware', 'endpoint', 'api'],
    },
    {
      url: 'https://expressjs.com/en/guide/routing.html',
      title: 'Express: Routing',
      keywords: ['express', 'routing', 'route', 'endpoint', 'middleware', 'crud'],
    },
    {
      url: 'https://fastapi.tiangolo.com/tutorial/',
      title: 'FastAPI: Tutorial - User guide',
      keywords: ['python', 'fastapi', 'api', 'endpoint', 'validation', 'pydantic'],
    },
    {
      url: 'https://www.postgresql.org/docs/current/tutorial.html',
      title: 'PostgreSQL tutorial',
      keywords: ['postgres', 'postgresql', 'sql', 'database', 'table', 'query'],
    },
    {
      url: 'https://www.postgresql.org/docs/current/indexes.html',
      title: 'PostgreSQL: Indexes',
      keywords: ['index', 'indexes', 'query', 'performance', 'database'],
    },
    {
      url: 'https://www.postgresql.org/docs/current/ddl-constraints.html',
      title: 'PostgreSQL: Constraints',
      keywords: ['schema', 'constraint', 'data model', 'validation', 'database', 'persist'],
    },
    {
      url: 'https://www.sqlite.org/lang.html',
      title: 'SQLite: SQL as understood by SQLite',
      keywords: ['sqlite', 'sql', 'database', 'persist', 'storage', 'migration'],
    },
    {
      url: 'https://developers.cloudflare.com/d1/',
      title: 'Cloudflare D1 documentation',
      keywords: ['d1', 'sqlite', 'database', 'workers', 'storage'],
    },
    {
      url: `${OWASP_CS}/REST_Security_Cheat_Sheet.html`,
      title: 'OWASP REST Security Cheat Sheet',
      keywords: ['security', 'secure', 'auth', 'authentication', 'rest', 'api'],
    },
  ],
  'data-science': [
    {
      url: 'https://pandas.pydata.org/docs/getting_started/index.html',
      title: 'pandas: Getting started',
      keywords: ['data', 'dataset', 'pandas', 'dataframe', 'csv', 'load'],
    },
    {
      url: `${SKLEARN}/user_guide.html`,
      title: 'scikit-learn User Guide',
      keywords: ['model', 'machine learning', 'train', 'classifier', 'scikit-learn', 'predict'],
    },
    {
      url: 'https://pandas.pydata.org/docs/user_guide/missing_data.html',
      title: 'pandas: Working with missing data',
      keywords: ['missing values', 'missing data', 'clean', 'cleaning', 'null', 'impute'],
    },
    {
      url: 'https://pandas.pydata.org/docs/user_guide/index.html',
      title: 'pandas User Guide',
      keywords: ['dataframe', 'groupby', 'merge', 'transform', 'exploratory', 'eda'],
    },
    {
      url: 'https://numpy.org/doc/stable/user/absolute_beginners.html',
      title: 'NumPy: the absolute basics for beginners',
      keywords: ['numpy', 'array', 'numerical', 'vector', 'matrix'],
    },
    {
      url: `${SKLEARN}/modules/cross_validation.html`,
      title: 'scikit-learn: Cross-validation',
      keywords: ['cross-validation', 'validation', 'holdout', 'split', 'overfitting', 'evaluate'],
    },
    {
      url: `${SKLEARN}/modules/model_evaluation.html`,
      title: 'scikit-learn: Metrics and scoring',
      keywords: ['metric', 'precision', 'recall', 'auc', 'roc', 'f1', 'accuracy', 'evaluate', 'baseline'],
    },
    {
      url: `${SKLEARN}/modules/preprocessing.html`,
      title: 'scikit-learn: Preprocessing data',
      keywords: ['preprocessing', 'feature engineering', 'scaling', 'encoding', 'features'],
    },
    {
      url: `${SKLEARN}/modules/compose.html`,
      title: 'scikit-learn: Pipelines and composite estimators',
      keywords: ['pipeline', 'reproducible', 'leakage', 'transform'],
    },
    {
      url: `${SKLEARN}/modules/grid_search.html`,
      title: 'scikit-learn: Tuning hyper-parameters',
      keywords: ['hyperparameter', 'tuning', 'grid search', 'tune'],
    },
    {
      url: `${SKLEARN}/modules/permutation_importance.html`,
      title: 'scikit-learn: Permutation feature importance',
      keywords: ['feature importance', 'interpret', 'drivers', 'explain', 'importance'],
    },
    {
      url: `${SKLEARN}/common_pitfalls.html`,
      title: 'scikit-learn: Common pitfalls and recommended practices',
      keywords: ['leakage', 'pitfalls', 'reproducible', 'random state'],
    },
    {
      url: 'https://matplotlib.org/stable/users/index.html',
      title: 'Matplotlib User guide',
      keywords: ['plot', 'chart', 'visualise', 'visualize', 'visualisation', 'figure'],
    },
    {
      url: 'https://seaborn.pydata.org/tutorial.html',
      title: 'seaborn: User guide and tutorial',
      keywords: ['plot', 'chart', 'statistical', 'visualisation', 'distribution'],
    },
    {
      url: 'https://docs.jupyter.org/en/latest/',
      title: 'Project Jupyter documentation',
      keywords: ['notebook', 'jupyter', 'report', 'ipynb'],
    },
    {
      url: 'https://docs.python.org/3/tutorial/',
      title: 'The Python Tutorial',
      keywords: ['python', 'script', 'module'],
    },
  ],
  mobile: [
    {
      url: 'https://developer.android.com/guide',
      title: 'Android developer guides',
      keywords: ['android', 'app', 'mobile', 'kotlin'],
    },
    {
      url: 'https://developer.apple.com/documentation/swiftui',
      title: 'Apple: SwiftUI documentation',
      keywords: ['ios', 'swiftui', 'swift', 'app', 'iphone'],
    },
    {
      url: 'https://developer.android.com/guide/topics/ui/accessibility',
      title: 'Android: Make apps more accessible',
      keywords: ['accessibility', 'accessible', 'talkback', 'content description', 'touch target', 'android'],
    },
    {
      url: 'https://developer.apple.com/documentation/accessibility',
      title: 'Apple: Accessibility documentation',
      keywords: ['accessibility', 'voiceover', 'dynamic type', 'ios', 'assistive'],
    },
    {
      url: 'https://developer.apple.com/design/human-interface-guidelines/accessibility',
      title: 'Apple Human Interface Guidelines: Accessibility',
      keywords: ['accessibility', 'contrast', 'touch target', 'font scaling', 'ios', 'design'],
    },
    {
      url: 'https://support.google.com/accessibility/android/answer/6283677',
      title: 'Get started on Android with TalkBack',
      keywords: ['talkback', 'screen reader', 'android', 'assistive'],
    },
    {
      url: 'https://www.w3.org/WAI/standards-guidelines/mobile/',
      title: 'W3C WAI: Mobile accessibility',
      keywords: ['wcag', 'mobile', 'accessibility', 'audit', 'guidelines'],
    },
    {
      url: 'https://developer.android.com/topic/architecture',
      title: 'Android: Guide to app architecture',
      keywords: ['architecture', 'structure', 'offline', 'sync', 'data layer', 'state'],
    },
    {
      url: 'https://developer.android.com/training/testing',
      title: 'Android: Test apps',
      keywords: ['test', 'unit test', 'ui test', 'espresso', 'android'],
    },
    {
      url: 'https://developer.apple.com/documentation/xctest',
      title: 'Apple: XCTest',
      keywords: ['test', 'unit test', 'ui test', 'xctest', 'ios'],
    },
    {
      url: 'https://developer.apple.com/design/human-interface-guidelines',
      title: 'Apple Human Interface Guidelines',
      keywords: ['design', 'ui', 'navigation', 'layout', 'ios', 'guidelines'],
    },
    {
      url: 'https://reactnative.dev/docs/getting-started',
      title: 'React Native: Introduction',
      keywords: ['react native', 'cross-platform', 'javascript', 'app'],
    },
    {
      url: 'https://reactnative.dev/docs/accessibility',
      title: 'React Native: Accessibility',
      keywords: ['accessibility', 'react native', 'accessibility label', 'screen reader'],
    },
    {
      url: 'https://docs.flutter.dev/',
      title: 'Flutter documentation',
      keywords: ['flutter', 'dart', 'cross-platform', 'widget'],
    },
  ],
  design: [
    {
      url: `${NNG}/ten-usability-heuristics/`,
      title: 'NN/g: 10 Usability Heuristics for User Interface Design',
      keywords: ['usability', 'heuristics', 'heuristic evaluation', 'ux', 'ui', 'design'],
    },
    {
      url: `${NNG}/which-ux-research-methods/`,
      title: 'NN/g: When to use which user-experience research methods',
      keywords: ['research', 'user research', 'methods', 'plan', 'interview', 'survey'],
    },
    {
      url: `${NNG}/usability-testing-101/`,
      title: 'NN/g: Usability Testing 101',
      keywords: ['usability test', 'usability testing', 'participants', 'user testing', 'test', 'validate'],
    },
    {
      url: `${NNG}/why-you-only-need-to-test-with-5-users/`,
      title: 'NN/g: Why you only need to test with 5 users',
      keywords: ['participants', 'usability test', 'sample', 'users', 'iterate'],
    },
    {
      url: `${NNG}/persona/`,
      title: 'NN/g: Personas make users memorable for product team members',
      keywords: ['persona', 'personas', 'users', 'audience', 'segment'],
    },
    {
      url: `${NNG}/journey-mapping-101/`,
      title: 'NN/g: Journey Mapping 101',
      keywords: ['journey map', 'journey', 'pain points', 'user flow', 'experience'],
    },
    {
      url: `${NNG}/card-sorting-definition/`,
      title: 'NN/g: Card sorting',
      keywords: ['card sort', 'information architecture', 'navigation', 'labels'],
    },
    {
      url: 'https://help.figma.com/hc/en-us',
      title: 'Figma Help Center',
      keywords: ['figma', 'prototype', 'wireframe', 'mockup', 'components', 'design system'],
    },
    {
      url: 'https://m3.material.io/',
      title: 'Material Design 3',
      keywords: ['design system', 'components', 'typography', 'colour', 'color', 'layout'],
    },
    {
      url: 'https://www.w3.org/WAI/tips/designing/',
      title: 'W3C WAI: Designing for web accessibility',
      keywords: ['accessibility', 'accessible', 'contrast', 'inclusive', 'design'],
    },
    {
      url: 'https://www.w3.org/WAI/WCAG22/quickref/',
      title: 'W3C WAI: How to meet WCAG (quick reference)',
      keywords: ['wcag', 'accessibility', 'contrast', 'audit', 'success criteria'],
    },
    {
      url: 'https://webaim.org/resources/contrastchecker/',
      title: 'WebAIM: Contrast checker',
      keywords: ['contrast', 'colour', 'color', 'wcag'],
    },
  ],
  devops: [
    {
      url: 'https://docs.docker.com/get-started/',
      title: 'Docker: Get started',
      keywords: ['docker', 'container', 'containerise', 'containerize', 'image'],
    },
    {
      url: 'https://docs.github.com/en/actions',
      title: 'GitHub Actions documentation',
      keywords: ['ci', 'cd', 'continuous integration', 'pipeline', 'github actions', 'workflow', 'automate'],
    },
    {
      url: 'https://docs.docker.com/reference/dockerfile/',
      title: 'Dockerfile reference',
      keywords: ['dockerfile', 'image', 'build'],
    },
    {
      url: 'https://docs.docker.com/build/building/best-practices/',
      title: 'Docker: Building best practices',
      keywords: ['dockerfile', 'image size', 'best practices', 'security', 'build'],
    },
    {
      url: 'https://docs.docker.com/compose/',
      title: 'Docker Compose',
      keywords: ['compose', 'docker-compose', 'services', 'local environment'],
    },
    {
      url: 'https://kubernetes.io/docs/tutorials/kubernetes-basics/',
      title: 'Kubernetes basics tutorial',
      keywords: ['kubernetes', 'k8s', 'cluster', 'orchestration'],
    },
    {
      url: 'https://kubernetes.io/docs/concepts/workloads/controllers/deployment/',
      title: 'Kubernetes: Deployments',
      keywords: ['deployment', 'rollout', 'rollback', 'replicas', 'kubernetes'],
    },
    {
      url: 'https://kubernetes.io/docs/tasks/configure-pod-container/configure-liveness-readiness-startup-probes/',
      title: 'Kubernetes: Liveness, readiness and startup probes',
      keywords: ['health check', 'probe', 'readiness', 'liveness', 'uptime'],
    },
    {
      url: 'https://developer.hashicorp.com/terraform/tutorials',
      title: 'Terraform tutorials',
      keywords: ['terraform', 'infrastructure', 'infrastructure as code', 'iac', 'provision'],
    },
    {
      url: 'https://prometheus.io/docs/introduction/overview/',
      title: 'Prometheus: Overview',
      keywords: ['monitoring', 'metrics', 'alerting', 'prometheus'],
    },
    {
      url: 'https://opentelemetry.io/docs/',
      title: 'OpenTelemetry documentation',
      keywords: ['observability', 'tracing', 'logging', 'telemetry', 'metrics'],
    },
    {
      url: 'https://sre.google/sre-book/service-level-objectives/',
      title: 'Google SRE book: Service Level Objectives',
      keywords: ['slo', 'sli', 'uptime', 'availability', 'reliability', 'latency'],
    },
    {
      url: 'https://sre.google/sre-book/monitoring-distributed-systems/',
      title: 'Google SRE book: Monitoring distributed systems',
      keywords: ['monitoring', 'alerting', 'dashboards', 'golden signals'],
    },
    {
      url: 'https://12factor.net/',
      title: 'The Twelve-Factor App',
      keywords: ['configuration', 'environment', 'config', 'twelve-factor', 'secrets', 'deploy'],
    },
    {
      url: 'https://developers.cloudflare.com/workers/wrangler/',
      title: 'Cloudflare Wrangler documentation',
      keywords: ['wrangler', 'workers', 'deploy', 'cloudflare'],
    },
  ],
  security: [
    {
      url: 'https://owasp.org/www-project-top-ten/',
      title: 'OWASP Top Ten',
      keywords: ['owasp', 'vulnerability', 'security', 'risks', 'web security'],
    },
    {
      url: 'https://owasp.org/www-project-application-security-verification-standard/',
      title: 'OWASP Application Security Verification Standard',
      keywords: ['asvs', 'verification', 'requirements', 'audit', 'security'],
    },
    {
      url: `${OWASP_CS}/Authentication_Cheat_Sheet.html`,
      title: 'OWASP Authentication Cheat Sheet',
      keywords: ['authentication', 'auth', 'login', 'mfa', 'account'],
    },
    {
      url: `${OWASP_CS}/Password_Storage_Cheat_Sheet.html`,
      title: 'OWASP Password Storage Cheat Sheet',
      keywords: ['password', 'hashing', 'bcrypt', 'argon2', 'credentials'],
    },
    {
      url: `${OWASP_CS}/Session_Management_Cheat_Sheet.html`,
      title: 'OWASP Session Management Cheat Sheet',
      keywords: ['session', 'cookie', 'token', 'logout'],
    },
    {
      url: `${OWASP_CS}/Input_Validation_Cheat_Sheet.html`,
      title: 'OWASP Input Validation Cheat Sheet',
      keywords: ['input validation', 'validation', 'sanitise', 'sanitize', 'input'],
    },
    {
      url: `${OWASP_CS}/SQL_Injection_Prevention_Cheat_Sheet.html`,
      title: 'OWASP SQL Injection Prevention Cheat Sheet',
      keywords: ['sql injection', 'injection', 'parameterised', 'query'],
    },
    {
      url: `${OWASP_CS}/Cross_Site_Scripting_Prevention_Cheat_Sheet.html`,
      title: 'OWASP Cross Site Scripting Prevention Cheat Sheet',
      keywords: ['xss', 'cross-site scripting', 'escaping', 'output encoding'],
    },
    {
      url: `${OWASP_CS}/Secrets_Management_Cheat_Sheet.html`,
      title: 'OWASP Secrets Management Cheat Sheet',
      keywords: ['secrets', 'api keys', 'credentials', 'vault', 'configuration'],
    },
    {
      url: `${OWASP_CS}/Logging_Cheat_Sheet.html`,
      title: 'OWASP Logging Cheat Sheet',
      keywords: ['logging', 'audit log', 'monitoring', 'incident'],
    },
    {
      url: `${OWASP_CS}/Threat_Modeling_Cheat_Sheet.html`,
      title: 'OWASP Threat Modeling Cheat Sheet',
      keywords: ['threat model', 'threat modelling', 'threats', 'risk', 'attack'],
    },
    {
      url: `${MDN}/Web/HTTP/CSP`,
      title: 'MDN: Content Security Policy',
      keywords: ['csp', 'content security policy', 'headers', 'xss'],
    },
    {
      url: 'https://www.rfc-editor.org/rfc/rfc6749',
      title: 'RFC 6749: The OAuth 2.0 Authorization Framework',
      keywords: ['oauth', 'authorisation', 'authorization', 'tokens', 'scopes'],
    },
    {
      url: 'https://www.rfc-editor.org/rfc/rfc7519',
      title: 'RFC 7519: JSON Web Token (JWT)',
      keywords: ['jwt', 'json web token', 'token', 'claims', 'signature'],
    },
    {
      url: 'https://cwe.mitre.org/top25/',
      title: 'CWE Top 25 Most Dangerous Software Weaknesses',
      keywords: ['weakness', 'cwe', 'vulnerability', 'audit', 'code review'],
    },
  ],
  general: [
    {
      url: 'https://git-scm.com/book/en/v2',
      title: 'Pro Git (book)',
      keywords: ['git', 'version control', 'commit', 'branch', 'repository', 'set up', 'setup'],
    },
    {
      url: 'https://docs.github.com/en/get-started',
      title: 'GitHub Docs: Get started',
      keywords: ['github', 'repository', 'repo', 'set up', 'setup', 'workspace'],
    },
    {
      url: 'https://git-scm.com/doc',
      title: 'Git documentation',
      keywords: ['git', 'commit', 'branch', 'merge', 'history'],
    },
    {
      url: 'https://docs.github.com/en/repositories/managing-your-repositorys-settings-and-features/customizing-your-repository/about-readmes',
      title: 'GitHub Docs: About READMEs',
      keywords: ['readme', 'documentation', 'docs', 'instructions', 'deliver', 'handover'],
    },
    {
      url: 'https://docs.github.com/en/pull-requests',
      title: 'GitHub Docs: Pull requests',
      keywords: ['pull request', 'code review', 'review', 'feedback', 'submit'],
    },
    {
      url: 'https://www.writethedocs.org/guide/',
      title: 'Write the Docs: Documentation guide',
      keywords: ['documentation', 'docs', 'writing', 'guide', 'explain', 'write-up'],
    },
    {
      url: 'https://developers.google.com/tech-writing',
      title: 'Google: Technical writing courses',
      keywords: [
        'writing',
        'report',
        'technical writing',
        'explain',
        'summary',
        'audience',
        'slides',
        'presentation',
        'stakeholders',
        'non-technical',
        'hand-over note',
      ],
    },
    {
      url: 'https://martinfowler.com/articles/practical-test-pyramid.html',
      title: 'The Practical Test Pyramid',
      keywords: ['test', 'testing', 'unit test', 'integration test', 'test suite', 'verify', 'check'],
    },
    {
      url: 'https://www.conventionalcommits.org/en/v1.0.0/',
      title: 'Conventional Commits',
      keywords: ['commit', 'commit messages', 'changelog', 'release'],
    },
    {
      url: 'https://semver.org/',
      title: 'Semantic Versioning',
      keywords: ['versioning', 'version', 'release', 'changelog'],
    },
  ],
};

/**
 * Neighbouring domains whose entries a playbook may also cite (after its own): each URL is
 * listed once in the catalogue, and a mobile playbook can still reach Material Design.
 */
const RELATED_DOMAINS: Readonly<Record<CatalogueDomain, readonly CatalogueDomain[]>> = {
  'web-development': ['backend', 'design'],
  backend: ['devops', 'security'],
  'data-science': [],
  mobile: ['design'],
  design: ['mobile', 'web-development'],
  devops: ['backend', 'security'],
  security: ['backend'],
  general: [],
};

/** Every URL a playbook may cite. */
export const ALL_TUTORIAL_URLS: ReadonlySet<string> = new Set(
  Object.values(TUTORIAL_CATALOGUE).flatMap((entries) => entries.map((e) => e.url)),
);

// Phrase synonyms first (they are more specific than single words), then single words.
const DOMAIN_SYNONYMS: readonly [CatalogueDomain, readonly string[]][] = [
  [
    'data-science',
    ['data science', 'machine learning', 'data analysis', 'data analytics', 'data engineering'],
  ],
  ['web-development', ['web development', 'web dev', 'front end', 'full stack', 'web design']],
  ['backend', ['back end', 'server side', 'api development']],
  ['design', ['product design', 'user experience', 'interaction design', 'graphic design', 'ux ui', 'ui ux']],
  ['mobile', ['mobile development', 'app development', 'react native']],
  ['devops', ['site reliability', 'platform engineering', 'cloud engineering', 'infrastructure as code']],
  ['security', ['cyber security', 'information security', 'application security']],
  ['web-development', ['web', 'webdev', 'frontend', 'fullstack', 'javascript', 'react', 'html', 'css']],
  ['backend', ['backend', 'api', 'apis', 'server', 'node', 'database', 'databases']],
  ['data-science', ['data', 'ml', 'ai', 'analytics', 'statistics', 'datascience']],
  ['mobile', ['mobile', 'ios', 'android', 'flutter', 'swift', 'kotlin', 'apps']],
  ['design', ['design', 'ux', 'ui', 'uxui', 'research']],
  ['devops', ['devops', 'sre', 'infrastructure', 'cloud', 'ops', 'platform', 'kubernetes', 'docker']],
  ['security', ['security', 'cybersecurity', 'infosec', 'appsec', 'cyber', 'pentest', 'pentesting']],
];

/**
 * Maps a free-form domain ("Web Development", "web", "Frontend", "UX/UI") to a catalogue
 * key. Unknown or empty domains map to `general`.
 */
export function normaliseDomain(domain: string | undefined | null): CatalogueDomain {
  if (!domain) return 'general';
  const slug = domain
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  if ((CATALOGUE_DOMAINS as readonly string[]).includes(slug)) return slug as CatalogueDomain;
  const words = slug.split('-').filter(Boolean);
  const spaced = ` ${words.join(' ')} `;
  for (const [key, synonyms] of DOMAIN_SYNONYMS) {
    if (synonyms.some((s) => spaced.includes(` ${s} `))) return key;
  }
  return 'general';
}

/**
 * The entries a playbook in `domain` may cite, in order of preference: the domain's own list
 * (overviews first), its neighbours' lists, then the general software-practice entries.
 * Unknown domains get the general entries only.
 */
export function catalogueFor(domain: string): readonly TutorialEntry[] {
  const key = normaliseDomain(domain);
  const keys: CatalogueDomain[] = key === 'general' ? ['general'] : [key, ...RELATED_DOMAINS[key], 'general'];
  const seen = new Set<string>();
  const out: TutorialEntry[] = [];
  for (const k of keys) {
    for (const entry of TUTORIAL_CATALOGUE[k]) {
      if (seen.has(entry.url)) continue;
      seen.add(entry.url);
      out.push(entry);
    }
  }
  return out;
}

/** Keyword phrases of a catalogue entry as stem lists, for matching against milestone text. */
export function entryKeywordStems(entry: TutorialEntry): string[][] {
  return entry.keywords.map((k) => contentStems(k)).filter((p) => p.length > 0);
}
