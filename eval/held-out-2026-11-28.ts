/**
 * HELD-OUT SET, written 2026-11-28. NEVER TUNED ON.
 *
 * These briefs were written, with their checks, before any change to the engine that the
 * held-out figures report on, and committed on their own so the history shows it. `npm run
 * eval` runs them and prints their figures beside the tuning set's (`eval/briefs.ts`), but no
 * rule of the engine may be chosen by looking at a result here: tune on `eval/briefs.ts` only,
 * and report this set as it comes out. When this set has been looked at enough that it no
 * longer says anything new, write a fresh one with a new date and keep this one as it is.
 *
 * Most briefs come from fields the knowledge base does not cover (medical coding, contract
 * review, flood mapping, actuarial work, translation, …), in phrasings the tuning set does not
 * have: bullets, prose, one sentence of over 200 words, fragments, exclusion lists ("do NOT
 * …", "pls don't …", "no need for …", "avoid …"), Indian-English business letters ("PFB", "As
 * discussed", "Kindly", "Please note", "Regards"), mixed numbering and terse one-liners.
 *
 * Every case carries its checks as data (see `HeldOutCase`); `eval/run.ts` turns each into a
 * pass or a miss and counts them.
 */
import type { FieldKey } from '../src/domain/pillars/knowledge/fields';
import type { PlaybookBrief } from '../src/domain/pillars/types';

export type HeldOutCase = {
  id: string;
  /** What a person would file the brief under, in words; unrelated briefs are paired by it. */
  label: string;
  /** The knowledge-base field the brief belongs to, or `unknown` when none of them fits. */
  field: Exclude<FieldKey, 'general'> | 'unknown';
  playbook: {
    brief: PlaybookBrief;
    /** Phrases (case-insensitive) some task other than the hand-over must contain: a step the plan needs. */
    mustDo: string[];
    /** Phrases (case-insensitive) no task may contain: another field's practice. */
    mustAvoid: string[];
    /** Substrings no tutorial link may contain (another field's or another language's material). */
    linksAvoid?: string[];
  };
  rubric: {
    text: string;
    domain?: string;
    /** Phrases that must appear in some criterion's source or description: the asks a reader would list. */
    asks: string[];
    /** Phrases that must appear in the rubric's `outOfScope` list and in no criterion's name or source. */
    outOfScope: string[];
    /** Phrases (case-insensitive) no criterion name may contain: letter formulas, company descriptions, another field's labels. */
    namesAvoid: string[];
    /** Phrases (case-insensitive) no level descriptor may contain: another field's vocabulary. */
    levelsAvoid: string[];
  };
};

export const HELD_OUT_CASES: readonly HeldOutCase[] = [
  {
    id: 'meddra-coding-letter',
    label: 'medical coding',
    field: 'unknown',
    playbook: {
      brief: {
        title: 'MedDRA and WHODrug coding of a phase II safety dataset',
        domain: 'Pharmacovigilance',
        durationDays: 10,
        deliverables: [
          'Adverse event verbatims coded to MedDRA 27.0 preferred terms',
          'Concomitant medications coded to WHODrug Global B3',
          'A query log for ambiguous verbatims',
        ],
        successCriteria: [
          'At least 98% of verbatims coded at first pass',
          'Every uncoded term has a query raised within 2 working days',
        ],
      },
      mustDo: ['preferred term', 'WHODrug', 'query', '98%'],
      mustAvoid: ['unit test', 'repository', 'code review', 'linter', 'kernel'],
    },
    rubric: {
      text: `Dear Team,

As discussed on yesterday's call, PFB the scope for the coding activity on Study XR-204.

1. All adverse event verbatims must be coded to MedDRA v27.0 at the Preferred Term and Lowest Level Term.
2. Concomitant medications to be coded using WHODrug Global B3 format.
3. Ambiguous verbatims should be queried to the site, with the query text in the log.
4. Coding consistency across the study must be reviewed before database lock.

Kindly note that SAE reconciliation is not part of this activity.

Regards,
Priya
Clinical Data Management`,
      domain: 'Medical coding',
      asks: ['MedDRA', 'WHODrug', 'queried', 'consistency'],
      outOfScope: ['SAE reconciliation'],
      namesAvoid: ['Code quality', 'PFB', 'As discussed', 'Kindly', 'Regards', 'Dear', 'Avoids'],
      levelsAvoid: ['maintainab', 'refactor', 'readable code', 'linter', 'OWASP'],
    },
  },
  {
    id: 'contract-review-exclusions',
    label: 'contract review',
    field: 'unknown',
    playbook: {
      brief: {
        title: 'Review of a master services agreement',
        domain: 'Legal',
        durationDays: 5,
        deliverables: [
          'A clause-by-clause risk table and a redline of the limitation of liability clause',
          'A one-page summary for the CFO',
        ],
        successCriteria: ['Every clause rated high, medium or low risk', 'Summary fits on one page'],
      },
      mustDo: ['risk table', 'redline', 'one page'],
      mustAvoid: ['OWASP', 'penetration', 'threat model', 'deploy'],
    },
    rubric: {
      text: `We need a first-pass review of the attached MSA with a cloud vendor.
- Flag every clause that shifts risk to us: indemnity, limitation of liability, termination, data protection.
- Propose redline wording for the limitation of liability clause.
- Rate each clause high, medium or low risk.
- Summarise the top five issues for the CFO in plain English.
Do NOT include a review of the SOW annexures.
Pls don't spend time on formatting or numbering of clauses.
No need for a governing-law opinion.`,
      domain: 'Contract review',
      asks: ['shifts risk', 'redline', 'high, medium or low', 'top five issues'],
      outOfScope: ['SOW annexures', 'formatting or numbering', 'governing-law opinion'],
      namesAvoid: ['Avoids', 'Security', 'Must:'],
      levelsAvoid: ['OWASP', 'vulnerab', 'injection', 'secure coding'],
    },
  },
  {
    id: 'flood-mapping-gis',
    label: 'flood mapping',
    field: 'unknown',
    playbook: {
      brief: {
        title: 'Flood inundation map for the Mithi river catchment',
        domain: 'GIS',
        durationDays: 14,
        deliverables: [
          'A flood extent layer and a depth raster for the 100-year return period',
          'A printable A3 map with legend and scale bar',
        ],
        successCriteria: [
          'All layers reprojected to UTM zone 43N (EPSG:32643)',
          'Depth raster at 10 m resolution or finer',
        ],
      },
      mustDo: ['flood extent', 'depth raster', 'EPSG:32643', '10 m'],
      mustAvoid: ['kernel', 'distribution of the outcome', 'train', 'profile the dataset'],
      linksAvoid: ['pandas', 'scikit-learn', 'jupyter'],
    },
    rubric: {
      text: `Produce flood inundation mapping for the Mithi river using the 30 m SRTM DEM and the 2005 flood gauge records. The extent layer must be reprojected to UTM zone 43N (EPSG:32643) before any area is measured. Depth should be computed as water surface minus ground elevation at 10 m resolution. Deliver an A3 map with a legend, scale bar and north arrow. Avoid using any commercial GIS licences; QGIS is enough.`,
      domain: 'GIS',
      asks: ['reprojected', 'Depth', 'A3 map'],
      outOfScope: ['commercial GIS licences'],
      namesAvoid: ['Avoids', 'Data handling', 'Modelling'],
      levelsAvoid: ['train', 'model accuracy', 'kernel'],
    },
  },
  {
    id: 'actuarial-reserving',
    label: 'actuarial',
    field: 'unknown',
    playbook: {
      brief: {
        title: 'IBNR reserving for a motor portfolio',
        domain: 'Actuarial',
        durationDays: 12,
        deliverables: [
          'Paid and incurred loss triangles by accident year',
          'Chain-ladder and Bornhuetter-Ferguson IBNR estimates',
          'A reserving memo for the appointed actuary',
        ],
        successCriteria: [
          'Development factors selected with a stated rationale',
          'Reserve range given at the 75th percentile',
        ],
      },
      mustDo: ['loss triangles', 'chain-ladder', 'Bornhuetter-Ferguson', '75th percentile'],
      mustAvoid: ['Break paid and incurred', 'first complete draft of', 'kernel'],
    },
    rubric: {
      text: `Motor TP book, accident years 2015-2024. Build paid and incurred triangles; project ultimates with chain-ladder and BF; select development factors with reasons; give a reserve range at the 75th percentile using bootstrap. Memo to the appointed actuary, max 6 pages.`,
      domain: 'Actuarial',
      asks: ['triangles', 'chain-ladder', 'development factors', '75th percentile', 'Memo'],
      outOfScope: [],
      namesAvoid: ['Modelling & evaluation', 'Data handling'],
      levelsAvoid: ['machine learning', 'overfit', 'held-out test set'],
    },
  },
  {
    id: 'translation-legal-hindi',
    label: 'translation',
    field: 'unknown',
    playbook: {
      brief: {
        title: 'English to Hindi translation of a tenancy agreement',
        domain: 'Translation',
        durationDays: 6,
        deliverables: ['A Hindi translation of the 14-page agreement', 'A bilingual glossary of legal terms'],
        successCriteria: ['Reviewed by a second translator', 'Defined terms translated consistently'],
      },
      mustDo: ['glossary', 'second translator', 'consistent'],
      mustAvoid: ['Break a Hindi translation', 'first complete draft of a bilingual', 'deploy'],
    },
    rubric: {
      text: `translate tenancy agreement EN to Hindi. 14 pages. legal register, not colloquial. defined terms (Licensor, Licensee, Premises) same rendering throughout. glossary of terms as a separate sheet. second translator to review. no need to translate the stamp paper text.`,
      domain: 'Translation',
      asks: ['legal register', 'defined terms', 'glossary', 'second translator'],
      outOfScope: ['stamp paper'],
      namesAvoid: ['Avoids', 'Documentation'],
      levelsAvoid: ['code', 'API'],
    },
  },
  {
    id: 'go-service',
    label: 'Go backend',
    field: 'backend',
    playbook: {
      brief: {
        title: 'Rate-limited URL shortener in Go',
        domain: 'Backend',
        durationDays: 10,
        deliverables: [
          'A Go HTTP service with create and redirect endpoints',
          'Table-driven tests with go test',
        ],
        successCriteria: [
          'Redirects in under 20 ms at p99',
          'Returns 429 after 100 requests per minute per IP',
        ],
      },
      mustDo: ['go test', '429'],
      mustAvoid: ['npm', 'package.json', 'Node.js'],
      linksAvoid: ['nodejs.org', 'typescriptlang', 'vitest'],
    },
    rubric: {
      text: `Write a URL shortener in Go (net/http, no frameworks). It must create short links and redirect with 301. Rate-limit to 100 requests per minute per IP and answer 429 beyond that. Write table-driven tests. Redirects should take under 20 ms at p99.`,
      domain: 'Backend',
      asks: ['short links', '100 requests per minute', 'table-driven tests', '20 ms'],
      outOfScope: [],
      namesAvoid: ['Avoids'],
      levelsAvoid: ['Node.js', 'npm'],
    },
  },
  {
    id: 'run-on-sentence-event',
    label: 'conference logistics',
    field: 'unknown',
    playbook: {
      brief: {
        title: 'Logistics plan for a 300-person regional conference',
        domain: 'Event management',
        durationDays: 20,
        deliverables: [
          'A venue shortlist and a budget by cost head',
          'A run-of-show for both days',
          'A vendor contact sheet',
        ],
        successCriteria: ['Total cost under INR 18 lakh', 'Venue within 5 km of the railway station'],
      },
      mustDo: ['venue shortlist', 'budget', 'run-of-show', 'INR 18 lakh', '5 km'],
      mustAvoid: ['Break a venue shortlist', 'first complete draft of'],
    },
    rubric: {
      text: `We are organising a two-day regional conference for about 300 dealers in Nagpur in February and we need someone to shortlist three venues within 5 km of the railway station that can seat 300 people theatre-style with a separate dining hall, prepare a budget broken down by venue, catering, AV, travel and printing that stays under INR 18 lakh, draft a run-of-show for both days with timings for each session and break, arrange quotes from at least two AV vendors and two caterers, prepare a contact sheet of every vendor with their name, phone and the service they provide, plan airport and station pick-ups for the 40 outstation speakers and guests, and write a short risk list covering power cuts, late speakers and rain, since the last event we held ran over budget by a wide margin and the dining hall could not seat everyone at once, which our regional head has asked us to make sure never happens again this time.`,
      domain: 'Events',
      asks: ['three venues', 'budget', 'run-of-show', 'quotes', 'contact sheet', 'pick-ups', 'risk list'],
      outOfScope: [],
      namesAvoid: ['Wake', 'Areas', 'Source'],
      levelsAvoid: ['code', 'API'],
    },
  },
  {
    id: 'terse-oneliner-soil',
    label: 'soil survey',
    field: 'unknown',
    playbook: {
      brief: {
        title: 'Soil sampling plan',
        domain: 'Agronomy',
        durationDays: 3,
        deliverables: ['Sampling grid and lab submission sheet'],
        successCriteria: ['One composite sample per 2 hectares'],
      },
      mustDo: ['sampling grid', 'lab submission sheet', '2 hectares'],
      mustAvoid: ['repository', 'deploy'],
    },
    rubric: {
      text: 'Soil sampling plan for 40 ha farm, 1 composite per 2 ha, pH/NPK/OC tests.',
      asks: ['Soil sampling plan', '2 ha', 'pH/NPK/OC'],
      outOfScope: [],
      namesAvoid: [],
      levelsAvoid: ['code'],
    },
  },
  {
    id: 'saas-sales-letter',
    label: 'B2B sales deck',
    field: 'sales',
    playbook: {
      brief: {
        title: 'Sales deck for mid-market HR teams',
        domain: 'Sales',
        durationDays: 7,
        deliverables: ['A 12-slide sales deck', 'An objection-handling sheet'],
        successCriteria: ['Deck tested in two discovery calls'],
      },
      mustDo: ['objection', 'discovery call'],
      mustAvoid: ['repository', 'kernel'],
    },
    rubric: {
      text: `Hi Rahul,

Greetings from PayNest! We are a Bengaluru-based SaaS company providing payroll software to 600+ SMEs.

As discussed, PFB the requirements for the sales deck:
a) 12 slides max, aimed at HR heads of 200-1000 employee companies.
b) Include ROI calculation with the customer's own headcount.
c) Mention our compliance with EPF and ESI rules.
d) Kindly add one customer case study from manufacturing.

Please note the deck should not include pricing.

Regards,
Anita`,
      domain: 'Sales',
      asks: ['12 slides', 'ROI', 'EPF and ESI', 'case study'],
      outOfScope: ['pricing'],
      namesAvoid: [
        'PayNest',
        'Bengaluru',
        'SaaS company',
        'As discussed',
        'PFB',
        'Kindly',
        'Mention',
        'Please note',
        'Greetings',
        'Avoids',
      ],
      levelsAvoid: ['code'],
    },
  },
  {
    id: 'rust-cli-fragments',
    label: 'command-line tool',
    field: 'unknown',
    playbook: {
      brief: {
        title: 'Log deduplication CLI',
        domain: 'Rust',
        durationDays: 8,
        deliverables: ['A Rust CLI that dedupes lines across large files', 'Benchmarks against sort -u'],
        successCriteria: ['Handles a 10 GB file with under 500 MB of memory'],
      },
      mustDo: ['benchmark', '10 GB', '500 MB'],
      mustAvoid: ['npm', 'Node.js', 'pandas'],
      linksAvoid: ['nodejs.org', 'pandas', 'react.dev'],
    },
    rubric: {
      text: `Rust CLI. Dedupes lines across large files (10 GB+). Streaming, bounded memory — under 500 MB. Keeps first occurrence order. Benchmarks vs sort -u. Unit tests for edge cases (empty lines, CRLF).`,
      domain: 'Rust',
      asks: ['Dedupes lines', '500 MB', 'first occurrence order', 'sort -u', 'Unit tests'],
      outOfScope: [],
      namesAvoid: ['Dedupes lines across large', 'Written'],
      levelsAvoid: [],
    },
  },
  {
    id: 'hr-policy-mixed-numbering',
    label: 'HR policy',
    field: 'unknown',
    playbook: {
      brief: {
        title: 'Remote work policy for a 150-person company',
        domain: 'Human resources',
        durationDays: 9,
        deliverables: ['A remote work policy document', 'An FAQ for managers'],
        successCriteria: [
          'Compliant with the Shops and Establishments Act',
          'Approved by the leadership team',
        ],
      },
      mustDo: ['remote work policy', 'FAQ', 'Shops and Establishments Act'],
      mustAvoid: ['repository', 'kernel', 'deploy'],
    },
    rubric: {
      text: `Remote work policy — requirements
1. Eligibility: which roles can work remotely and for how many days a week.
2. Equipment allowance, with a cap per employee.
  a. Internet reimbursement up to INR 1,500 a month.
  b. Laptop provided by the company.
3) Working hours and core overlap hours must be defined.
iv. Data security expectations at home.
- Leave and attendance rules stay as they are; avoid rewriting the leave policy.`,
      domain: 'HR',
      asks: ['Eligibility', 'Equipment allowance', 'INR 1,500', 'core overlap hours', 'Data security'],
      outOfScope: ['leave policy'],
      namesAvoid: ['Avoids', 'Areas'],
      levelsAvoid: ['OWASP', 'encryption at rest'],
    },
  },
  {
    id: 'podcast-production',
    label: 'podcast production',
    field: 'unknown',
    playbook: {
      brief: {
        title: 'Pilot episode of a farming podcast',
        domain: 'Audio production',
        durationDays: 15,
        deliverables: ['A 25-minute edited pilot episode', 'Show notes and a transcript'],
        successCriteria: ['Loudness at -16 LUFS', 'Guest consent form signed'],
      },
      mustDo: ['edited pilot', 'transcript', '-16 LUFS', 'consent'],
      mustAvoid: ['Break a 25-minute', 'first complete draft of a 25-minute'],
    },
    rubric: {
      text: `We want a pilot episode of a podcast for small farmers in Marathi. Record a 25-minute interview with one farmer and one agronomist. Edit out long pauses and background noise, and master to -16 LUFS. Write show notes and a full transcript. Get a signed consent form from each guest. No need for music or jingles yet.`,
      domain: 'Podcast',
      asks: ['25-minute interview', 'background noise', '-16 LUFS', 'show notes', 'consent form'],
      outOfScope: ['music or jingles'],
      namesAvoid: ['Avoids', 'Performance'],
      levelsAvoid: ['code', 'latency'],
    },
  },
  {
    id: 'tender-evaluation-letter',
    label: 'procurement',
    field: 'unknown',
    playbook: {
      brief: {
        title: 'Technical evaluation of bids for water meters',
        domain: 'Procurement',
        durationDays: 10,
        deliverables: ['A bid comparison sheet and a technical evaluation report'],
        successCriteria: ['Every bid scored against the 8 technical parameters'],
      },
      mustDo: ['bid comparison sheet', 'technical evaluation report', '8 technical parameters'],
      mustAvoid: ['Break a bid comparison', 'first complete draft of a bid'],
    },
    rubric: {
      text: `Sir,

With reference to the tender no. MJP/2026/114 for supply of 20,000 ultrasonic water meters, kindly find below the scope of the technical evaluation.

The evaluator shall verify each bidder's compliance with IS 779 and the accuracy class stated in the tender. Past supply orders of at least 5,000 meters must be checked against the documents submitted. A comparison sheet with scores against the 8 technical parameters is required. Please note that the financial bids are not to be opened at this stage.

Thanking you,
Executive Engineer`,
      domain: 'Procurement',
      asks: ['IS 779', '5,000 meters', 'comparison sheet'],
      outOfScope: ['financial bids'],
      namesAvoid: ['Thanking', 'Sir', 'Kindly', 'Please note', 'With reference', 'Avoids'],
      levelsAvoid: ['code'],
    },
  },
  {
    id: 'clinical-sdtm',
    label: 'clinical data standards',
    field: 'unknown',
    playbook: {
      brief: {
        title: 'SDTM mapping of adverse events and labs',
        domain: 'Clinical data management',
        durationDays: 12,
        deliverables: ['SDTM AE and LB domains with a define.xml', 'A Pinnacle 21 validation report'],
        successCriteria: ['No Pinnacle 21 errors', 'Controlled terminology from the 2026-09 CDISC release'],
      },
      mustDo: ['AE', 'define.xml', 'Pinnacle 21'],
      mustAvoid: ['kernel', 'train', 'baseline model'],
      linksAvoid: ['pandas', 'scikit'],
    },
    rubric: {
      text: `Map raw AE and lab data to SDTM AE and LB domains following SDTMIG 3.4. Use CDISC controlled terminology (2026-09 release). Provide define.xml 2.1. Run Pinnacle 21 Community and resolve all errors; explain any remaining warnings.`,
      domain: 'Clinical data',
      asks: ['SDTM', 'controlled terminology', 'define.xml', 'Pinnacle 21'],
      outOfScope: [],
      namesAvoid: ['Data handling', 'Code quality'],
      levelsAvoid: ['machine learning'],
    },
  },
  {
    id: 'interior-design-prose',
    label: 'interior design',
    field: 'unknown',
    playbook: {
      brief: {
        title: 'Redesign of a 2BHK living room',
        domain: 'Interior design',
        durationDays: 14,
        deliverables: ['A floor plan and a 3D render', 'A bill of quantities with costs'],
        successCriteria: ['Total cost within INR 4 lakh', 'Seating for six'],
      },
      mustDo: ['floor plan', '3D render', 'bill of quantities', 'INR 4 lakh'],
      mustAvoid: ['Break a floor plan', 'first complete draft of'],
    },
    rubric: {
      text: `Our living room in a Pune 2BHK is 14 by 12 feet and feels cramped. We would like a layout that seats six for family visits, keeps the balcony door clear, and adds storage for books. Please give us a floor plan to scale and a 3D render. We also need a bill of quantities with costs; the total must stay within INR 4 lakh. We are not looking for any civil work or false ceiling.`,
      domain: 'Interior design',
      asks: ['seats six', 'floor plan', '3D render', 'bill of quantities', 'INR 4 lakh'],
      outOfScope: ['civil work or false ceiling'],
      namesAvoid: ['Avoids', 'Accessibility', 'Performance'],
      levelsAvoid: ['code', 'WCAG'],
    },
  },
  {
    id: 'survey-weighting',
    label: 'survey statistics',
    field: 'unknown',
    playbook: {
      brief: {
        title: 'Weighting a household survey to census margins',
        domain: 'Survey statistics',
        durationDays: 8,
        deliverables: ['Raking weights and a weighting report'],
        successCriteria: ['Weighted margins within 1 percentage point of census'],
      },
      mustDo: ['raking weights', 'weighting report', '1 percentage point'],
      mustAvoid: ['kernel', 'train/test'],
    },
    rubric: {
      text: `- rake weights to 2011 census margins (age x sex, district, urban/rural)
- trim weights above 5x the median
- report design effect and effective sample size
- weighted margins within 1 pp of census`,
      domain: 'Statistics',
      asks: ['census margins', 'trim weights', 'design effect', '1 pp'],
      outOfScope: [],
      namesAvoid: [],
      levelsAvoid: ['machine learning'],
    },
  },
  {
    id: 'video-edit-exclusions',
    label: 'video editing',
    field: 'unknown',
    playbook: {
      brief: {
        title: 'Product explainer video',
        domain: 'Video production',
        durationDays: 6,
        deliverables: ['A 90-second explainer cut and subtitles in English and Tamil'],
        successCriteria: ['Exported at 1080p, 30 fps'],
      },
      mustDo: ['explainer cut', 'subtitles', '1080p'],
      mustAvoid: ['Break a 90-second', 'first complete draft of a 90-second'],
    },
    rubric: {
      text: `Cut a 90-second explainer from the 40 minutes of footage we shot at the factory. Add English and Tamil subtitles. Export 1080p at 30 fps.
Avoid stock music with vocals.
Don't add a voice-over; the founder's interview carries the story.
No need for colour grading beyond basic correction.`,
      domain: 'Video',
      asks: ['90-second explainer', 'Tamil subtitles', '1080p'],
      outOfScope: ['stock music with vocals', 'voice-over', 'colour grading'],
      namesAvoid: ['Avoids', 'Performance'],
      levelsAvoid: ['code'],
    },
  },
  {
    id: 'gst-reconciliation-letter',
    label: 'tax reconciliation',
    field: 'finance',
    playbook: {
      brief: {
        title: 'GSTR-2B reconciliation for FY 2025-26',
        domain: 'Accounting',
        durationDays: 7,
        deliverables: ['A reconciliation workbook of purchase register against GSTR-2B'],
        successCriteria: ['Every mismatch above INR 1,000 explained'],
      },
      mustDo: ['GSTR-2B', 'INR 1,000'],
      mustAvoid: ['kernel', 'repository'],
    },
    rubric: {
      text: `Dear Sir/Madam,

Greetings of the day. As per our telephonic conversation, please find below the requirement.

We require reconciliation of our purchase register with GSTR-2B for all 12 months of FY 2025-26. Mismatches above INR 1,000 are to be listed vendor-wise with the reason. ITC to be reversed must be computed separately. Kindly share the workbook in Excel.

Warm regards,
Accounts Team`,
      domain: 'Finance',
      asks: ['GSTR-2B', 'vendor-wise', 'ITC', 'Excel'],
      outOfScope: [],
      namesAvoid: ['Greetings', 'As per our', 'Kindly', 'regards', 'Dear'],
      levelsAvoid: ['code'],
    },
  },
  {
    id: 'lesson-plan-terse',
    label: 'teaching',
    field: 'unknown',
    playbook: {
      brief: {
        title: 'Fractions unit for class 5',
        domain: 'Education',
        durationDays: 5,
        deliverables: ['Five lesson plans and an end-of-unit quiz'],
        successCriteria: ['Quiz covers all five learning outcomes'],
      },
      mustDo: ['lesson plans', 'quiz', 'five learning outcomes'],
      mustAvoid: ['Break five lesson plans', 'first complete draft of five'],
    },
    rubric: {
      text: 'Class 5 fractions. 5 lessons x 40 min. Hands-on activity each. End quiz, 15 questions, mapped to learning outcomes. NCERT aligned.',
      domain: 'Education',
      asks: ['5 lessons', 'Hands-on activity', '15 questions', 'NCERT'],
      outOfScope: [],
      namesAvoid: [],
      levelsAvoid: ['code'],
    },
  },
  {
    id: 'supply-chain-routing',
    label: 'logistics routing',
    field: 'unknown',
    playbook: {
      brief: {
        title: 'Delivery route plan for a dairy cooperative',
        domain: 'Supply chain',
        durationDays: 10,
        deliverables: ['Route maps and a vehicle schedule for 60 collection points'],
        successCriteria: ['Every collection point visited before 7 am', 'No more than 6 vehicles'],
      },
      mustDo: ['route maps', 'vehicle schedule', '7 am', '6 vehicles'],
      mustAvoid: ['Break route maps', 'first complete draft of route'],
    },
    rubric: {
      text: `The cooperative collects milk from 60 village points each morning. Plan routes so that every point is visited before 7 am, using at most 6 tankers of 5,000 litres. Minimise total kilometres driven. Show each route on a map and give a schedule per vehicle. Avoid national highway stretches during the 5-6 am toll window.`,
      domain: 'Logistics',
      asks: ['before 7 am', '6 tankers', 'total kilometres', 'schedule per vehicle'],
      outOfScope: [],
      namesAvoid: ['Performance'],
      levelsAvoid: ['code', 'latency'],
    },
  },
  {
    id: 'pharmacovigilance-narratives',
    label: 'medical writing',
    field: 'unknown',
    playbook: {
      brief: {
        title: 'Case narratives for serious adverse events',
        domain: 'Medical writing',
        durationDays: 8,
        deliverables: ['Twelve SAE case narratives'],
        successCriteria: ['Each narrative follows the CIOMS structure', 'Events coded with MedDRA terms'],
      },
      mustDo: ['narrative', 'CIOMS', 'MedDRA'],
      mustAvoid: ['unit test', 'code review', 'repository'],
    },
    rubric: {
      text: `Write case narratives for 12 serious adverse events from Study BN-77. Each narrative must follow the CIOMS structure and cite the MedDRA preferred term for every event. Causality assessment by the investigator should be quoted as given. Coding of new verbatims is handled by the coding team and is out of scope.`,
      domain: 'Medical writing',
      asks: ['case narratives', 'CIOMS', 'MedDRA preferred term', 'Causality'],
      outOfScope: ['Coding of new verbatims'],
      namesAvoid: ['Code quality', 'Avoids'],
      levelsAvoid: ['maintainab', 'refactor', 'linter'],
    },
  },
  {
    id: 'architecture-drawings',
    label: 'building design',
    field: 'unknown',
    playbook: {
      brief: {
        title: 'Sanction drawings for a G+2 residence',
        domain: 'Architecture',
        durationDays: 21,
        deliverables: ['Floor plans, elevations and a section', 'A FAR and setback compliance table'],
        successCriteria: ['FAR within 1.75', 'Front setback of at least 3 m'],
      },
      mustDo: ['elevations', 'FAR', '3 m'],
      mustAvoid: ['Break floor plans', 'first complete draft of floor'],
    },
    rubric: {
      text: `G+2 house on a 30x40 ft plot in Mysuru. Floor plans for all three floors, two elevations and one section, to 1:100. FAR must not exceed 1.75; front setback 3 m minimum. Provide a compliance table for the municipal submission. Structural design is by a separate consultant — not required from you.`,
      domain: 'Architecture',
      asks: ['Floor plans', 'FAR', 'setback', 'compliance table'],
      outOfScope: ['Structural design'],
      namesAvoid: ['Avoids', 'Deployment'],
      levelsAvoid: ['code'],
    },
  },
  {
    id: 'data-labelling-guidelines-avoid',
    label: 'annotation guidelines',
    field: 'unknown',
    playbook: {
      brief: {
        title: 'Annotation guidelines for street-sign photos',
        domain: 'Data annotation',
        durationDays: 6,
        deliverables: ['An annotation guideline with examples', 'A pilot batch of 200 labelled images'],
        successCriteria: ['Inter-annotator agreement of 0.8 kappa or higher'],
      },
      mustDo: ['guideline', '200', '0.8'],
      mustAvoid: ['Break an annotation', 'first complete draft of an annotation'],
    },
    rubric: {
      text: `We need annotation guidelines for labelling Indian street signs in photos (bounding boxes, 14 classes). Include at least two positive and two negative examples per class. Run a pilot on 200 images with two annotators and report Cohen's kappa; we expect 0.8 or higher. avoid labelling signs smaller than 16 px. pls don't train any model on it.`,
      domain: 'Annotation',
      asks: ['14 classes', 'negative examples', '200 images', "Cohen's kappa"],
      outOfScope: ['smaller than 16 px', 'train any model'],
      namesAvoid: ['Avoids', 'Modelling'],
      levelsAvoid: ['overfit'],
    },
  },
  {
    id: 'localisation-qa-letter',
    label: 'localisation QA',
    field: 'unknown',
    playbook: {
      brief: {
        title: 'Linguistic QA of a banking app in Bengali',
        domain: 'Localisation',
        durationDays: 5,
        deliverables: ['A linguistic bug log with screenshots'],
        successCriteria: ['Every screen of the onboarding flow reviewed'],
      },
      mustDo: ['bug log', 'screenshots', 'onboarding'],
      mustAvoid: ['Break a linguistic', 'first complete draft of a linguistic'],
    },
    rubric: {
      text: `Hello,

Hope you are doing well. As discussed over mail, we need linguistic QA of our banking app in Bengali. Please review every onboarding screen for truncation, wrong terminology and tone. Log each issue with a screenshot and the suggested fix. Please note that functional testing of the app is out of scope.

Thanks & Regards,
Localisation Desk`,
      domain: 'Localisation',
      asks: ['truncation', 'screenshot'],
      outOfScope: ['functional testing'],
      namesAvoid: ['Hope you', 'As discussed', 'Please note', 'Regards', 'Hello', 'Testing & verification'],
      levelsAvoid: ['unit test', 'code'],
    },
  },
  {
    id: 'geology-core-logging',
    label: 'geology',
    field: 'unknown',
    playbook: {
      brief: {
        title: 'Core logging of three exploration boreholes',
        domain: 'Geology',
        durationDays: 9,
        deliverables: ['Lithology logs and RQD values for each run'],
        successCriteria: ['RQD computed for every 1.5 m run'],
      },
      mustDo: ['lithology logs', 'RQD', '1.5 m'],
      mustAvoid: ['Break lithology', 'first complete draft of lithology'],
    },
    rubric: {
      text: `Log core from boreholes BH-1 to BH-3 (total 180 m). Describe lithology, weathering grade and discontinuities; compute RQD per 1.5 m run; photograph every core box wet and dry. Deliver logs in AGS format.`,
      domain: 'Geology',
      asks: ['lithology', 'RQD', 'photograph', 'AGS format'],
      outOfScope: [],
      namesAvoid: [],
      levelsAvoid: ['code'],
    },
  },
  {
    id: 'nutrition-meal-plan',
    label: 'nutrition',
    field: 'unknown',
    playbook: {
      brief: {
        title: 'Diabetic-friendly meal plan for a hostel mess',
        domain: 'Nutrition',
        durationDays: 7,
        deliverables: ['A 14-day menu and a recipe card for each dish'],
        successCriteria: ['Each meal under 60 g of carbohydrate', 'Cost under INR 90 per person per day'],
      },
      mustDo: ['menu', 'recipe card', '60 g', 'INR 90'],
      mustAvoid: ['Break a 14-day', 'first complete draft of a 14-day'],
    },
    rubric: {
      text: `Design a 14-day rotating menu for a college hostel mess (South Indian vegetarian) that is safe for diabetic students: each meal under 60 g carbohydrate, with the glycaemic load listed. Cost must stay under INR 90 per student per day. Provide a recipe card for every dish with quantities for 200 students. Do not include any supplements or medical advice.`,
      domain: 'Nutrition',
      asks: ['14-day rotating menu', '60 g carbohydrate', 'INR 90', 'recipe card'],
      outOfScope: ['supplements or medical advice'],
      namesAvoid: ['Avoids', 'Performance'],
      levelsAvoid: ['code'],
    },
  },
  {
    id: 'firmware-exclusions',
    label: 'embedded firmware',
    field: 'unknown',
    playbook: {
      brief: {
        title: 'Firmware for a soil-moisture sensor node',
        domain: 'Embedded systems',
        durationDays: 14,
        deliverables: ['ESP32 firmware that reads the sensor and sends LoRa packets', 'A power budget sheet'],
        successCriteria: ['Battery life of 12 months on two AA cells', 'A reading every 15 minutes'],
      },
      mustDo: ['LoRa', 'power budget', '12 months', '15 minutes'],
      mustAvoid: ['npm', 'Node.js', 'kernel'],
      linksAvoid: ['nodejs.org', 'react.dev'],
    },
    rubric: {
      text: `ESP32 firmware (ESP-IDF, C). Read the capacitive soil-moisture sensor every 15 minutes, send over LoRa, deep-sleep in between. Must last 12 months on two AA cells — show the power budget. OTA updates: not needed for this phase. Do NOT use Arduino libraries.`,
      domain: 'Embedded',
      asks: ['every 15 minutes', 'LoRa', 'deep-sleep', 'power budget'],
      outOfScope: ['OTA updates', 'Arduino libraries'],
      namesAvoid: ['Avoids', 'Deployment'],
      levelsAvoid: [],
    },
  },
  {
    id: 'museum-audio-guide',
    label: 'museum interpretation',
    field: 'unknown',
    playbook: {
      brief: {
        title: 'Audio guide scripts for a textile museum',
        domain: 'Museum interpretation',
        durationDays: 10,
        deliverables: ['Twelve 2-minute audio scripts', 'A large-print version of each script'],
        successCriteria: ['Each script read aloud in under 2 minutes', 'Facts checked with the curator'],
      },
      mustDo: ['audio scripts', 'large-print', 'curator'],
      mustAvoid: ['Break twelve', 'first complete draft of twelve'],
    },
    rubric: {
      text: `Write scripts for the audio guide of our textile gallery: 12 stops, 2 minutes each when read aloud, for visitors aged 12 and up. Facts to be checked with our curator. Provide large-print versions for visitors with low vision. Please avoid academic jargon.`,
      domain: 'Museum',
      asks: ['12 stops', 'curator', 'large-print'],
      outOfScope: [],
      namesAvoid: ['Accessibility', 'Performance', 'Please'],
      levelsAvoid: ['code', 'WCAG', 'screen reader'],
    },
  },
];
