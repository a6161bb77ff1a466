/**
 * The evaluation set: briefs written for this project, as partners and employers outside
 * software write them — varied, messy, some one line long, some long, some Hinglish, with
 * typos left in. Each case has the field a human would file it under, a PlaybookBrief, and
 * an unstructured rubric brief with the asks a human reader would list (`asks`: a phrase that
 * must appear in some criterion's source or description) and the themes that are genuinely
 * present (`themes`: a theme label on any other criterion is a false label).
 */
import type { FieldKey } from '../src/domain/pillars/knowledge/fields';
import type { ThemeKey } from '../src/domain/pillars/themes';
import type { PlaybookBrief } from '../src/domain/pillars/types';
import { FIFTH_PASS_CASES } from './briefs-fifth-pass';
import { FOURTH_PASS_CASES } from './briefs-fourth-pass';
import { SECOND_PASS_CASES } from './briefs-second-pass';
import { THIRD_PASS_CASES } from './briefs-third-pass';

export type EvalCase = {
  id: string;
  field: FieldKey;
  playbook: PlaybookBrief;
  /** Checks on the plan, as the held-out set has them: steps it needs, steps it must not have, links it must not give. */
  plan?: {
    /** A phrase some working step (not the hand-over) must name. */
    mustDo?: string[];
    /** A phrase no task may contain ("restart the kernel" in a flood-mapping plan). */
    mustAvoid?: string[];
    /** A part of a URL no link may contain ("nodejs" for a Go service). */
    linksAvoid?: string[];
  };
  rubric: {
    text: string;
    domain?: string;
    asks: string[];
    themes: ThemeKey[];
    /** What the brief leaves out: each must be in the rubric's `outOfScope` and in no criterion. */
    outOfScope?: string[];
    /** Phrases no criterion name may contain (letter formulas, company descriptions, another field's labels). */
    namesAvoid?: string[];
    /** Phrases no level descriptor may contain (another field's words: "OWASP" in a contract review). */
    levelsAvoid?: string[];
  };
};

export const EVAL_CASES: readonly EvalCase[] = [
  {
    id: 'web-bakery-site',
    field: 'web-development',
    playbook: {
      title: 'Order-ahead website for a bakery',
      domain: 'Web development',
      durationDays: 14,
      deliverables: [
        'A responsive website with the weekly menu',
        'An order form with pickup times',
        'Playwright tests for ordering',
      ],
      successCriteria: [
        'Lighthouse performance above 90 on mobile',
        'The order form works with a keyboard only',
      ],
    },
    rubric: {
      text: `We are a two-shop bakery in Pune. Customers should be able to see the weekly menu and order ahead for pickup.
- The site must be responsive and load in under 2 seconds on a mid-range phone.
- Build an order form with pickup slots; it must validate phone numbers.
- The form must be usable with a keyboard and a screen reader.
- Write end-to-end tests for the ordering flow.
Nice to have: a dark mode.`,
      domain: 'web',
      asks: ['responsive', 'order form', 'keyboard and a screen reader', 'end-to-end tests', 'dark mode'],
      themes: ['performance', 'functionality', 'accessibility', 'testing', 'ux-design'],
    },
  },
  {
    id: 'web-short',
    field: 'web-development',
    playbook: {
      title: 'Portfolio page',
      domain: 'frontend',
      durationDays: 3,
      deliverables: ['A one-page portfolio site'],
      successCriteria: ['Looks right on phones'],
    },
    rubric: {
      text: 'Make a portfolio page in React and deploy it. It should look good on phones.',
      asks: ['portfolio page', 'deploy', 'phones'],
      themes: ['ux-design', 'deployment', 'functionality'],
    },
  },
  {
    id: 'backend-inventory-api',
    field: 'backend',
    playbook: {
      title: 'Inventory API for a spice wholesaler',
      domain: 'backend',
      durationDays: 21,
      deliverables: [
        'A REST API for products and stock movements',
        'A PostgreSQL schema with migrations',
        'An OpenAPI description',
        'Login with roles for staff',
      ],
      successCriteria: [
        'Every endpoint returns RFC 9457 errors',
        'Stock never goes negative',
        'p95 latency under 150 ms for stock reads',
      ],
    },
    rubric: {
      text: `Inventory service

Our warehouse team tracks 1,200 spices in spreadsheets and it breaks every Diwali season.

What we need
- A REST API with CRUD for products and an endpoint to record stock movements.
- Stock must never go negative; reject such movements with a clear error.
- Store data in PostgreSQL with migrations.
- Staff log in; only managers can adjust stock. Passwords must be hashed.
- Integration tests for every endpoint are required.
- Document the API with OpenAPI.
Reads should stay under 150 ms at p95. We do not need a UI.`,
      domain: 'backend',
      asks: [
        'CRUD',
        'never go negative',
        'PostgreSQL',
        'Passwords must be hashed',
        'Integration tests',
        'OpenAPI',
        '150 ms',
      ],
      themes: ['functionality', 'data', 'security', 'testing', 'documentation', 'performance'],
    },
  },
  {
    id: 'backend-hinglish',
    field: 'backend',
    playbook: {
      title: 'Webhook relay service',
      domain: 'api development',
      durationDays: 7,
      deliverables: ['A webhook relay API', 'Retry logic with a dead-letter queue'],
      successCriteria: ['No webhook is lost when the target is down for an hour'],
    },
    rubric: {
      text: 'Ek webhook relay service banani hai. Retries exponential backoff ke saath hone chahiye aur failed events dead-letter queue mein jaane chahiye. Tests zaroori hai. README bhi likhna.',
      asks: ['webhook relay service', 'exponential backoff', 'dead-letter queue', 'Tests', 'README'],
      themes: ['functionality', 'testing', 'documentation'],
    },
  },
  {
    id: 'ios-habit-app',
    field: 'mobile-ios',
    playbook: {
      title: 'Habit tracker for iPhone',
      domain: 'iOS',
      durationDays: 14,
      deliverables: ['A SwiftUI habit tracker app', 'A VoiceOver accessibility audit', 'A TestFlight build'],
      successCriteria: ['Every screen works with VoiceOver', 'Streaks survive an app restart'],
    },
    rubric: {
      text: `Build a habit tracker for iPhone in SwiftUI. Users add habits, tick them off daily and see streaks. Data must persist between launches. The app must support Dynamic Type and VoiceOver. Write XCTest unit tests for the streak logic. Ship a TestFlight build by the end.`,
      domain: 'ios',
      asks: ['habit tracker', 'persist', 'Dynamic Type and VoiceOver', 'XCTest', 'TestFlight'],
      themes: ['functionality', 'accessibility', 'testing', 'deployment', 'data'],
    },
  },
  {
    id: 'ios-typos',
    field: 'mobile-ios',
    playbook: {
      title: 'recipe app ios',
      domain: 'ios',
      durationDays: 5,
      deliverables: ['swiftui recipe screens', 'offline favourites'],
      successCriteria: ['works in dark mode'],
    },
    rubric: {
      text: 'need a recipie app for iphone. shoud work offline for favourites. must suport dark mode. nice to have widgets',
      asks: ['recipie app', 'offline', 'dark mode', 'widgets'],
      themes: ['functionality', 'ux-design'],
    },
  },
  {
    id: 'android-expense',
    field: 'mobile-android',
    playbook: {
      title: 'Offline expense tracker',
      domain: 'Android',
      durationDays: 10,
      deliverables: ['An Android app that records expenses offline', 'An accessibility audit of the app'],
      successCriteria: ['Every screen works with TalkBack', 'Data survives a restart'],
    },
    rubric: {
      text: `Android app (Kotlin, Jetpack Compose) for small shop owners to record daily expenses without internet. Expenses must be stored locally with Room and survive restarts. Every screen must work with TalkBack and large fonts. Add unit tests for the totals. Export a monthly CSV would be a bonus.`,
      domain: 'android',
      asks: ['record daily expenses', 'Room', 'TalkBack', 'unit tests', 'CSV'],
      themes: ['functionality', 'data', 'accessibility', 'testing'],
    },
  },
  {
    id: 'android-short',
    field: 'mobile-android',
    playbook: {
      title: 'Bus pass app',
      domain: 'android',
      durationDays: 4,
      deliverables: ['A Compose screen showing the QR bus pass', 'Play Store release build'],
      successCriteria: ['Opens in under a second'],
    },
    rubric: {
      text: 'Show the bus pass QR on an Android screen and publish a release build. It must open fast.',
      asks: ['bus pass QR', 'release build', 'open fast'],
      themes: ['functionality', 'deployment', 'performance'],
    },
  },
  {
    id: 'ds-churn',
    field: 'data-science',
    playbook: {
      title: 'Telecom churn prediction',
      domain: 'Data Science',
      durationDays: 21,
      deliverables: [
        'A cleaned dataset with a data dictionary',
        'A churn model notebook',
        'A slide deck for the retention team',
      ],
      successCriteria: ['Model beats the baseline on ROC AUC', 'Precision and recall on a held-out set'],
    },
    rubric: {
      text: `Customer churn

We lose about 3% of prepaid customers every month. You will get 18 months of anonymised usage and recharge data.

Clean the data and document how you handled missing values. Build a model that predicts churn in the next 30 days and compare it with a simple baseline. Report precision, recall and ROC AUC on a held-out test set, and avoid leakage. Explain the main drivers to the retention team in five slides. Your notebook should run end to end.`,
      domain: 'data science',
      asks: [
        'missing values',
        'predicts churn',
        'baseline',
        'precision, recall and ROC AUC',
        'five slides',
        'notebook',
      ],
      themes: ['data', 'modelling', 'communication'],
    },
  },
  {
    id: 'ds-hinglish',
    field: 'data-science',
    playbook: {
      title: 'Kirana sales analysis',
      domain: 'data analytics',
      durationDays: 7,
      deliverables: ['An EDA notebook of two years of sales', 'A weekly demand forecast'],
      successCriteria: ['Forecast error (MAPE) below 15%'],
    },
    rubric: {
      text: 'Hamare kirana store ka sales data hai, 2 saal ka. EDA karna hai aur festival season ka effect dikhana hai. Weekly demand forecast bhi chahiye, MAPE 15% se kam hona chahiye. Charts simple rakhna, owner ko samajh aane chahiye.',
      asks: ['EDA', 'festival season', 'demand forecast', 'MAPE', 'Charts'],
      themes: ['data', 'modelling', 'communication'],
    },
  },
  {
    id: 'ml-ablation',
    field: 'ml-research',
    playbook: {
      title: 'Reproduce and ablate a small text classifier',
      domain: 'ML research',
      durationDays: 30,
      deliverables: [
        'A reproduction of the baseline fine-tuning experiment',
        'Ablations of the data augmentation',
        'A four-page write-up',
      ],
      successCriteria: [
        'Results over three seeds with standard deviation',
        'Every number traceable to a logged run',
      ],
    },
    rubric: {
      text: `Research engineering task. Reproduce the published DistilBERT baseline on our support-ticket dataset within one point of accuracy. Then run ablations that remove each augmentation in turn. Report mean and standard deviation over at least three seeds. Check the test split for contamination with the training data. Write up the findings, including negative results, in four pages.`,
      domain: 'deep learning',
      asks: [
        'Reproduce the published DistilBERT baseline',
        'ablations',
        'three seeds',
        'contamination',
        'four pages',
      ],
      themes: ['modelling', 'data', 'communication'],
    },
  },
  {
    id: 'ml-short',
    field: 'ml-research',
    playbook: {
      title: 'Embedding benchmark',
      domain: 'machine learning research',
      durationDays: 6,
      deliverables: ['A benchmark of three embedding models on our retrieval set'],
      successCriteria: ['Recall@10 reported per model'],
    },
    rubric: {
      text: 'Benchmark three embedding models on our retrieval set and report Recall@10 with confidence intervals.',
      asks: ['Benchmark three embedding models', 'Recall@10'],
      themes: ['modelling', 'performance'],
    },
  },
  {
    id: 'devops-pipeline',
    field: 'devops',
    playbook: {
      title: 'CI/CD and monitoring for a payments service',
      domain: 'DevOps',
      durationDays: 14,
      deliverables: [
        'A GitHub Actions pipeline',
        'A Dockerfile for the service',
        'Kubernetes manifests',
        'Monitoring dashboards and runbooks',
      ],
      successCriteria: ['Deploys take under 10 minutes', 'An alert fires within 5 minutes of an outage'],
    },
    rubric: {
      text: `Platform brief
- Containerise the payments service with a multi-stage Dockerfile.
- Build a CI pipeline that runs tests and deploys to staging on every merge.
- Deploy to Kubernetes with readiness probes; a failed rollout must roll back automatically.
- Set up monitoring with SLO-based alerts and write a runbook for each alert.
- Infrastructure should be defined in Terraform.`,
      domain: 'devops',
      asks: ['multi-stage Dockerfile', 'CI pipeline', 'readiness probes', 'runbook', 'Terraform'],
      themes: ['deployment', 'testing'],
    },
  },
  {
    id: 'devops-hinglish',
    field: 'devops',
    playbook: {
      title: 'Backup automation',
      domain: 'cloud',
      durationDays: 5,
      deliverables: ['Terraform modules for nightly database backups', 'A restore runbook'],
      successCriteria: ['A restore is tested end to end'],
    },
    rubric: {
      text: 'Nightly DB backups ka Terraform setup chahiye. Restore ka runbook likhna zaroori hai aur ek baar restore test karke dikhana hai.',
      asks: ['Terraform', 'runbook', 'restore test'],
      themes: ['deployment', 'documentation', 'testing'],
    },
  },
  {
    id: 'security-pentest',
    field: 'security',
    playbook: {
      title: 'Web application security assessment',
      domain: 'Application security',
      durationDays: 10,
      deliverables: [
        'A threat model of the booking app',
        'A penetration test of the booking API',
        'A findings report',
      ],
      successCriteria: ['Every finding has a CVSS score and a fix', 'Fixed findings are re-tested'],
    },
    rubric: {
      text: `Scope: our clinic booking web app and its API (staging only). Build a threat model with STRIDE. Test the API against the OWASP Top 10, especially broken access control and injection. Every finding must include evidence, a CVSS score and a recommended fix. Re-test fixed findings before closing them. Write an executive summary for the clinic owners.`,
      domain: 'security',
      asks: ['threat model', 'OWASP Top 10', 'CVSS score', 'Re-test', 'executive summary'],
      themes: ['security', 'testing', 'communication'],
    },
  },
  {
    id: 'security-short',
    field: 'security',
    playbook: {
      title: 'Harden the login',
      domain: 'cybersecurity',
      durationDays: 3,
      deliverables: ['Hardening of the login endpoint'],
      successCriteria: ['Brute force is rate limited'],
    },
    rubric: {
      text: 'Harden our login: rate-limit brute force, hash passwords with Argon2 and add MFA.',
      asks: ['rate-limit brute force', 'Argon2', 'MFA'],
      themes: ['security'],
    },
  },
  {
    id: 'ux-research-interviews',
    field: 'ux-research',
    playbook: {
      title: 'Why farmers drop out of the advisory app',
      domain: 'UX research',
      durationDays: 21,
      deliverables: [
        'Eight farmer interviews',
        'A usability test of the onboarding',
        'A findings report with recommendations',
      ],
      successCriteria: [
        'At least eight participants across two districts',
        'Every recommendation backed by evidence',
      ],
    },
    rubric: {
      text: `Our crop-advisory app loses 60% of farmers in the first week. We want to understand why.
Interview at least eight farmers in two districts, in Marathi or Hindi. Run a usability test of the onboarding with five participants. Synthesise the findings with an affinity map. Present recommendations to the product team, each backed by quotes or counts.`,
      domain: 'user research',
      asks: ['Interview at least eight farmers', 'usability test', 'affinity map', 'recommendations'],
      themes: ['user-research', 'communication'],
    },
  },
  {
    id: 'ux-research-survey',
    field: 'ux-research',
    playbook: {
      title: 'Commuter survey',
      domain: 'ux research',
      durationDays: 8,
      deliverables: ['A survey of metro commuters', 'Two personas'],
      successCriteria: ['At least 200 responses'],
    },
    rubric: {
      text: 'Survey metro commuters about ticketing pain points (200+ responses) and turn the results into two personas.',
      asks: ['Survey metro commuters', 'personas'],
      themes: ['user-research'],
    },
  },
  {
    id: 'design-rebrand',
    field: 'visual-design',
    playbook: {
      title: 'Visual refresh for a yoga studio',
      domain: 'Visual design',
      durationDays: 14,
      deliverables: [
        'A logo and brand palette',
        'High-fidelity mockups of the booking screens',
        'A small Figma component library',
      ],
      successCriteria: ['Text contrast meets WCAG AA', 'Components cover every button state'],
    },
    rubric: {
      text: `Refresh the visual identity of our yoga studio. Design a new logo and a calm colour palette. Create high-fidelity mockups of the class booking screens for mobile and desktop in Figma. All text must meet WCAG AA contrast. Build the buttons, inputs and cards as Figma components with every state. Either an illustrated poster or a social media banner set is welcome as an extra.`,
      domain: 'graphic design',
      asks: ['logo', 'high-fidelity mockups', 'WCAG AA contrast', 'Figma components', 'poster'],
      themes: ['ux-design', 'accessibility'],
    },
  },
  {
    id: 'design-short',
    field: 'visual-design',
    playbook: {
      title: 'App icon',
      domain: 'ui design',
      durationDays: 2,
      deliverables: ['An app icon in three sizes'],
      successCriteria: ['Readable at 29 points'],
    },
    rubric: {
      text: 'Design an app icon that reads at small sizes and matches our brand colours.',
      asks: ['app icon', 'brand colours'],
      themes: ['ux-design'],
    },
  },
  {
    id: 'marketing-launch',
    field: 'marketing',
    playbook: {
      title: 'Launch campaign for a millet snack brand',
      domain: 'Marketing',
      durationDays: 7,
      deliverables: ['A three-email welcome sequence', 'Landing page copy', 'Instagram launch posts'],
      successCriteria: ['Open rate above 35% in the test send', 'Copy matches the brand voice guide'],
    },
    rubric: {
      text: `Pick one of the following:
(a) a landing page for the launch offer
(b) a three-email welcome sequence

Also write ten Instagram captions in our playful brand voice. Every health claim must be backed by a source. Set up UTM links so we can measure each channel.`,
      domain: 'marketing',
      asks: ['landing page', 'Instagram captions', 'health claim', 'UTM links'],
      themes: ['communication'],
    },
  },
  {
    id: 'marketing-short',
    field: 'marketing',
    playbook: {
      title: 'Festive newsletter',
      domain: 'copywriting',
      durationDays: 2,
      deliverables: ['A Diwali newsletter'],
      successCriteria: ['One clear call to action'],
    },
    rubric: {
      text: 'Write our Diwali newsletter with one clear offer, and two subject lines to A/B test.',
      asks: ['Diwali newsletter', 'subject lines'],
      themes: ['communication'],
    },
  },
  {
    id: 'finance-model',
    field: 'finance',
    playbook: {
      title: 'Café expansion model',
      domain: 'Finance',
      durationDays: 7,
      deliverables: ['A three-statement financial model in Excel', 'A one-page investment memo'],
      successCriteria: ['The balance sheet balances in every month', 'NPV and IRR under three scenarios'],
    },
    rubric: {
      text: `Build a three-statement financial model for our café expansion in Excel. Inputs must be on a separate sheet and clearly colour-coded. The model should contrast the base case with a downside scenario and show the production plan per month. Calculate NPV and IRR of the new branch. The balance sheet must balance in every period. A short memo for the founders would be nice to have.`,
      domain: 'finance',
      asks: [
        'three-statement financial model',
        'separate sheet',
        'downside scenario',
        'NPV and IRR',
        'balance sheet',
        'memo',
      ],
      themes: [],
    },
  },
  {
    id: 'finance-budget-hinglish',
    field: 'finance',
    playbook: {
      title: 'NGO budget tracker',
      domain: 'spreadsheets',
      durationDays: 5,
      deliverables: ['A Google Sheets budget vs actuals tracker', 'A monthly variance summary'],
      successCriteria: ['Variances above 10% are flagged'],
    },
    rubric: {
      text: 'NGO ke liye budget vs actuals ka spreadsheet banana hai. Har mahine ka variance dikhana hai aur 10% se zyada variance highlight hona chahiye. Pivot table se donor-wise summary bhi chahiye.',
      asks: ['budget vs actuals', 'variance', 'Pivot table'],
      themes: [],
    },
  },
  {
    id: 'techwriting-docs',
    field: 'technical-writing',
    playbook: {
      title: 'Developer docs for a payments SDK',
      domain: 'Technical writing',
      durationDays: 14,
      deliverables: [
        'A getting-started tutorial',
        'How-to guides for refunds and webhooks',
        'An API reference page per endpoint',
      ],
      successCriteria: [
        'A new developer takes a test payment in 15 minutes',
        'Every reference entry has an example',
      ],
    },
    rubric: {
      text: `Our SDK docs are one long README. Restructure them: write a getting-started tutorial that ends with a test payment, how-to guides for refunds and webhooks, and a reference page per endpoint with an example request. Follow the Google developer style guide. Test the tutorial with two developers who have never used us.`,
      domain: 'documentation',
      asks: [
        'getting-started tutorial',
        'how-to guides',
        'reference page',
        'style guide',
        'Test the tutorial',
      ],
      themes: ['documentation', 'testing'],
    },
  },
  {
    id: 'techwriting-short',
    field: 'technical-writing',
    playbook: {
      title: 'README rewrite',
      domain: 'docs',
      durationDays: 2,
      deliverables: ['A rewritten README'],
      successCriteria: ['Install steps work on a clean machine'],
    },
    rubric: {
      text: 'Rewrite the README so a new contributor can install and run the project in ten minutes.',
      asks: ['README'],
      themes: ['documentation'],
    },
  },
  {
    id: 'sales-outbound',
    field: 'sales',
    playbook: {
      title: 'Outbound plan for a payroll SaaS in Bengaluru',
      domain: 'Sales',
      durationDays: 10,
      deliverables: [
        'An ideal customer profile for 50–500 employee firms',
        'A list of 150 target accounts',
        'A three-touch cold email sequence',
        'A discovery call script',
      ],
      successCriteria: ['Every account meets the ICP', 'Reply rate above 5% in the pilot send'],
    },
    rubric: {
      text: `We sell payroll software to Indian companies with 50 to 500 employees and want a repeatable outbound motion.
- Define the ideal customer profile, including the buying committee.
- Build a list of at least 150 target accounts from LinkedIn Sales Navigator.
- Write a three-touch cold email sequence; each email must stay under 120 words.
- Prepare a discovery call script that handles the "we already use Excel" objection.
Nice to have: a forecast of meetings booked per week.`,
      domain: 'sales',
      asks: [
        'ideal customer profile',
        '150 target accounts',
        'cold email sequence',
        'discovery call script',
        'forecast',
      ],
      themes: ['communication'],
    },
  },
  {
    id: 'sales-hinglish',
    field: 'sales',
    playbook: {
      title: 'Pipeline forecast for our D2C distributor deals',
      domain: 'business development',
      durationDays: 4,
      deliverables: ['A 90-day pipeline forecast', 'A call script with objection handling'],
      successCriteria: ['Forecast ties to stated conversion rates'],
    },
    rubric: {
      text: 'Humein agle 90 din ka pipeline forecast chahiye, conversion rates ke saath. Distributors ke liye ek call script bhi banani hai jo price objection handle kare.',
      domain: 'sales',
      asks: ['pipeline forecast', 'call script'],
      themes: [],
    },
  },
  {
    id: 'writing-blog-series',
    field: 'content-writing',
    playbook: {
      title: 'Blog series on mutual funds for first-time investors',
      domain: 'Content writing',
      durationDays: 8,
      deliverables: [
        'Three 1,200-word articles',
        'An SEO keyword plan',
        'Meta descriptions for each article',
      ],
      successCriteria: [
        'Flesch reading ease above 60',
        'Each article cites at least two SEBI or AMFI sources',
      ],
    },
    rubric: {
      text: `Write three blog articles (about 1,200 words each) explaining mutual funds to first-time investors.
The articles must cite at least two official sources each (SEBI, AMFI).
Keep the language simple: a Flesch reading ease above 60 is expected.
Research the keywords first and map one primary keyword to each article.
No plagiarism: we run every draft through a checker.`,
      domain: 'writing',
      asks: ['three blog articles', 'official sources', 'Flesch reading ease', 'keywords', 'plagiarism'],
      themes: ['documentation', 'communication'],
    },
  },
  {
    id: 'writing-short',
    field: 'content-writing',
    playbook: {
      title: 'Founder story for our About page',
      domain: 'copy editing and blogging',
      durationDays: 2,
      deliverables: ['An 800-word founder story article'],
      successCriteria: ['Approved by the founder'],
    },
    rubric: {
      text: 'Write an 800-word article telling our founder story, edited for a general audience.',
      asks: ['founder story'],
      themes: ['communication'],
    },
  },
  {
    id: 'cross-platform-rn',
    field: 'mobile-cross-platform',
    playbook: {
      title: 'React Native app for a neighbourhood library',
      domain: 'Mobile',
      durationDays: 14,
      deliverables: [
        'An Expo app for iOS and Android',
        'Offline catalogue with sync',
        'Jest tests for the sync logic',
      ],
      successCriteria: ['Borrowing works offline', 'Runs on both platforms from one code base'],
    },
    rubric: {
      text: `Build a React Native (Expo) app where members browse the catalogue and reserve books.
- The app must work offline and sync reservations when back online.
- It must run on iOS and Android from one code base.
- Write Jest tests for the sync logic.
- Should support Hindi and English.
- Publish a test build through EAS.`,
      domain: 'React Native',
      asks: ['work offline', 'iOS and Android', 'Jest tests', 'Hindi and English', 'EAS'],
      themes: ['functionality', 'testing', 'deployment'],
    },
  },
  {
    id: 'cross-platform-flutter',
    field: 'mobile-cross-platform',
    playbook: {
      title: 'Flutter app for clinic appointment reminders',
      domain: 'app development',
      durationDays: 5,
      deliverables: ['A Flutter app with a booking screen', 'Push reminders the day before'],
      successCriteria: ['Works on a low-end Android phone'],
    },
    rubric: {
      text: 'we need a flutter app for our clinic. patients book a slot and get a push reminder the day before. must work on cheap android phones too.',
      domain: 'Flutter',
      asks: ['book a slot', 'push reminder', 'cheap android phones'],
      themes: [],
    },
  },
  {
    id: 'general-wedding',
    field: 'unknown',
    playbook: {
      title: 'Wedding seating plan',
      domain: 'Events',
      durationDays: 5,
      deliverables: ['A seating chart for 120 guests', 'Place cards'],
      successCriteria: ['No feuding relatives share a table'],
    },
    rubric: {
      text: 'Plan the seating for 120 guests so that feuding relatives never share a table, and design place cards.',
      asks: ['seating', 'place cards'],
      themes: [],
    },
  },
  // Added 2026-11-28 (issue 37) to tune the requirement reader: letters, exclusion lists, run-on
  // sentences and fields outside the knowledge base. Tuned on, like every case above.
  {
    id: 'letter-onboarding-checklist',
    field: 'unknown',
    playbook: {
      title: 'Onboarding checklist for new store managers',
      domain: 'Retail operations',
      durationDays: 6,
      deliverables: ['A first-week onboarding checklist and a buddy schedule'],
      successCriteria: ['Every task has an owner and a due day', 'Reviewed by two current managers'],
    },
    rubric: {
      text: `Dear Meera,

Hope you are doing well. As discussed in today's meeting, PFB the points for the onboarding checklist:

1. Checklist to cover the first 5 working days of a new store manager.
2. Kindly assign an owner and a due day to every task.
3. Buddy schedule pairing each new manager with a senior manager.
4. Mention the compliance trainings (POSH, fire safety) with their deadlines.

Please note that payroll setup is not part of this exercise.

Thanks & Regards,
Suresh
Regional HR`,
      domain: 'HR',
      asks: ['first 5 working days', 'owner and a due day', 'Buddy schedule', 'compliance trainings'],
      themes: [],
      outOfScope: ['payroll setup'],
      namesAvoid: ['Dear', 'Hope you', 'As discussed', 'PFB', 'Kindly', 'Mention', 'Please note', 'Regards'],
    },
  },
  {
    id: 'exclusions-prior-art',
    field: 'unknown',
    playbook: {
      title: 'Prior-art search for a seed-coating patent application',
      domain: 'Intellectual property',
      durationDays: 8,
      deliverables: ['A search log and a list of the ten closest prior-art documents'],
      successCriteria: ['At least 3 databases searched', 'Each document mapped to the claims it anticipates'],
    },
    rubric: {
      text: `Prior-art search, seed-coating patent (claims 1-12).
- Search Espacenet, Google Patents and Lens with a documented search string.
- Rank the ten closest documents and map each to the claims it anticipates.
- Keep a search log with dates and hit counts.
Do NOT include non-English patents.
Pls don't spend time on claim charts.
No need for a freedom-to-operate opinion.
Avoid paid databases.`,
      domain: 'Patents',
      asks: ['Espacenet', 'ten closest documents', 'search log'],
      themes: [],
      outOfScope: ['non-English patents', 'claim charts', 'freedom-to-operate opinion', 'paid databases'],
      namesAvoid: ['Avoids', 'Must:'],
    },
  },
  {
    id: 'run-on-offsite-catering',
    field: 'unknown',
    playbook: {
      title: 'Catering plan for a two-day company offsite',
      domain: 'Hospitality',
      durationDays: 10,
      deliverables: ['A menu for four meals and a caterer comparison'],
      successCriteria: [
        'Cost under INR 1,200 per head per day',
        'Every dietary need on the sign-up sheet covered',
      ],
    },
    rubric: {
      text: `For our offsite in Lonavala on 12-13 March we need someone to collect the dietary needs of all 85 attendees through a short form, design a menu for two lunches and two dinners that covers vegetarian, Jain and gluten-free guests, compare quotes from at least three caterers who can serve on site, keep the cost under INR 1,200 per head per day including taxes, and arrange a tasting with the chosen caterer a week before the event, because last year half the team went hungry at dinner and nobody had checked what the caterer could actually cook.`,
      domain: 'Hospitality',
      asks: ['dietary needs', 'menu for two lunches', 'three caterers', 'INR 1,200', 'tasting'],
      themes: [],
    },
  },
  {
    id: 'go-queue-worker',
    field: 'backend',
    playbook: {
      title: 'Queue worker in Go for invoice PDFs',
      domain: 'Backend',
      durationDays: 9,
      deliverables: [
        'A Go worker that renders invoice PDFs from queue messages',
        'Integration tests with go test',
      ],
      successCriteria: ['Processes 50 messages per second', 'A failed message is retried 3 times'],
    },
    rubric: {
      text: `Go service (Go 1.23, standard library plus one PDF package). It must consume invoice messages from a queue and render a PDF for each. Failed messages must be retried 3 times, then dead-lettered. Throughput should reach 50 messages per second. Write integration tests with go test.`,
      domain: 'Backend',
      asks: ['render a PDF', 'retried 3 times', '50 messages per second', 'integration tests'],
      themes: ['functionality', 'performance', 'testing'],
    },
  },
  {
    id: 'icd-coding-discharge',
    field: 'unknown',
    playbook: {
      title: 'ICD-10-CM coding of discharge summaries',
      domain: 'Clinical coding',
      durationDays: 5,
      deliverables: ['Principal and secondary diagnosis codes for 50 discharge summaries'],
      successCriteria: ['Coding accuracy of 95% on the audit sample'],
    },
    rubric: {
      text: `Code 50 discharge summaries in ICD-10-CM. The principal diagnosis must follow the official sequencing guidelines. Secondary diagnoses should include every comorbidity that affected care. Coding accuracy of at least 95% is expected on a 10-chart audit. Query the physician when documentation is unclear.`,
      domain: 'Clinical coding',
      asks: ['principal diagnosis', 'comorbidity', '95%', 'Query the physician'],
      themes: [],
      namesAvoid: ['Code quality', 'Testing'],
    },
  },
  {
    id: 'terse-lab-sop',
    field: 'unknown',
    playbook: {
      title: 'HPLC calibration SOP',
      domain: 'Analytical chemistry',
      durationDays: 4,
      deliverables: ['A calibration SOP and a system-suitability log sheet'],
      successCriteria: ['RSD of replicate injections under 2%'],
    },
    rubric: {
      text: 'HPLC calibration SOP. Five-point curve, r² ≥ 0.999. System suitability: RSD < 2% over 6 injections. Log sheet template.',
      domain: 'Chemistry',
      asks: ['Five-point curve', 'RSD < 2%', 'Log sheet'],
      themes: [],
    },
  },
  // Issue 37's second pass: fields outside the knowledge base whose words overlap one it knows.
  ...SECOND_PASS_CASES,
  ...THIRD_PASS_CASES,
  ...FOURTH_PASS_CASES,
  ...FIFTH_PASS_CASES,
];
