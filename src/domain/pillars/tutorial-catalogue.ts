/**
 * The curated catalogue of tutorial links that playbooks may cite. Only official or
 * long-standing reference documentation on an allow-list of hosts (vendor docs, standards
 * bodies, OWASP, Nielsen Norman Group, Microsoft Support for Excel) — stable pages unlikely to
 * move. A playbook never cites a URL outside this file, and never a page from another field:
 * an Android plan gets no Apple pages and a marketing plan no semver.org. Where no entry fits,
 * a milestone gets no link rather than a wrong one.
 *
 * Entries belong to fields (`FieldKey`) and carry topics; archetypes in the knowledge base name
 * the topics their steps need (see knowledge/fields.ts).
 */
import { FIELD_KEYS, type FieldKey } from './knowledge/fields';
import { contentStems } from './text';

export type TutorialEntry = {
  url: string;
  title: string;
  /** The fields whose playbooks may cite the page. */
  fields: readonly FieldKey[];
  /** What the page teaches, matched against the topics of a milestone's steps. */
  topics: readonly string[];
  /** Words and phrases of the page's subject (for the Workers AI prompt and keyword ranking). */
  keywords: readonly string[];
};

/** The only hosts a catalogue URL may use. */
export const ALLOWED_HOSTS: ReadonlySet<string> = new Set([
  'developer.mozilla.org',
  'web.dev',
  'react.dev',
  'www.typescriptlang.org',
  'vitest.dev',
  'playwright.dev',
  'developers.cloudflare.com',
  'nodejs.org',
  'go.dev',
  'pkg.go.dev',
  'www.rfc-editor.org',
  'spec.openapis.org',
  'www.postgresql.org',
  'www.sqlite.org',
  'cheatsheetseries.owasp.org',
  'owasp.org',
  'martinfowler.com',
  'developer.apple.com',
  'www.swift.org',
  'developer.android.com',
  'kotlinlang.org',
  'support.google.com',
  'm3.material.io',
  'pandas.pydata.org',
  'scikit-learn.org',
  'matplotlib.org',
  'seaborn.pydata.org',
  'docs.jupyter.org',
  'pytorch.org',
  'huggingface.co',
  'www.tensorflow.org',
  'docs.docker.com',
  'kubernetes.io',
  'docs.github.com',
  'developer.hashicorp.com',
  'prometheus.io',
  'opentelemetry.io',
  'sre.google',
  'cwe.mitre.org',
  'www.first.org',
  'www.nngroup.com',
  'help.figma.com',
  'webaim.org',
  'www.w3.org',
  'developers.google.com',
  'www.ftc.gov',
  'support.microsoft.com',
  'www.fast-standard.org',
  'www.writethedocs.org',
  'diataxis.fr',
  'learn.microsoft.com',
  'reactnative.dev',
  'docs.expo.dev',
  'docs.flutter.dev',
  'www.linkedin.com',
  'knowledge.hubspot.com',
]);

/** Catalogue keys are the knowledge base's fields. */
export const CATALOGUE_DOMAINS = FIELD_KEYS;
export type CatalogueDomain = FieldKey;

const MDN = 'https://developer.mozilla.org/en-US/docs';
const OWASP_CS = 'https://cheatsheetseries.owasp.org/cheatsheets';
const SKLEARN = 'https://scikit-learn.org/stable';
const NNG = 'https://www.nngroup.com/articles';
const MS = 'https://support.microsoft.com/en-us/office';
const APPLE = 'https://developer.apple.com';
const ANDROID = 'https://developer.android.com';

type Row = [url: string, title: string, fields: FieldKey[], topics: string[], keywords: string[]];

const ROWS: readonly Row[] = [
  // Web development
  [
    `${MDN}/Learn_web_development`,
    'MDN: Learn web development',
    ['web-development'],
    ['web-basics'],
    ['web', 'html', 'css', 'javascript'],
  ],
  [`${MDN}/Web/HTML`, 'MDN: HTML', ['web-development'], ['layout', 'forms'], ['html', 'semantic', 'markup']],
  [`${MDN}/Web/CSS`, 'MDN: CSS', ['web-development'], ['layout'], ['css', 'grid', 'flexbox', 'layout']],
  [`${MDN}/Web/JavaScript`, 'MDN: JavaScript', ['web-development'], ['web-basics'], ['javascript', 'async']],
  [
    'https://web.dev/learn/forms',
    'web.dev: Learn forms',
    ['web-development'],
    ['forms'],
    ['form', 'validation', 'autocomplete'],
  ],
  [
    'https://web.dev/learn/accessibility',
    'web.dev: Learn accessibility',
    ['web-development'],
    ['accessibility'],
    ['accessibility', 'wcag', 'screen reader'],
  ],
  [
    'https://web.dev/learn/performance',
    'web.dev: Learn performance',
    ['web-development'],
    ['performance'],
    ['performance', 'images', 'fonts'],
  ],
  [
    'https://web.dev/articles/vitals',
    'web.dev: Web Vitals',
    ['web-development'],
    ['performance'],
    ['core web vitals', 'lcp', 'lighthouse'],
  ],
  [
    'https://web.dev/learn/design',
    'web.dev: Learn responsive design',
    ['web-development'],
    ['layout'],
    ['responsive', 'mobile-first'],
  ],
  [
    'https://react.dev/learn',
    'React: Quick start',
    ['web-development'],
    ['components'],
    ['react', 'components', 'state'],
  ],
  [
    'https://www.typescriptlang.org/docs/handbook/intro.html',
    'The TypeScript Handbook',
    ['web-development', 'backend'],
    ['components'],
    ['typescript', 'types'],
  ],
  [
    'https://vitest.dev/guide/',
    'Vitest: Getting started',
    ['web-development', 'backend'],
    ['web-testing'],
    ['unit test', 'vitest'],
  ],
  [
    'https://playwright.dev/docs/intro',
    'Playwright: Installation and first test',
    ['web-development'],
    ['web-testing'],
    ['end-to-end', 'e2e', 'browser test'],
  ],
  [
    'https://developers.cloudflare.com/workers/',
    'Cloudflare Workers documentation',
    ['web-development', 'backend'],
    ['web-deploy'],
    ['deploy', 'serverless', 'edge'],
  ],
  [
    'https://www.w3.org/WAI/WCAG22/quickref/',
    'WCAG 2.2 quick reference',
    ['web-development', 'visual-design'],
    ['accessibility', 'contrast'],
    ['wcag', 'accessibility'],
  ],
  // Backend
  ['https://nodejs.org/en/learn', 'Node.js: Learn', ['backend'], ['http'], ['node', 'server']],
  ['https://pkg.go.dev/net/http', 'Go: package net/http', ['backend'], ['http'], ['go', 'http server']],
  [
    'https://go.dev/doc/tutorial/add-a-test',
    'Go tutorial: Add a test',
    ['backend'],
    ['web-testing'],
    ['go test'],
  ],
  ['https://go.dev/doc/effective_go', 'Effective Go', ['backend'], ['http', 'api-design'], ['go', 'idioms']],
  [
    `${MDN}/Web/HTTP`,
    'MDN: HTTP',
    ['backend', 'web-development'],
    ['http'],
    ['http', 'headers', 'status code'],
  ],
  [
    'https://www.rfc-editor.org/rfc/rfc9110',
    'RFC 9110: HTTP Semantics',
    ['backend'],
    ['http', 'api-design'],
    ['http methods', 'status code'],
  ],
  [
    'https://www.rfc-editor.org/rfc/rfc9457',
    'RFC 9457: Problem Details for HTTP APIs',
    ['backend'],
    ['errors'],
    ['error', 'problem details'],
  ],
  [
    'https://spec.openapis.org/oas/latest.html',
    'OpenAPI Specification',
    ['backend', 'technical-writing'],
    ['api-design', 'api-reference'],
    ['openapi', 'swagger'],
  ],
  [
    'https://www.postgresql.org/docs/current/tutorial.html',
    'PostgreSQL tutorial',
    ['backend'],
    ['database'],
    ['postgresql', 'sql'],
  ],
  [
    'https://www.postgresql.org/docs/current/ddl-constraints.html',
    'PostgreSQL: Constraints',
    ['backend'],
    ['database'],
    ['constraints', 'foreign key'],
  ],
  [
    'https://www.postgresql.org/docs/current/indexes.html',
    'PostgreSQL: Indexes',
    ['backend'],
    ['database'],
    ['index', 'query plan'],
  ],
  [
    'https://www.sqlite.org/lang.html',
    'SQLite: SQL as understood by SQLite',
    ['backend'],
    ['database'],
    ['sqlite', 'sql'],
  ],
  [
    `${OWASP_CS}/Authentication_Cheat_Sheet.html`,
    'OWASP Authentication Cheat Sheet',
    ['backend', 'security'],
    ['auth', 'cheat-sheets'],
    ['authentication', 'login'],
  ],
  [
    `${OWASP_CS}/Password_Storage_Cheat_Sheet.html`,
    'OWASP Password Storage Cheat Sheet',
    ['backend', 'security'],
    ['auth', 'cheat-sheets'],
    ['password', 'hashing', 'argon2'],
  ],
  [
    'https://www.rfc-editor.org/rfc/rfc7519',
    'RFC 7519: JSON Web Token',
    ['backend'],
    ['auth'],
    ['jwt', 'token'],
  ],
  [
    'https://martinfowler.com/articles/practical-test-pyramid.html',
    'The Practical Test Pyramid',
    ['backend', 'web-development'],
    ['web-testing', 'http'],
    ['integration test', 'test pyramid'],
  ],
  // iOS
  [
    `${APPLE}/documentation/swiftui`,
    'Apple: SwiftUI',
    ['mobile-ios'],
    ['ios-basics', 'ios-ui'],
    ['swiftui', 'views'],
  ],
  [
    `${APPLE}/design/human-interface-guidelines`,
    'Apple: Human Interface Guidelines',
    ['mobile-ios', 'visual-design'],
    ['ios-basics', 'ios-ui'],
    ['hig', 'ios design'],
  ],
  [
    `${APPLE}/documentation/xctest`,
    'Apple: XCTest',
    ['mobile-ios'],
    ['ios-testing'],
    ['xctest', 'xcuitest', 'unit test'],
  ],
  [
    `${APPLE}/documentation/accessibility`,
    'Apple: Accessibility',
    ['mobile-ios'],
    ['ios-accessibility'],
    ['voiceover', 'accessibility'],
  ],
  [
    `${APPLE}/design/human-interface-guidelines/accessibility`,
    'Apple HIG: Accessibility',
    ['mobile-ios'],
    ['ios-accessibility'],
    ['dynamic type', 'contrast'],
  ],
  [
    `${APPLE}/app-store/review/guidelines/`,
    'App Store Review Guidelines',
    ['mobile-ios'],
    ['ios-release'],
    ['app store', 'review'],
  ],
  ['https://www.swift.org/documentation/', 'Swift documentation', ['mobile-ios'], ['ios-basics'], ['swift']],
  // Android
  [`${ANDROID}/guide`, 'Android: Developer guides', ['mobile-android'], ['android-basics'], ['android']],
  [
    `${ANDROID}/develop/ui/compose/documentation`,
    'Android: Jetpack Compose',
    ['mobile-android'],
    ['android-basics', 'android-ui'],
    ['compose', 'ui'],
  ],
  [
    `${ANDROID}/topic/architecture`,
    'Android: Guide to app architecture',
    ['mobile-android'],
    ['android-architecture'],
    ['viewmodel', 'architecture'],
  ],
  [
    `${ANDROID}/training/data-storage/room`,
    'Android: Save data with Room',
    ['mobile-android'],
    ['android-architecture'],
    ['room', 'database'],
  ],
  [
    `${ANDROID}/training/testing`,
    'Android: Test apps',
    ['mobile-android'],
    ['android-testing'],
    ['instrumented test', 'espresso'],
  ],
  [
    `${ANDROID}/guide/topics/ui/accessibility`,
    'Android: Accessibility',
    ['mobile-android'],
    ['android-accessibility'],
    ['talkback', 'accessibility'],
  ],
  [
    'https://support.google.com/accessibility/android/answer/6283677',
    'Android Accessibility Help: TalkBack',
    ['mobile-android'],
    ['android-accessibility'],
    ['talkback'],
  ],
  [
    `${ANDROID}/studio/publish`,
    'Android: Publish your app',
    ['mobile-android'],
    ['android-release'],
    ['release', 'play store'],
  ],
  [
    'https://kotlinlang.org/docs/home.html',
    'Kotlin documentation',
    ['mobile-android'],
    ['android-basics'],
    ['kotlin'],
  ],
  [
    'https://m3.material.io/',
    'Material Design 3',
    ['mobile-android', 'visual-design'],
    ['android-ui', 'design-tools'],
    ['material', 'components'],
  ],
  // Cross-platform mobile (React Native, Expo, Flutter)
  [
    'https://reactnative.dev/docs/environment-setup',
    'React Native: Get started',
    ['mobile-cross-platform'],
    ['rn-basics'],
    ['react native', 'expo', 'setup'],
  ],
  [
    'https://docs.expo.dev/get-started/create-a-project/',
    'Expo: Create a project',
    ['mobile-cross-platform'],
    ['rn-basics'],
    ['expo', 'create-expo-app'],
  ],
  [
    'https://reactnative.dev/docs/navigation',
    'React Native: Navigating between screens',
    ['mobile-cross-platform'],
    ['rn-navigation'],
    ['react navigation', 'screens'],
  ],
  [
    'https://docs.expo.dev/router/introduction/',
    'Expo Router: Introduction',
    ['mobile-cross-platform'],
    ['rn-navigation'],
    ['expo router', 'file-based routing'],
  ],
  [
    'https://docs.expo.dev/versions/latest/sdk/sqlite/',
    'Expo SDK: SQLite',
    ['mobile-cross-platform'],
    ['rn-storage'],
    ['sqlite', 'offline storage'],
  ],
  [
    'https://reactnative.dev/docs/testing-overview',
    'React Native: Testing',
    ['mobile-cross-platform'],
    ['rn-testing'],
    ['jest', 'react native testing library', 'e2e'],
  ],
  [
    'https://docs.expo.dev/develop/unit-testing/',
    'Expo: Unit testing with Jest',
    ['mobile-cross-platform'],
    ['rn-testing'],
    ['jest', 'jest-expo'],
  ],
  [
    'https://reactnative.dev/docs/accessibility',
    'React Native: Accessibility',
    ['mobile-cross-platform'],
    ['rn-accessibility'],
    ['accessibilityLabel', 'voiceover', 'talkback'],
  ],
  [
    'https://docs.expo.dev/build/introduction/',
    'Expo: EAS Build',
    ['mobile-cross-platform'],
    ['rn-release'],
    ['eas build', 'app binaries'],
  ],
  [
    'https://reactnative.dev/docs/signed-apk-android',
    'React Native: Publishing to the Google Play Store',
    ['mobile-cross-platform'],
    ['rn-release'],
    ['play store', 'signing'],
  ],
  [
    'https://reactnative.dev/docs/publishing-to-app-store',
    'React Native: Publishing to the Apple App Store',
    ['mobile-cross-platform'],
    ['rn-release'],
    ['app store', 'release build'],
  ],
  [
    'https://docs.flutter.dev/',
    'Flutter documentation',
    ['mobile-cross-platform'],
    ['flutter-basics'],
    ['flutter', 'dart', 'widgets'],
  ],
  [
    'https://docs.flutter.dev/ui/navigation',
    'Flutter: Navigation and routing',
    ['mobile-cross-platform'],
    ['flutter-navigation'],
    ['go_router', 'navigator'],
  ],
  [
    'https://docs.flutter.dev/cookbook/persistence/sqlite',
    'Flutter cookbook: Persist data with SQLite',
    ['mobile-cross-platform'],
    ['flutter-storage'],
    ['sqflite', 'sqlite'],
  ],
  [
    'https://docs.flutter.dev/app-architecture/design-patterns/offline-first',
    'Flutter: Offline-first support',
    ['mobile-cross-platform'],
    ['flutter-storage'],
    ['offline-first', 'repository', 'sync'],
  ],
  [
    'https://docs.flutter.dev/testing/overview',
    'Flutter: Testing Flutter apps',
    ['mobile-cross-platform'],
    ['flutter-testing'],
    ['widget test', 'integration test'],
  ],
  [
    'https://docs.flutter.dev/deployment/android',
    'Flutter: Build and release an Android app',
    ['mobile-cross-platform'],
    ['flutter-release'],
    ['app bundle', 'play store'],
  ],
  [
    'https://docs.flutter.dev/deployment/ios',
    'Flutter: Build and release an iOS app',
    ['mobile-cross-platform'],
    ['flutter-release'],
    ['ipa', 'app store'],
  ],
  // Data science
  [
    'https://pandas.pydata.org/docs/getting_started/index.html',
    'pandas: Getting started',
    ['data-science'],
    ['data-basics'],
    ['pandas', 'dataframe'],
  ],
  [
    'https://pandas.pydata.org/docs/user_guide/missing_data.html',
    'pandas: Working with missing data',
    ['data-science'],
    ['missing-data'],
    ['missing values', 'nan'],
  ],
  [
    'https://docs.jupyter.org/en/latest/',
    'Project Jupyter documentation',
    ['data-science'],
    ['notebook'],
    ['jupyter', 'notebook'],
  ],
  [
    `${SKLEARN}/modules/model_evaluation.html`,
    'scikit-learn: Metrics and scoring',
    ['data-science', 'ml-research'],
    ['model-evaluation', 'evaluation'],
    ['precision', 'recall', 'roc auc', 'metrics'],
  ],
  [
    `${SKLEARN}/modules/cross_validation.html`,
    'scikit-learn: Cross-validation',
    ['data-science'],
    ['cross-validation'],
    ['cross-validation', 'hyperparameter'],
  ],
  [
    `${SKLEARN}/common_pitfalls.html`,
    'scikit-learn: Common pitfalls',
    ['data-science'],
    ['pitfalls', 'preprocessing'],
    ['leakage', 'pipeline'],
  ],
  [
    `${SKLEARN}/modules/preprocessing.html`,
    'scikit-learn: Preprocessing data',
    ['data-science'],
    ['preprocessing'],
    ['scaling', 'encoding'],
  ],
  [
    'https://matplotlib.org/stable/users/index.html',
    'Matplotlib: User guide',
    ['data-science'],
    ['visualisation'],
    ['chart', 'plot'],
  ],
  [
    'https://seaborn.pydata.org/tutorial.html',
    'seaborn: Tutorial',
    ['data-science'],
    ['visualisation'],
    ['statistical plots'],
  ],
  // ML research
  [
    'https://pytorch.org/tutorials/',
    'PyTorch tutorials',
    ['ml-research'],
    ['ml-basics', 'training'],
    ['pytorch', 'training loop'],
  ],
  [
    'https://pytorch.org/docs/stable/notes/randomness.html',
    'PyTorch: Reproducibility',
    ['ml-research'],
    ['reproducibility'],
    ['seeds', 'determinism'],
  ],
  [
    'https://huggingface.co/docs/transformers/index',
    'Hugging Face Transformers',
    ['ml-research'],
    ['training'],
    ['transformers', 'fine-tune'],
  ],
  [
    'https://huggingface.co/docs/datasets/index',
    'Hugging Face Datasets',
    ['ml-research'],
    ['datasets'],
    ['dataset', 'splits'],
  ],
  [
    'https://huggingface.co/docs/evaluate/index',
    'Hugging Face Evaluate',
    ['ml-research'],
    ['evaluation'],
    ['metrics', 'evaluation'],
  ],
  [
    'https://www.tensorflow.org/tutorials',
    'TensorFlow tutorials',
    ['ml-research'],
    ['ml-basics'],
    ['tensorflow', 'keras'],
  ],
  // DevOps
  [
    'https://docs.docker.com/get-started/',
    'Docker: Get started',
    ['devops'],
    ['containers'],
    ['docker', 'container'],
  ],
  [
    'https://docs.docker.com/build/building/best-practices/',
    'Docker: Building best practices',
    ['devops'],
    ['containers'],
    ['dockerfile', 'multi-stage'],
  ],
  [
    'https://kubernetes.io/docs/concepts/workloads/controllers/deployment/',
    'Kubernetes: Deployments',
    ['devops'],
    ['kubernetes'],
    ['deployment', 'rollout'],
  ],
  [
    'https://kubernetes.io/docs/tasks/configure-pod-container/configure-liveness-readiness-startup-probes/',
    'Kubernetes: Probes',
    ['devops'],
    ['kubernetes'],
    ['readiness', 'liveness'],
  ],
  [
    'https://docs.github.com/en/actions',
    'GitHub Actions documentation',
    ['devops'],
    ['ci'],
    ['ci', 'workflow', 'pipeline'],
  ],
  [
    'https://developer.hashicorp.com/terraform/tutorials',
    'Terraform tutorials',
    ['devops'],
    ['iac'],
    ['terraform', 'infrastructure as code'],
  ],
  [
    'https://prometheus.io/docs/introduction/overview/',
    'Prometheus: Overview',
    ['devops'],
    ['observability'],
    ['metrics', 'alerting'],
  ],
  [
    'https://opentelemetry.io/docs/',
    'OpenTelemetry documentation',
    ['devops'],
    ['observability'],
    ['tracing', 'observability'],
  ],
  [
    'https://sre.google/sre-book/service-level-objectives/',
    'Google SRE book: Service Level Objectives',
    ['devops'],
    ['observability'],
    ['slo', 'sli'],
  ],
  [
    'https://sre.google/sre-book/monitoring-distributed-systems/',
    'Google SRE book: Monitoring distributed systems',
    ['devops'],
    ['observability'],
    ['monitoring', 'alerts'],
  ],
  // Security
  [
    'https://owasp.org/www-project-top-ten/',
    'OWASP Top 10',
    ['security'],
    ['security-basics'],
    ['owasp', 'top 10'],
  ],
  [
    'https://owasp.org/www-project-application-security-verification-standard/',
    'OWASP ASVS',
    ['security'],
    ['security-basics', 'cheat-sheets'],
    ['asvs', 'verification'],
  ],
  [
    'https://owasp.org/www-project-web-security-testing-guide/',
    'OWASP Web Security Testing Guide',
    ['security'],
    ['testing-guide'],
    ['wstg', 'penetration test'],
  ],
  [
    `${OWASP_CS}/Threat_Modeling_Cheat_Sheet.html`,
    'OWASP Threat Modeling Cheat Sheet',
    ['security'],
    ['threat-modelling'],
    ['threat model', 'stride'],
  ],
  [
    `${OWASP_CS}/Cross_Site_Scripting_Prevention_Cheat_Sheet.html`,
    'OWASP XSS Prevention Cheat Sheet',
    ['security'],
    ['cheat-sheets'],
    ['xss'],
  ],
  [
    `${OWASP_CS}/Input_Validation_Cheat_Sheet.html`,
    'OWASP Input Validation Cheat Sheet',
    ['security', 'backend'],
    ['cheat-sheets', 'errors'],
    ['input validation'],
  ],
  [`${MDN}/Web/HTTP/CSP`, 'MDN: Content Security Policy', ['security'], ['cheat-sheets'], ['csp', 'headers']],
  ['https://www.first.org/cvss/', 'FIRST: CVSS', ['security'], ['scoring'], ['cvss', 'severity']],
  ['https://cwe.mitre.org/top25/', 'CWE Top 25', ['security'], ['security-basics'], ['cwe', 'weaknesses']],
  // UX research
  [
    `${NNG}/which-ux-research-methods/`,
    'NN/g: When to use which UX research methods',
    ['ux-research'],
    ['research-methods'],
    ['research methods'],
  ],
  [`${NNG}/interviewing-users/`, 'NN/g: Interviewing users', ['ux-research'], ['interviews'], ['interview']],
  [
    `${NNG}/usability-testing-101/`,
    'NN/g: Usability testing 101',
    ['ux-research'],
    ['usability-testing'],
    ['usability test'],
  ],
  [
    `${NNG}/why-you-only-need-to-test-with-5-users/`,
    'NN/g: Why you only need to test with 5 users',
    ['ux-research'],
    ['usability-testing'],
    ['participants'],
  ],
  [
    `${NNG}/affinity-diagram/`,
    'NN/g: Affinity diagramming',
    ['ux-research'],
    ['synthesis'],
    ['affinity', 'synthesis'],
  ],
  [`${NNG}/persona/`, 'NN/g: Personas', ['ux-research'], ['synthesis'], ['persona']],
  [
    `${NNG}/journey-mapping-101/`,
    'NN/g: Journey mapping 101',
    ['ux-research'],
    ['synthesis'],
    ['journey map'],
  ],
  [
    `${NNG}/card-sorting-definition/`,
    'NN/g: Card sorting',
    ['ux-research'],
    ['research-methods'],
    ['card sort'],
  ],
  [
    `${NNG}/ten-usability-heuristics/`,
    'NN/g: 10 usability heuristics',
    ['ux-research', 'visual-design'],
    ['usability-testing', 'design-tools'],
    ['heuristics'],
  ],
  // Visual design
  [
    'https://help.figma.com/hc/en-us',
    'Figma Help Center',
    ['visual-design'],
    ['design-tools'],
    ['figma', 'components', 'prototype'],
  ],
  [
    'https://m3.material.io/styles/color/overview',
    'Material 3: Color',
    ['visual-design'],
    ['colour'],
    ['colour', 'palette'],
  ],
  [
    'https://m3.material.io/styles/typography/overview',
    'Material 3: Typography',
    ['visual-design'],
    ['typography'],
    ['type scale'],
  ],
  [
    'https://webaim.org/resources/contrastchecker/',
    'WebAIM: Contrast checker',
    ['visual-design', 'web-development'],
    ['contrast', 'accessibility'],
    ['contrast'],
  ],
  [
    'https://www.w3.org/WAI/tips/designing/',
    'W3C WAI: Designing for web accessibility',
    ['visual-design'],
    ['contrast', 'design-tools'],
    ['accessible design'],
  ],
  // Marketing and copywriting
  [
    'https://developers.google.com/search/docs/fundamentals/seo-starter-guide',
    'Google Search Central: SEO starter guide',
    ['marketing', 'content-writing'],
    ['seo'],
    ['seo', 'search'],
  ],
  [
    'https://developers.google.com/search/docs/appearance/title-link',
    'Google Search Central: Title links',
    ['marketing', 'content-writing'],
    ['seo'],
    ['title tag', 'headline'],
  ],
  [
    `${NNG}/how-users-read-on-the-web/`,
    'NN/g: How users read on the web',
    ['marketing', 'technical-writing', 'content-writing'],
    ['web-writing'],
    ['scanning', 'web copy'],
  ],
  [
    `${NNG}/concise-scannable-and-objective-how-to-write-for-the-web/`,
    'NN/g: Concise, scannable and objective writing',
    ['marketing', 'content-writing'],
    ['web-writing'],
    ['copy', 'web writing'],
  ],
  [
    'https://support.google.com/analytics/answer/1033863',
    'Google Analytics: Campaign URLs (UTM)',
    ['marketing'],
    ['analytics'],
    ['utm', 'campaign tracking'],
  ],
  [
    `${NNG}/putting-ab-testing-in-its-place/`,
    'NN/g: Putting A/B testing in its place',
    ['marketing'],
    ['analytics'],
    ['a/b test'],
  ],
  [
    'https://www.ftc.gov/business-guidance/advertising-marketing',
    'FTC: Advertising and marketing guidance',
    ['marketing'],
    ['advertising-rules'],
    ['claims', 'endorsements'],
  ],
  [
    'https://www.w3.org/WAI/tips/writing/',
    'W3C WAI: Writing for web accessibility',
    ['marketing', 'technical-writing', 'content-writing'],
    ['web-writing', 'style-guides', 'readability'],
    ['plain language'],
  ],
  [
    'https://support.google.com/google-ads/answer/7337243',
    'Google Ads Help: Use Keyword Planner',
    ['marketing', 'content-writing'],
    ['keyword-research'],
    ['keyword research', 'search volume'],
  ],
  // Content and editorial writing
  [
    'https://developers.google.com/search/docs/fundamentals/creating-helpful-content',
    'Google Search Central: Creating helpful, reliable, people-first content',
    ['content-writing'],
    ['content-quality'],
    ['helpful content', 'expertise', 'sources'],
  ],
  [
    'https://developers.google.com/search/docs/essentials/spam-policies',
    'Google Search Central: Spam policies (scraped and copied content)',
    ['content-writing'],
    ['content-quality'],
    ['scraped content', 'plagiarism', 'originality'],
  ],
  [
    `${MS}/get-your-document-s-readability-and-level-statistics-85b4969e-e80a-4777-8dd3-f7fc3c8b3fd2`,
    "Microsoft Support: Get your document's readability statistics (Flesch)",
    ['content-writing'],
    ['readability'],
    ['flesch reading ease', 'readability'],
  ],
  // B2B sales
  [
    'https://www.linkedin.com/help/sales-navigator',
    'LinkedIn Sales Navigator Help',
    ['sales'],
    ['prospecting'],
    ['account search', 'lead lists', 'prospecting'],
  ],
  [
    'https://www.ftc.gov/business-guidance/resources/can-spam-act-compliance-guide-business',
    'FTC: CAN-SPAM Act compliance guide for business',
    ['sales'],
    ['outreach-compliance'],
    ['can-spam', 'opt-out', 'commercial email'],
  ],
  // The field's own tools, not general pages: a sales plan links its CRM's sequences and deal
  // pipeline, not a privacy regulation's text or a mail administrator's console (issue 53).
  [
    'https://knowledge.hubspot.com/sequences/create-and-edit-sequences',
    'HubSpot Knowledge Base: Create and edit sequences',
    ['sales'],
    ['deliverability', 'outreach-compliance'],
    ['sequence', 'follow-up', 'unenrol on reply', 'send limits'],
  ],
  [
    'https://knowledge.hubspot.com/object-settings/set-up-and-customize-your-deal-pipelines-and-deal-stages',
    'HubSpot Knowledge Base: Deal pipelines and deal stages',
    ['sales'],
    ['forecasting', 'prospecting'],
    ['deal stages', 'pipeline', 'win probability'],
  ],
  [
    `${MS}/create-a-forecast-in-excel-for-windows-22c500da-6da7-45e5-bfdc-60a7062329fd`,
    'Microsoft Support: Create a forecast in Excel',
    ['sales'],
    ['forecasting'],
    ['forecast sheet', 'pipeline forecast'],
  ],
  [
    `${MS}/introduction-to-what-if-analysis-22bffa5f-e891-4acc-bf7a-e4645c446fb4`,
    'Microsoft Support: Introduction to what-if analysis',
    ['sales'],
    ['forecasting'],
    ['scenarios', 'assumptions', 'what-if'],
  ],
  // Finance and spreadsheets
  [
    `${MS}/overview-of-formulas-in-excel-ecfdc708-9162-49e8-b993-c311f47ca173`,
    'Microsoft Support: Overview of formulas in Excel',
    ['finance'],
    ['spreadsheet-basics', 'formulas'],
    ['formulas', 'references'],
  ],
  [
    `${MS}/xlookup-function-b7fd680e-6d10-43e6-84f9-88eae8bf5929`,
    'Microsoft Support: XLOOKUP',
    ['finance'],
    ['formulas'],
    ['xlookup', 'lookup'],
  ],
  [
    `${MS}/create-a-pivottable-to-analyze-worksheet-data-a9a84538-bfe9-40a9-a8e9-f99134456576`,
    'Microsoft Support: Create a PivotTable',
    ['finance'],
    ['pivot'],
    ['pivottable', 'summary'],
  ],
  [
    `${MS}/npv-function-8672cb67-2576-4d07-b67b-ac28acf2a568`,
    'Microsoft Support: NPV',
    ['finance'],
    ['valuation-functions'],
    ['npv', 'discount rate'],
  ],
  [
    `${MS}/irr-function-64925eaa-9988-495b-b290-3ad0c163c1bc`,
    'Microsoft Support: IRR',
    ['finance'],
    ['valuation-functions'],
    ['irr'],
  ],
  [
    `${MS}/apply-data-validation-to-cells-29fecbcc-d1b9-42c1-9d76-eff3ce5f7249`,
    'Microsoft Support: Data validation',
    ['finance'],
    ['validation'],
    ['data validation', 'inputs'],
  ],
  [
    `${MS}/define-and-use-names-in-formulas-4d0f13ac-53b7-422e-afd2-abd7ff379c64`,
    'Microsoft Support: Names in formulas',
    ['finance'],
    ['formulas', 'what-if'],
    ['named ranges'],
  ],
  [
    'https://support.google.com/docs/table/25273',
    'Google Sheets function list',
    ['finance'],
    ['spreadsheet-basics', 'formulas'],
    ['google sheets', 'functions'],
  ],
  [
    'https://www.fast-standard.org/',
    'The FAST Standard for financial models',
    ['finance'],
    ['modelling-standards', 'what-if'],
    ['financial model', 'best practice'],
  ],
  // Technical writing
  [
    'https://developers.google.com/tech-writing',
    'Google: Technical writing courses',
    ['technical-writing'],
    ['docs-basics'],
    ['technical writing'],
  ],
  [
    'https://developers.google.com/style',
    'Google developer documentation style guide',
    ['technical-writing'],
    ['style-guides'],
    ['style guide', 'voice'],
  ],
  [
    'https://learn.microsoft.com/en-us/style-guide/welcome/',
    'Microsoft Writing Style Guide',
    ['technical-writing'],
    ['style-guides'],
    ['style guide', 'terminology'],
  ],
  [
    'https://diataxis.fr/',
    'Diátaxis: a systematic approach to documentation',
    ['technical-writing'],
    ['docs-structure'],
    ['tutorial', 'how-to', 'reference', 'explanation'],
  ],
  [
    'https://www.writethedocs.org/guide/',
    'Write the Docs: Documentation guide',
    ['technical-writing'],
    ['docs-basics', 'readme'],
    ['documentation'],
  ],
  [
    'https://docs.github.com/en/repositories/managing-your-repositorys-settings-and-features/customizing-your-repository/about-readmes',
    'GitHub Docs: About READMEs',
    ['technical-writing'],
    ['readme'],
    ['readme'],
  ],
];

export const TUTORIAL_ENTRIES: readonly TutorialEntry[] = ROWS.map(
  ([url, title, fields, topics, keywords]) => ({
    url,
    title,
    fields,
    topics,
    keywords,
  }),
);

/** The entries of each field, in catalogue order. `unknown` has none: no field, no link. */
export const TUTORIAL_CATALOGUE: Readonly<Record<FieldKey, readonly TutorialEntry[]>> = (() => {
  const out = {} as Record<FieldKey, TutorialEntry[]>;
  for (const key of FIELD_KEYS) out[key] = TUTORIAL_ENTRIES.filter((e) => e.fields.includes(key));
  return out;
})();

/** Every URL a playbook may cite. */
export const ALL_TUTORIAL_URLS: ReadonlySet<string> = new Set(TUTORIAL_ENTRIES.map((e) => e.url));

/** The entries a playbook in a field may cite; nothing from any other field. */
export function catalogueFor(field: FieldKey): readonly TutorialEntry[] {
  return TUTORIAL_CATALOGUE[field];
}

/**
 * Up to `max` links of `field` for the given topics, in the order the topics are given
 * (the first topic is the most specific), skipping `used` URLs while fresh ones remain.
 */
export function linksFor(
  field: FieldKey,
  topics: readonly string[],
  used: ReadonlySet<string> = new Set(),
  max = 3,
  languages?: ReadonlySet<string>,
): string[] {
  const entries = catalogueFor(field).filter((e) => !languages || fitsLanguages(e.url, languages));
  const ranked: string[] = [];
  for (const topic of topics)
    for (const e of entries) if (e.topics.includes(topic) && !ranked.includes(e.url)) ranked.push(e.url);
  const fresh = ranked.filter((u) => !used.has(u));
  return (fresh.length > 0 ? fresh : ranked).slice(0, max);
}

/** Programming languages whose material only fits a brief in that language, by host. */
const LANGUAGE_OF_HOST: Readonly<Record<string, string>> = {
  'nodejs.org': 'javascript',
  'www.typescriptlang.org': 'javascript',
  'vitest.dev': 'javascript',
  'react.dev': 'javascript',
  'playwright.dev': 'javascript',
  'go.dev': 'go',
  'pkg.go.dev': 'go',
  'pandas.pydata.org': 'python',
  'scikit-learn.org': 'python',
  'seaborn.pydata.org': 'python',
  'matplotlib.org': 'python',
  'docs.jupyter.org': 'python',
  'pytorch.org': 'python',
  'www.tensorflow.org': 'python',
};
/** Languages a brief that names none gets material for: what the catalogue has always assumed. */
const DEFAULT_LANGUAGES: ReadonlySet<string> = new Set(['javascript', 'python']);

/** The language a catalogue URL's material is written for, or null when it holds for any. */
export function languageOfUrl(url: string): string | null {
  return LANGUAGE_OF_HOST[new URL(url).host] ?? null;
}

const LANGUAGE_NAMES: readonly [string, RegExp][] = [
  [
    'go',
    /\bgolang\b|\bgo test\b|\bnet\/http\b|\b(?:in|with|using|written in) Go\b|\bGo (?:\d|(?:[a-z-]+ )?(?:service|server|worker|module|http|api|program|cli|code|backend|microservice|proxy|gateway|library|binary|tool|daemon))|^go$/im,
  ],
  ['rust', /\brust\b|\bcargo\b/i],
  ['python', /\bpython\b|\bdjango\b|\bflask\b|\bfastapi\b|\bpandas\b|\bjupyter\b/i],
  [
    'javascript',
    /\bjavascript\b|\btypescript\b|\bnode(?:\.js|js)?\b|\breact\b|\bnext\.js\b|\bexpress\b|\bdeno\b|\bbun\b/i,
  ],
  ['java', /\bjava\b|\bspring boot\b/i],
  ['csharp', /\bc#|\.net\b|\basp\.net\b/i],
  ['php', /\bphp\b|\blaravel\b/i],
  ['ruby', /\bruby\b|\brails\b/i],
  ['kotlin', /\bkotlin\b/i],
  ['swift', /\bswift(?:ui)?\b/i],
  ['c', /\besp-idf\b|\bin C\b|\bC\+\+/],
];

/** The programming languages a brief names. */
export function languagesNamed(text: string): Set<string> {
  return new Set(LANGUAGE_NAMES.filter(([, re]) => re.test(text)).map(([name]) => name));
}

/**
 * Whether a link fits a brief naming these languages: material for one language fits only a
 * brief in that language (a Go service gets no Node.js links); a brief naming none gets what
 * the catalogue assumes by default.
 */
export function fitsLanguages(url: string, named: ReadonlySet<string>): boolean {
  const language = languageOfUrl(url);
  if (language === null) return true;
  return named.size > 0 ? named.has(language) : DEFAULT_LANGUAGES.has(language);
}

/** Keyword phrases of a catalogue entry as stem lists. */
export function entryKeywordStems(entry: TutorialEntry): string[][] {
  return entry.keywords.map((k) => contentStems(k)).filter((p) => p.length > 0);
}
