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
  'mobile-cross-platform',
  'data-science',
  'ml-research',
  'devops',
  'security',
  'ux-research',
  'visual-design',
  'marketing',
  'content-writing',
  'sales',
  'finance',
  'technical-writing',
  'unknown',
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

/**
 * A way of working inside a field that the brief's own words switch on: an analysis brief and
 * a modelling brief are both data science, but only the second gets train/test splits and a
 * baseline; a Flutter app is planned with Dart tools, a React Native one with JavaScript tools.
 * Its members replace the field's; its archetypes replace those of the same key (or are added).
 */
export type FieldVariant = {
  key: string;
  /** Phrases in the brief's title, deliverables or criteria that switch the variant on. */
  when: readonly string[];
  setup?: readonly string[];
  habit?: string;
  check?: string;
  integrate?: readonly string[];
  setupTopics?: readonly string[];
  archetypes?: readonly DeliverableArchetype[];
  fallback?: readonly string[];
  guidance?: string;
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
  /** Ways of working the brief's words switch on (see `FieldVariant`). */
  variants?: readonly FieldVariant[];
  /**
   * Names so specific to this field that a brief using them belongs here even when its domain
   * names one of `fields` ("React Native" in a brief whose domain says "Android").
   */
  supersedes?: { fields: readonly FieldKey[]; when: readonly string[] };
};

/**
 * How a success criterion is checked, chosen by what the criterion is about rather than by the
 * field alone: "Charts are labelled" is checked by reviewing the charts, "Flesch reading ease
 * above 60" with a readability tool, whatever the field. `fields` limits a rule to the fields
 * where its method fits; without it the rule holds everywhere (also in `general`).
 */
export type CriterionCheck = {
  key: string;
  fields?: readonly FieldKey[];
  /** Words and phrases of the criterion that call for this method. */
  match: readonly string[];
  /** How it is checked: "Check “…” {check}". */
  check: string;
};

/** What names each kind of cross-platform deliverable, shared by the React Native plan and its Flutter variant. */
const CROSS_PLATFORM_MATCH = {
  app: [
    'app',
    'apps',
    'mobile app',
    'android and ios',
    'ios and android',
    'screen',
    'screens',
    'ui',
    'feature',
    'onboarding',
  ],
  offline: [
    'offline',
    'offline storage',
    'sync',
    'synchronisation',
    'synchronization',
    'local storage',
    'storage',
    'cache',
    'persistence',
    'database',
  ],
  tests: ['tests', 'test', 'unit tests', 'test suite', 'testing', 'e2e', 'end-to-end'],
  release: ['release', 'app store', 'play store', 'testflight', 'store listing', 'publish', 'submission'],
  accessibility: ['accessibility', 'accessible', 'a11y', 'voiceover', 'talkback', 'screen reader'],
} as const;

/** What names the data-cleaning and notebook deliverables, shared by the data-analysis plan and its modelling variant. */
const DATA_MATCH = {
  cleaning: [
    'clean',
    'cleaning',
    'missing',
    'outliers',
    'data quality',
    'data dictionary',
    'pipeline',
    'etl',
    'preprocessing',
  ],
  notebook: ['notebook', 'jupyter', 'code'],
} as const;
const DATA_DICTIONARY_STEP =
  "Write a data dictionary for {d}: each column's meaning, type, unit, allowed values and source";
const SEEDS_STEP = 'Fix random seeds in {d} and record library versions';

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
    variants: [
      {
        // A command-line tool written in JavaScript or TypeScript has no browser and no pages
        // (issue 55): it is planned as a command, its flags, its output and its exit codes.
        key: 'command-line',
        when: ['command-line', 'command line', 'cli', 'shell script', 'npx'],
        setup: [
          'Scaffold the package with a bin entry, an argument parser, a linter and a test runner, and check the command runs from a terminal',
          'Write the usage text first: commands, flags, defaults, what goes to stdout and stderr, and the exit codes',
        ],
        habit:
          'Keep the main branch releasable: small commits, each with a test that runs the command on a fixture and checks its output and exit code',
        check:
          'by running the command on fixtures from a terminal, with an automated test that asserts its output and exit code',
        integrate: [
          'Install the packed tarball (npm pack) in an empty directory and run every documented example from the README',
          'Run the command on a malformed input, an empty input and the largest expected input, and check the messages and exit codes',
        ],
        setupTopics: ['web-testing'],
        archetypes: [
          {
            key: 'cli-tool',
            match: ['cli', 'command-line', 'command line', 'tool', 'script', 'converter'],
            steps: [
              'Parse the arguments of {d} with clear errors for unknown flags and a --help that matches the README',
              'Stream the input of {d} rather than reading it whole, so large files stay within memory',
              'Write the output of {d} to stdout and every diagnostic to stderr, and exit non-zero on any failure',
              'Test {d} end to end on fixture files: the happy path, malformed rows and an empty file',
            ],
            topics: ['web-testing'],
          },
          {
            key: 'cli-docs',
            match: ['readme', 'usage', 'documentation', 'docs', 'man page'],
            steps: [
              'Write {d} from the usage text: installation, every flag with an example, and the exit codes',
              'Run every example in {d} as written, and paste its real output',
            ],
            topics: [],
          },
        ],
      },
    ],
  },
  {
    key: 'backend',
    name: 'Backend and APIs',
    domains: [
      'backend',
      'back end',
      'api',
      'apis',
      'server',
      'server side',
      'node',
      'database',
      'golang',
      'go backend',
      'go service',
      'rust backend',
      'rust service',
      'microservices',
    ],
    vocabulary: [
      'api',
      'microservices',
      'golang',
      'reverse proxy',
      'redis',
      'grpc',
      'fastapi',
      // The framework, never a laboratory's conical flask: only in a phrase that says so.
      'flask app',
      'flask api',
      'flask service',
      'flask backend',
      'django',
      'axum',
      'actix',
      'spring boot',
      'rate limiting',
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
        // A test suite handed over as a deliverable: the tests themselves, not a service to build.
        key: 'test-suite',
        match: [
          'integration tests',
          'test suite',
          'go test',
          'pytest',
          'cargo test',
          'unit tests',
          'contract tests',
        ],
        steps: [
          'Write {d} against a real database started for the suite: success, invalid input and failure paths of every route or message',
          'Run {d} in CI on every change, and keep them fast enough that nobody skips them',
        ],
        topics: ['web-testing'],
      },
      {
        // A service's benchmarks measure its latency and throughput; they are not an ML
        // benchmark dataset to check for contamination.
        key: 'benchmark',
        match: [
          'benchmark',
          'benchmarks',
          'load test',
          'load tests',
          'load testing',
          'performance test',
          'stress test',
        ],
        steps: [
          "Run {d} against a production-like build and database, with the brief's latency and throughput targets as pass/fail thresholds",
          'Record the results of {d} (p50, p99, throughput) with the commit and machine they ran on, so a regression shows',
        ],
        topics: ['web-testing'],
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
    key: 'mobile-cross-platform',
    name: 'Cross-platform mobile development',
    domains: [
      'react native',
      'expo',
      'flutter',
      'dart',
      'cross platform',
      'cross platform mobile',
      'cross platform app',
      'hybrid app',
    ],
    vocabulary: [
      'react native',
      'expo',
      'flutter',
      'dart',
      'cross platform',
      'android and ios',
      'ios and android',
      'both platforms',
      'asyncstorage',
      'watermelondb',
      'eas build',
    ],
    setup: [
      'Create the app with Expo (or the React Native CLI when a native module needs it) in TypeScript, with ESLint and Jest, and run it on an iOS simulator and an Android emulator',
      'Sketch the screens and the navigation (stacks and tabs with React Navigation or Expo Router), and decide where data lives: on the device, on the server, and how the two sync',
    ],
    habit:
      'Try every change on both iOS and Android before committing, and keep platform-specific code behind Platform checks or .ios/.android files',
    check:
      'on both an iOS and an Android device, with a Jest or React Native Testing Library test where it can be scripted',
    integrate: [
      'Build release binaries for both platforms (EAS Build, or Xcode and Gradle) and install them on real devices',
      'Walk through every flow on both platforms, offline and online, with VoiceOver and TalkBack, and fix what breaks',
    ],
    setupTopics: ['rn-basics', 'rn-navigation'],
    archetypes: [
      {
        key: 'rn-app',
        match: CROSS_PLATFORM_MATCH.app,
        steps: [
          'Build the screens of {d} as typed function components with React Navigation or Expo Router, one code base for iOS and Android',
          'Keep the state of {d} in hooks or a small store, with loading, empty and error states on every screen',
          'Handle what differs between the platforms in {d}: safe areas, the Android back button, the keyboard and permission prompts',
          "Test {d} with Jest and React Native Testing Library for each screen's states, and run it on both platforms",
        ],
        topics: ['rn-navigation', 'rn-testing'],
      },
      {
        key: 'rn-offline',
        match: CROSS_PLATFORM_MATCH.offline,
        steps: [
          'Store the data of {d} on the device in SQLite (expo-sqlite or WatermelonDB) as the source of truth, keeping AsyncStorage for small settings',
          'Queue every local change in {d} with an id and a timestamp, and replay the queue when NetInfo reports the device back online',
          'Choose the conflict rule of {d} (last write wins per field, or the server wins and the user merges) and test it with edits from two devices',
          'Show the sync state in {d}: pending changes, the last successful sync and a retry after a failure',
        ],
        topics: ['rn-storage'],
      },
      {
        key: 'rn-tests',
        match: CROSS_PLATFORM_MATCH.tests,
        steps: [
          'Write {d} with Jest for the logic (sync queue, conflict rule, formatting) and React Native Testing Library for the screens',
          'Mock the native modules (storage, network status) in {d} so the suite runs in CI without a device',
          'Add one end-to-end run of the main flow on both platforms with Detox or Maestro, and run {d} on every push',
        ],
        topics: ['rn-testing'],
      },
      {
        key: 'rn-release',
        match: CROSS_PLATFORM_MATCH.release,
        steps: [
          'Set the app icons, splash screen, bundle identifiers and signing of {d} for both platforms',
          'Build {d} with EAS Build (or Xcode and Gradle) and ship it to TestFlight and a Play internal testing track',
        ],
        topics: ['rn-release'],
      },
      {
        key: 'rn-accessibility',
        match: CROSS_PLATFORM_MATCH.accessibility,
        steps: [
          'Give every control in {d} an accessibilityLabel and accessibilityRole, and hide decorative elements',
          'Check {d} with VoiceOver and TalkBack and at the largest font size on both platforms',
        ],
        topics: ['rn-accessibility'],
      },
    ],
    fallback: [
      'Design {d} once for both platforms and note where iOS and Android must differ',
      'Implement {d} in TypeScript with Jest tests, and try it on both platforms',
    ],
    guidance:
      'Plan like a senior React Native engineer: one TypeScript code base for iOS and Android with Expo or the React Native CLI, screens with React Navigation or Expo Router, offline-first storage in SQLite (expo-sqlite, WatermelonDB) with AsyncStorage only for small settings, a sync queue replayed on reconnect (NetInfo) with an explicit conflict rule, Jest and React Native Testing Library, Detox or Maestro end to end, every flow tried on both platforms with VoiceOver and TalkBack, EAS Build, TestFlight and Play testing tracks. Never prescribe native-only tooling (Jetpack Compose, Room, SwiftUI, SwiftData) for a cross-platform brief.',
    variants: [
      {
        key: 'flutter',
        when: ['flutter', 'dart'],
        setup: [
          'Create the app with flutter create, switch on the flutter_lints rules and run it on an iOS simulator and an Android emulator',
          'Sketch the screens and the navigation (go_router or Navigator), and decide where data lives: on the device, on the server, and how the two sync',
        ],
        habit:
          'Run flutter analyze and flutter test, and try every change on both iOS and Android before committing',
        check:
          'on both an iOS and an Android device, with a widget or integration test where it can be scripted',
        integrate: [
          'Build release binaries with flutter build appbundle and flutter build ipa, and install them on real devices',
          'Walk through every flow on both platforms, offline and online, with VoiceOver and TalkBack, and fix what breaks',
        ],
        setupTopics: ['flutter-basics', 'flutter-navigation'],
        archetypes: [
          {
            key: 'rn-app',
            match: CROSS_PLATFORM_MATCH.app,
            steps: [
              'Build the screens of {d} as widgets with go_router navigation and a view model per screen, one code base for iOS and Android',
              'Give every screen of {d} its loading, empty and error states',
              'Handle what differs between the platforms in {d}: safe areas, Android back navigation, keyboard insets and permission prompts',
              "Test {d} with widget tests for each screen's states, and run it on both platforms",
            ],
            topics: ['flutter-navigation', 'flutter-testing'],
          },
          {
            key: 'rn-offline',
            match: CROSS_PLATFORM_MATCH.offline,
            steps: [
              'Store the data of {d} on the device in SQLite (sqflite or drift) behind a repository that is the source of truth, keeping shared_preferences for small settings',
              'Queue every local change in {d} with an id and a timestamp, and replay the queue when connectivity_plus reports the device back online',
              'Choose the conflict rule of {d} (last write wins per field, or the server wins and the user merges) and test it with edits from two devices',
              'Show the sync state in {d}: pending changes, the last successful sync and a retry after a failure',
            ],
            topics: ['flutter-storage'],
          },
          {
            key: 'rn-tests',
            match: CROSS_PLATFORM_MATCH.tests,
            steps: [
              'Write {d} with flutter_test: unit tests for the logic (sync queue, conflict rule) and widget tests for the screens',
              'Fake the repositories in {d} so the suite runs in CI without a device',
              'Add an integration_test run of the main flow on both platforms, and run {d} on every push',
            ],
            topics: ['flutter-testing'],
          },
          {
            key: 'rn-release',
            match: CROSS_PLATFORM_MATCH.release,
            steps: [
              'Set the app icons, splash screen, bundle identifiers and signing of {d} for both platforms',
              'Build {d} with flutter build and ship it to TestFlight and a Play internal testing track',
            ],
            topics: ['flutter-release'],
          },
          {
            key: 'rn-accessibility',
            match: CROSS_PLATFORM_MATCH.accessibility,
            steps: [
              'Give custom controls in {d} Semantics labels and roles, and exclude decorative widgets',
              'Check {d} with VoiceOver and TalkBack and at the largest text scale on both platforms',
            ],
            topics: ['flutter-basics'],
          },
        ],
        fallback: [
          'Design {d} once for both platforms and note where iOS and Android must differ',
          'Implement {d} in Dart with flutter_test coverage, and try it on both platforms',
        ],
        guidance:
          'Plan like a senior Flutter engineer: one Dart code base for iOS and Android, widgets with go_router and a view model per screen, offline-first storage in SQLite (sqflite, drift) behind repositories with a sync queue replayed on reconnect (connectivity_plus) and an explicit conflict rule, flutter_test unit and widget tests, integration_test on both platforms, VoiceOver and TalkBack checks, release builds through TestFlight and Play testing tracks. Never prescribe native-only tooling (Jetpack Compose, Room, SwiftUI) or React Native libraries for a Flutter brief.',
      },
    ],
    supersedes: {
      fields: ['mobile-ios', 'mobile-android', 'web-development'],
      when: [
        'react native',
        'flutter',
        'expo router',
        'eas build',
        'cross platform app',
        'cross platform mobile',
      ],
    },
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
      'Write down the questions the analysis must answer and the decision each answer informs, with whoever will act on it',
      'Pin a reproducible environment (requirements or conda file) and load the raw data read-only',
      'Profile the dataset: row counts, types, missing values, duplicates and the distribution of the outcome the brief is about',
    ],
    habit: 'Keep raw data untouched and every transformation in code, so the notebook reruns top to bottom',
    check: 'with the numbers and charts behind it in the notebook, rerun from the raw data',
    integrate: [
      'Restart the kernel and run the whole notebook from the raw files to check it reproduces every figure',
      'Write the limitations: data quality, the period and population covered, and which patterns are correlation rather than cause',
    ],
    setupTopics: ['data-basics', 'notebook'],
    archetypes: [
      {
        key: 'model',
        match: [
          'model',
          'predict',
          'prediction',
          'predictive',
          'classifier',
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
        match: DATA_MATCH.cleaning,
        steps: [
          'Document every missing-value, duplicate and outlier decision for {d} with its effect on row counts',
          'Put the cleaning of {d} in one function or pipeline step so it reruns unchanged on a fresh extract',
          DATA_DICTIONARY_STEP,
        ],
        topics: ['missing-data', 'preprocessing'],
      },
      {
        key: 'eda',
        match: ['eda', 'exploratory', 'analysis', 'insights', 'drivers', 'cohort', 'segmentation'],
        steps: [
          'Plot distributions and relationships relevant to {d}, one question per chart',
          'Compare the outcome across segments in {d} and rank candidate drivers by effect size, with the count behind each',
          'Test the main patterns in {d} for significance or stability across time periods',
        ],
        topics: ['visualisation'],
      },
      {
        key: 'dashboard',
        match: ['dashboard', 'report', 'deck', 'slides', 'presentation', 'summary', 'findings'],
        steps: [
          'Lead {d} with the answer and the decision it supports, then the evidence',
          'Title every chart in {d} with its finding, and label axes with units, the time range and the data source',
          'Give each recommendation in {d} a number: the expected impact, its range and where the estimate comes from',
        ],
        topics: ['visualisation'],
      },
      {
        key: 'notebook',
        match: DATA_MATCH.notebook,
        steps: [
          'Structure {d} as load → clean → explore → conclude, with a markdown cell stating each result',
          SEEDS_STEP,
        ],
        topics: ['notebook'],
      },
    ],
    fallback: [
      'State the question {d} answers and the metric that decides it',
      'Produce {d} from code that reruns on the raw data',
    ],
    guidance:
      'Plan like a senior data analyst: the business questions and the decisions they inform first, a reproducible environment, data profiling, documented cleaning with a data dictionary, exploratory analysis with one question per chart, segment comparisons ranked by effect size with the counts behind them, stability across periods, charts titled with their finding and labelled with units, findings that lead with the answer and recommendations with a number and its source, limitations (correlation is not cause). Train/test splits, baselines and held-out evaluation only when a predictive model is asked for.',
    variants: [
      {
        key: 'modelling',
        when: [
          'model',
          'models',
          'predict',
          'prediction',
          'predictive',
          'classifier',
          'classification',
          'regression',
          'forecast',
          'forecasting',
          'machine learning',
          'roc auc',
          'auc',
          'precision',
          'recall',
          'f1',
          'rmse',
        ],
        setup: [
          'Write down the prediction target, the metric the decision needs and the baseline the model must beat',
          'Pin a reproducible environment (requirements or conda file) and load the raw data read-only',
          'Profile the dataset: row counts, types, missing values, duplicates and the target distribution',
        ],
        check: 'on a held-out test set, against a simple baseline, with the numbers in the notebook',
        integrate: [
          'Restart the kernel and run the whole notebook from the raw files to check it reproduces every figure',
          'Write the limitations: data quality, leakage risks and what the model must not be used for',
        ],
        archetypes: [
          {
            key: 'cleaning',
            match: DATA_MATCH.cleaning,
            steps: [
              'Document every missing-value, duplicate and outlier decision for {d} with its effect on row counts',
              'Put the preprocessing of {d} in one function or pipeline step so train and test are treated alike',
              DATA_DICTIONARY_STEP,
            ],
            topics: ['missing-data', 'preprocessing'],
          },
          {
            key: 'notebook',
            match: DATA_MATCH.notebook,
            steps: [
              'Structure {d} as load → clean → explore → model → evaluate, with a markdown cell stating each result',
              SEEDS_STEP,
            ],
            topics: ['notebook'],
          },
        ],
        guidance:
          'Plan like a senior data scientist: reproducible environment, data profiling, train/test split before fitting, a baseline, scikit-learn pipelines, cross-validation, leakage checks, held-out evaluation with decision-relevant metrics, charts with units, limitations.',
      },
    ],
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
        match: [
          'interview',
          'interviews',
          'user interviews',
          'customer interviews',
          'user research',
          'research summary',
          'discovery',
          'contextual inquiry',
        ],
        steps: [
          'Write a screener for {d} and recruit five to eight participants who match it, plus a backup',
          'Write a semi-structured interview guide for {d} with open, non-leading questions, and pilot it once',
          'Run the sessions for {d} with a note-taker, recording with consent, and write each one up the same day',
          'Synthesise {d} on an affinity map, then write the findings with supporting quotes and how many participants showed each',
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
      'infographic',
      'poster',
      'flyer',
      'brochure',
      'illustration',
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
        match: ['mockup', 'mockups', 'high-fidelity', 'hi-fi', 'screens', 'ui', 'redesign', 'landing page'],
        steps: [
          'Set the type scale, colour palette and spacing grid for {d}',
          'Design {d} at mobile and desktop sizes with real content, not lorem ipsum',
          'Check the colour contrast of {d} against WCAG 2.2 AA',
        ],
        topics: ['colour', 'typography', 'contrast'],
      },
      {
        key: 'prototype',
        match: ['prototype', 'clickable prototype', 'interactive prototype', 'clickable', 'interactive'],
        steps: [
          'Build {d} from the final screens, wiring the main flow and its error and empty states',
          'Fill {d} with realistic content and the inputs a tester must use, and leave out what no task needs',
          'Pilot {d} on the target device with a colleague before it goes in front of users',
        ],
        topics: ['design-tools'],
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
        match: ['logo', 'logotype', 'brand', 'brand identity', 'identity', 'icons', 'wordmark'],
        steps: [
          'Collect references and the words {d} must convey, and sketch widely in black and white first',
          'Explore at least three directions for {d} and test them at small sizes and in one colour',
          'Produce {d} as vector masters with colour, mono and reversed versions and export presets',
        ],
        topics: ['colour'],
      },
      {
        key: 'graphics',
        match: [
          'poster',
          'banner',
          'flyer',
          'brochure',
          'infographic',
          'illustration',
          'illustrations',
          'graphics',
          'social graphics',
        ],
        steps: [
          'Set the grid, the type hierarchy and the one message {d} must get across at a glance',
          'Lay out {d} with real copy and images, then check it at actual size (a print proof or the target screen)',
          'Export {d} in the formats each channel needs (print PDF with bleed, web PNG or SVG)',
        ],
        topics: ['typography', 'colour'],
      },
    ],
    fallback: [
      'Explore options for {d} in low fidelity before refining one',
      'Review {d} against the brief with stakeholders and log the decisions',
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
        key: 'seo-keywords',
        match: [
          'seo',
          'keyword',
          'keywords',
          'keyword plan',
          'keyword research',
          'search terms',
          'topic cluster',
        ],
        steps: [
          "List seed terms for {d} from customers' own words, competitors' pages and search suggestions",
          'Pull search volume and keyword difficulty for each term in {d} from a keyword tool such as Google Keyword Planner',
          'Label the search intent of each term in {d} from the pages that rank for it today',
          'Cluster the terms in {d} by topic and map each cluster to one page, so no two pages target the same term',
        ],
        topics: ['keyword-research', 'seo'],
      },
      {
        key: 'pitch-deck',
        match: ['pitch deck', 'deck', 'slides', 'slide deck', 'presentation', 'pitch'],
        steps: [
          'Write the storyline of {d} as one headline per slide before designing any: problem, solution, proof, market, model, team, ask',
          'Design {d} with one idea per slide, large type and a chart only where a number makes the point',
          'Rehearse {d} aloud against the time slot and cut every slide the audience would not miss',
        ],
        topics: [],
      },
      {
        key: 'press-release',
        match: ['press release', 'media release', 'press kit', 'announcement', 'news release'],
        steps: [
          'Lead {d} with the news in the headline and first paragraph: who, what, when, where and why it matters',
          'Add a quote from a named spokesperson, the supporting facts and a boilerplate with the media contact to {d}',
          'Send {d} to a short list of journalists who cover the beat, under embargo if the timing matters',
        ],
        topics: ['advertising-rules'],
      },
      {
        key: 'article',
        match: ['blog', 'article', 'post', 'case study', 'copy', 'tagline', 'slogan'],
        steps: [
          'Outline {d} around one reader question and the answer in the first paragraph',
          'Back every claim in {d} with a source or a customer quote',
        ],
        topics: ['web-writing'],
      },
    ],
    fallback: [
      'Draft {d} for one named audience and one action, against the creative brief',
      'Put {d} in front of five people from the audience and revise what they misread',
    ],
    guidance:
      'Plan like a senior marketer/copywriter: creative brief, audience and single-minded message, voice-of-customer research, headline options, proof for every claim, one call to action, A/B variants, UTM tracking, launch calendar, advertising rules. No code, repositories or software tooling.',
  },
  {
    key: 'content-writing',
    name: 'Content and editorial writing',
    domains: [
      'writing',
      'content writing',
      'blogging',
      'blog',
      'editorial',
      'journalism',
      'copy editing',
      'copyediting',
      'ghostwriting',
      'article writing',
      'long form writing',
    ],
    vocabulary: [
      'article',
      'articles',
      'blog post',
      'blog series',
      'long form',
      'editorial',
      'essay',
      'flesch',
      'reading ease',
      'plagiarism',
      'citations',
      'cites',
      'word count',
      'keyword plan',
      'keyword research',
      'byline',
    ],
    setup: [
      'Define the reader: what they already know, what they search for and the one question each piece must answer for them',
      'Write a content brief per piece: angle, target keyword and search intent, outline, sources to consult and target length',
    ],
    habit:
      'Draft fast, then edit in separate passes: structure, clarity, facts and links, then a line edit read aloud',
    check:
      'by an editor reading the final text against the content brief, with a tool measuring it where the criterion sets a number',
    integrate: [
      'Copy-edit the whole set for consistency: names, numbers, terms, tone and house style',
      'Fact-check every figure, quote and link against its source once more, then format each piece for the publishing platform with its title tag and meta description',
    ],
    setupTopics: ['content-quality', 'web-writing'],
    archetypes: [
      {
        key: 'article',
        match: [
          'article',
          'articles',
          'blog',
          'blog post',
          'blog posts',
          'post',
          'posts',
          'essay',
          'feature',
          'long form',
          'op-ed',
          'series',
          'chapter',
        ],
        steps: [
          'Research {d}: gather primary and recent sources, at least as many as the brief asks for, and note the claim each one supports',
          'Outline {d} with a working headline, the answer up front and one section per reader question',
          'Draft {d} to the target length, citing each source where its claim is used',
          'Edit {d} for readability: short sentences, plain words and a subheading every few paragraphs, checked with a readability score',
          'Run {d} through a plagiarism checker and fact-check every number and quote before it goes to the editor',
        ],
        topics: ['content-quality', 'readability', 'web-writing'],
      },
      {
        key: 'seo-keywords',
        match: [
          'seo',
          'keyword',
          'keywords',
          'keyword plan',
          'keyword research',
          'search terms',
          'topic cluster',
        ],
        steps: [
          "List seed terms for {d} from the readers' own questions, competing articles and search suggestions",
          'Pull search volume and keyword difficulty for each term in {d} from a keyword tool such as Google Keyword Planner',
          'Label the search intent of each term in {d} (informational, commercial, transactional) from the pages that rank for it today',
          'Cluster the terms in {d} by topic and map one primary and a few secondary keywords to each article, with no two articles on the same term',
        ],
        topics: ['keyword-research', 'seo'],
      },
      {
        key: 'snippets',
        match: [
          'social',
          'social media',
          'snippet',
          'snippets',
          'promotion',
          'teaser',
          'teasers',
          'newsletter blurb',
          'linkedin',
          'twitter',
          'instagram',
        ],
        steps: [
          'Pull the strongest line, number or quote of each article into {d} and build a hook around it',
          "Adapt {d} to each platform's length, format and link handling, with one call to read the article",
          "Schedule {d} around each article's publication date",
        ],
        topics: ['web-writing'],
      },
      {
        key: 'editing',
        match: ['edit', 'editing', 'proofread', 'proofreading', 'copy edit', 'style sheet', 'style guide'],
        steps: [
          'Edit {d} in passes: structure first, then clarity, then a line edit and a final proofread',
          'Keep a style sheet for {d}: spellings, names, number formats and capitalisation',
        ],
        topics: ['readability'],
      },
    ],
    fallback: [
      'Define the reader and the one thing {d} must leave them with',
      'Draft {d}, then edit it in a separate pass before anyone reviews it',
    ],
    guidance:
      'Plan like a senior editor and content writer: reader and angle first, a content brief per piece, keyword research mapped to articles (seed terms, search volume, difficulty, intent, topic clusters), research with cited primary sources, outline, draft, editing passes for structure, clarity and readability (Flesch reading ease), plagiarism and fact checks, platform formatting, promotion snippets per channel. No code, repositories or software tooling.',
  },
  {
    key: 'sales',
    name: 'B2B sales',
    domains: [
      'sales',
      'b2b sales',
      'outbound sales',
      'inside sales',
      'business development',
      'sales development',
      'revenue operations',
      'revops',
      'account management',
    ],
    vocabulary: [
      'sales',
      'outbound',
      'prospect',
      'prospects',
      'prospecting',
      'sales pipeline',
      'pipeline forecast',
      'ideal customer profile',
      'icp',
      'cold email',
      'cold call',
      'call script',
      'objection',
      'objection handling',
      'crm',
      'quota',
      'qualified accounts',
      'qualified leads',
      'lead generation',
      'b2b',
      'sdr',
      'discovery call',
      'win rate',
      'closed won',
    ],
    setup: [
      'Pull the last year of closed-won and closed-lost deals from the CRM and note what the best-fit customers have in common',
      'Agree the targets with the sales lead: meetings and pipeline per month, average deal size and sales-cycle length',
    ],
    habit:
      'Log every account, touch and reply in the CRM the same day, so conversion rates come from data rather than memory',
    check:
      'against the CRM data and, where it can be measured, with the tracked reply, meeting or conversion rate',
    integrate: [
      'Load the accounts, contacts and sequences into the CRM and the sequencing tool with owners, stages and daily send limits',
      'Role-play the whole motion (first email, call, objection, next step) with a colleague as the buyer and tighten what stalls',
    ],
    setupTopics: ['prospecting'],
    archetypes: [
      {
        key: 'icp',
        match: [
          'ideal customer profile',
          'icp',
          'customer profile',
          'buyer persona',
          'buyer personas',
          'persona',
          'personas',
          'target market',
          'segmentation',
          'segments',
        ],
        steps: [
          'Find what the best-fit customers behind {d} share in closed-won deals: industry, size, tech stack and the trigger that made them buy',
          'Write {d} as firmographic criteria, buying triggers and disqualifiers, plus the buying committee (economic buyer, champion, users)',
          'Size {d}: pull the matching accounts from LinkedIn Sales Navigator or a B2B database into an account list tiered by fit',
          'Check {d} against win rates by segment and two or three conversations with customers or account executives',
        ],
        topics: ['prospecting'],
      },
      {
        key: 'account-list',
        match: [
          'account list',
          'prospect list',
          'target accounts',
          'accounts',
          'lead list',
          'leads',
          'prospects',
          'contacts',
        ],
        steps: [
          'Build {d} from a data source (LinkedIn Sales Navigator, a B2B database or the CRM) filtered by the ICP criteria',
          'Research each tier-1 account in {d} for a trigger or pain point worth a personalised first line',
          'Verify the email addresses in {d} and drop contacts who opted out, following CAN-SPAM and GDPR',
        ],
        topics: ['prospecting', 'outreach-compliance'],
      },
      {
        key: 'sequence',
        match: [
          'cold email',
          'email sequence',
          'sequence',
          'cadence',
          'emails',
          'email',
          'outreach',
          'linkedin messages',
          'follow-ups',
        ],
        steps: [
          'Lay out {d} as a cadence: touches, channels and days between them, with a rule for when to stop',
          'Write each message of {d} in under 120 words: a personalised first line, one pain point, proof and a low-friction ask',
          'Write a version of {d} per segment with its own pain point, trigger and proof',
          'Set up {d} in the sequencing tool with reply detection, an opt-out line and send limits that protect the domain',
        ],
        topics: ['outreach-compliance', 'deliverability'],
      },
      {
        key: 'call-script',
        match: [
          'call script',
          'script',
          'talk track',
          'objection handling',
          'objections',
          'cold call',
          'discovery call',
          'discovery questions',
        ],
        steps: [
          'Write the opener of {d}: who you are and why you are calling this buyer, in one sentence, then ask for thirty seconds',
          'List the discovery questions in {d} that qualify the account: need, timing, authority and budget',
          'Collect the most frequent objections from call recordings and lost deals, and give each in {d} a response: acknowledge, ask, answer, confirm',
          'Role-play {d} with a colleague, record it, and cut whatever sounds read aloud',
        ],
        topics: [],
      },
      {
        key: 'forecast',
        match: [
          'pipeline forecast',
          'sales forecast',
          'forecast',
          'pipeline',
          'quota',
          'revenue plan',
          'sales targets',
        ],
        steps: [
          'Set the conversion rates behind {d} stage by stage (contacted, replied, meeting, opportunity, won) from CRM history or stated benchmarks, each with its source',
          'Build {d} backwards from the target: deals needed, then opportunities, meetings and accounts to contact per week',
          'Add the average deal size and sales-cycle length to {d}, and a low, base and high case on the weakest assumption',
        ],
        topics: ['forecasting'],
      },
      {
        key: 'crm',
        match: ['crm', 'hubspot', 'salesforce', 'deal stages', 'pipeline stages'],
        steps: [
          'Define the deal stages of {d} with an exit criterion for each',
          'Set the required fields and the reports of {d}: pipeline by stage, conversion between stages and activity per rep',
        ],
        topics: ['forecasting'],
      },
      {
        key: 'sales-deck',
        match: ['sales deck', 'deck', 'proposal', 'one-pager', 'battlecard', 'demo', 'case study'],
        steps: [
          "Build {d} around the buyer's problem and the outcome, with a customer proof point for each claim",
          'Tailor {d} to the persona in the room and end it with one concrete next step',
        ],
        topics: [],
      },
      {
        key: 'sales-plan',
        match: ['sales plan', 'sales playbook', 'playbook', 'territory plan', 'outbound plan', 'plan'],
        steps: [
          'Set the targets of {d}: meetings, pipeline and revenue per month, and the weekly activity they require',
          'Assign segments, channels and weekly volumes per rep in {d}',
          'Decide the metrics {d} is reviewed on each week and the threshold that triggers a change',
        ],
        topics: ['forecasting'],
      },
    ],
    fallback: [
      'Tie {d} to the ICP and the pipeline stage it moves',
      'Try {d} on a handful of real accounts and log the responses in the CRM',
    ],
    guidance:
      'Plan like a senior B2B sales leader: an ideal customer profile from closed-won data (firmographics, triggers, buying committee), a tiered account list sized against it, researched personalisation, multi-touch sequences per segment with deliverability and opt-out rules (CAN-SPAM, GDPR), call scripts with discovery questions and objection handling, a pipeline forecast built backwards from the target on stage-by-stage conversion rates, deal size and cycle length, everything logged in the CRM. No code, repositories or software tooling.',
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
        key: 'variance',
        match: ['variance', 'actuals', 'plan vs actual', 'budget vs actual', 'rolling forecast', 'forecast'],
        steps: [
          'Map the chart of accounts into the lines {d} reports on',
          'Compute variances in {d} in amount and percent, and flag the ones above a threshold',
        ],
        topics: ['formulas', 'pivot'],
      },
      {
        key: 'budget',
        match: ['budget', 'budgets', 'cost plan', 'expense plan', 'cost estimate'],
        steps: [
          'List every cost line of {d} with its driver (quantity × unit cost) and the source of each figure',
          'Lay out {d} with one row per line and one column per period, subtotals by category and a contingency line',
          'Add a check cell to {d} that ties the total to the agreed envelope, and a scenario for the largest uncertain cost',
        ],
        topics: ['formulas', 'validation'],
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

const MOBILE: readonly FieldKey[] = ['mobile-ios', 'mobile-android', 'mobile-cross-platform'];
const SCREENS: readonly FieldKey[] = [
  'visual-design',
  'ux-research',
  'web-development',
  'mobile-ios',
  'mobile-android',
  'mobile-cross-platform',
];
const WRITING: readonly FieldKey[] = ['content-writing', 'marketing', 'technical-writing'];
const CONTRAST_CHECK =
  'by measuring every text and interface colour pair with a contrast checker against WCAG 2.2 AA (4.5:1 for body text, 3:1 for large text and controls)';

/**
 * Criterion-aware checks, most specific first: the rule whose words match the criterion best
 * wins, ties going to the earlier rule; a criterion no rule matches is checked the field's way
 * (`Field.check`).
 */
export const CRITERION_CHECKS: readonly CriterionCheck[] = [
  // Data science: only a criterion about a model's performance is checked on a held-out set.
  {
    key: 'model-metric',
    fields: ['data-science'],
    match: [
      'roc auc',
      'auc',
      'precision',
      'recall',
      'accuracy',
      'f1',
      'rmse',
      'mae',
      'mape',
      'baseline',
      'held out',
      'test set',
      'outperforms',
      'predicts',
      'prediction',
      'model',
    ],
    check: 'on a held-out test set, against a simple baseline, with the numbers in the notebook',
  },
  {
    key: 'drivers',
    fields: ['data-science'],
    match: ['driver', 'drivers', 'factors', 'root cause', 'root causes', 'evidence'],
    check:
      "by sizing each driver's effect with the counts behind it (and a confidence interval), and checking it holds in more than one time period",
  },
  // Sales
  {
    key: 'account-count',
    fields: ['sales'],
    match: ['qualified accounts', 'accounts', 'prospects', 'leads', 'contacts', 'target accounts'],
    check:
      'by counting the accounts in the list that meet every ICP criterion, and spot-checking ten of them by hand',
  },
  {
    key: 'personalisation',
    fields: ['sales'],
    match: [
      'personalised',
      'personalized',
      'personalisation',
      'personalization',
      'per segment',
      'segment',
      'tailored',
    ],
    check:
      'by reading one message per segment side by side: each must name a pain point, trigger or proof specific to that segment',
  },
  {
    key: 'forecast-assumptions',
    fields: ['sales'],
    match: ['forecast', 'conversion', 'conversion rates', 'assumptions', 'pipeline', 'quota'],
    check:
      'by tracing every number in the forecast to a stated conversion rate, deal size and cycle length, and recomputing one week by hand',
  },
  {
    key: 'outreach-rates',
    fields: ['sales'],
    match: ['reply rate', 'response rate', 'open rate', 'meetings booked', 'meetings'],
    check: "with the sequencing tool's reply and meeting rates over the first two weeks of sends",
  },
  {
    key: 'objections',
    fields: ['sales'],
    match: ['objection', 'objections', 'objection handling'],
    check:
      'by role-playing the call with a colleague who raises each listed objection, noting where the answer stalls',
  },
  // Mobile
  {
    key: 'offline',
    fields: MOBILE,
    match: ['offline', 'airplane mode', 'without a connection', 'no connection', 'no network'],
    check:
      'with the device in airplane mode: create, edit and delete records, force-quit and relaunch, then reconnect and confirm nothing was lost or duplicated',
  },
  {
    key: 'sync-time',
    fields: MOBILE,
    match: ['sync', 'syncs', 'synchronise', 'synchronize', 'synchronisation', 'synchronization'],
    check:
      'by timing sync from reconnection to server confirmation on a real device per platform over a throttled network, ten runs, reporting the median and the worst',
  },
  {
    key: 'screen-readers',
    fields: ['mobile-cross-platform'],
    match: ['talkback', 'voiceover', 'screen reader', 'screen readers'],
    check:
      'by walking every screen with VoiceOver on iOS and TalkBack on Android: each control announced with its label and role, in a sensible order, and reachable',
  },
  // Screens and flows
  {
    key: 'step-count',
    fields: SCREENS,
    match: ['steps', 'fewer steps', 'taps', 'clicks', 'fewer screens'],
    check:
      'by counting the screens and actions of the flow in the prototype, before and after, on the same task',
  },
  // Anywhere
  {
    key: 'usability-test',
    match: [
      'usability',
      'usability test',
      'usability testing',
      'user testing',
      'tested with users',
      'task success',
      'time on task',
    ],
    check:
      'by running the usability test with representative users (at least five): realistic tasks, task success rate, time on task and each issue rated by severity',
  },
  {
    key: 'contrast',
    match: ['colour contrast', 'color contrast', 'contrast ratio', 'aa contrast', 'wcag contrast'],
    check: CONTRAST_CHECK,
  },
  {
    key: 'contrast-on-screen',
    fields: SCREENS,
    match: ['contrast'],
    check: CONTRAST_CHECK,
  },
  {
    key: 'charts',
    match: [
      'chart',
      'charts',
      'graph',
      'graphs',
      'visualisation',
      'visualisations',
      'visualization',
      'visualizations',
      'axis labels',
      'legend',
    ],
    check:
      'by reviewing each chart for a title that states its finding, labelled axes with units, a legend where needed and text readable at presentation size',
  },
  {
    key: 'quantified',
    match: ['quantified', 'quantify', 'quantifies', 'estimated impact', 'business impact', 'roi'],
    check:
      'by checking that each recommendation carries a number (impact, cost or size), its range and where the estimate comes from',
  },
  {
    key: 'readability',
    match: [
      'flesch',
      'reading ease',
      'reading level',
      'grade level',
      'readability score',
      'readability tool',
      'plain language',
      'kincaid',
      'hemingway',
    ],
    check:
      'with a readability checker (the Flesch reading-ease score in Microsoft Word, or Hemingway Editor) on each final text, shortening sentences and words until it passes',
  },
  {
    key: 'plagiarism',
    match: ['plagiarism', 'plagiarism free', 'plagiarised', 'plagiarized', 'originality'],
    check:
      'by running each final text through a plagiarism checker (Copyscape or Grammarly, say) and rewriting or attributing every matched passage',
  },
  {
    key: 'citations',
    match: ['cites', 'cite', 'cited', 'citation', 'citations', 'references', 'sources', 'bibliography'],
    check:
      'by counting the sources cited and opening each one to confirm it is reputable and supports the claim it is cited for',
  },
  {
    key: 'word-count',
    fields: WRITING,
    match: ['word count', 'word limit', 'word target'],
    check:
      'with the word count of each final text against the target, cutting or expanding sections rather than padding',
  },
  {
    key: 'search',
    fields: ['content-writing', 'marketing'],
    match: ['seo', 'ranks', 'ranking', 'search traffic', 'organic traffic', 'keyword', 'keywords'],
    check:
      "by checking each page's title, headings and opening paragraph against its mapped keyword, then tracking impressions and position in Search Console after publishing",
  },
];

/**
 * The plan for briefs the knowledge base does not recognise: honest, general and marked
 * `confidence: "low"`, rather than another field's steps dressed up as expertise.
 */
export const GENERAL_FIELD: Field = {
  key: 'unknown',
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
