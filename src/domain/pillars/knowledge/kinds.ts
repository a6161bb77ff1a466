/**
 * Deliverables by what they are, whatever the field (issue 53): a dataset is collected, cleaned
 * and validated; a model is trained against a baseline; a report answers questions with
 * evidence; a drawing is measured, drawn to scale and checked; an event is run minute by minute.
 * A plan gives each deliverable its kind's steps, in the brief's own words (`{d}` is the
 * deliverable as the brief names it, `{h}` its head noun with "the": "a depth raster at 10 m"
 * → "the depth raster"), so two unrelated briefs of the same shape do not get the same skeleton, and a
 * dataset never gets the steps of a model.
 *
 * Kinds are data: words that identify one (matched as whole words on the deliverable, first
 * kind with a match wins, so the more specific kinds come first), the steps to produce one, and
 * for briefs of a field the knowledge base does not know, how the kick-off opens and how the
 * work is put together before hand-over.
 */

export type DeliverableKind = {
  key: string;
  /** Words or phrases that name this kind of deliverable (lower case, matched as whole words). */
  match: readonly string[];
  /** What an expert does to produce one, in order. */
  steps: readonly string[];
  /** How the kick-off opens when the brief's first deliverable is of this kind (`{n}`: the deliverables named). */
  kickoff: string;
  /** How the finished work is put together before hand-over (`{n}`: the deliverables named). */
  finish: string;
};

export const DELIVERABLE_KINDS: readonly DeliverableKind[] = [
  {
    key: 'labelled-dataset',
    match: ['labelled', 'labeled', 'annotated', 'annotation', 'annotations', 'tagged'],
    steps: [
      'Write the labelling guide for {h}: every label with its definition, an example and the cases that are easy to confuse',
      'Collect the items of {d} with their source and licence recorded for each',
      'Label {h}, double-labelling a random sample and measuring agreement between labellers (for example Cohen’s kappa)',
      'Resolve disagreements by the guide, update the guide where it was unclear, and count the items per label',
      'Write a data card for {h}: sources, licences, label definitions, counts and known gaps',
    ],
    kickoff: 'Agree the label set and what counts as a hard case for {n} before any item is labelled',
    finish: 'Re-count {n} per label and per source, and spot-check a random sample against the guide',
  },
  {
    key: 'dataset',
    match: [
      'dataset',
      'data set',
      'datasets',
      'database of',
      'table of',
      'records',
      'corpus',
      'register',
      'inventory',
    ],
    steps: [
      'Write the schema of {h} first: what one row is, every column with its type, unit and allowed values',
      'Gather the raw sources of {d} and keep them read-only, with a log of where each came from',
      'Clean {h} in a script that reruns from the raw files: duplicates, missing values and inconsistent spellings, each decision logged with the rows it touched',
      'Validate {h} with automated checks: unique keys, value ranges, counts per category against the source',
      'Write the data dictionary of {h}: each column’s meaning, type, unit, source and known gaps',
    ],
    kickoff: 'Agree what one row of {n} stands for and which sources are authoritative',
    finish: 'Rebuild {n} from the raw sources in one run and compare the row counts with the log',
  },
  {
    key: 'model',
    match: [
      'model',
      'classifier',
      'predictor',
      'regressor',
      'neural network',
      'scoring model',
      'forecasting model',
    ],
    steps: [
      'Fix the split for {h} before modelling (by time where the data has time), and keep the test part untouched',
      'Fit a simple baseline for {h} and record its score on the validation part',
      'Train {d} and tune it on the validation part only, logging each run’s settings and score',
      'Evaluate {h} once on the test part, with error analysis by segment and calibration where it outputs probabilities',
      'Write a model card for {h}: intended use, data, metrics with their uncertainty, and known limits',
    ],
    kickoff: 'Agree the target, the metric and the score to beat for {n}, and how the data will be split',
    finish:
      'Rerun {n} end to end from the raw data with a fixed seed and check the reported figures reproduce',
  },
  {
    key: 'drawing',
    match: [
      'drawing',
      'drawings',
      'floor plan',
      'site plan',
      'elevation',
      'elevations',
      'section',
      'cad',
      'blueprint',
      'layout',
      'map',
      'diagram',
      'route drawing',
      'schematic',
    ],
    steps: [
      'Measure or survey what {h} shows, and note every dimension with where it was taken',
      'Set up the sheet of {h}: scale, title block, north point or orientation, and a legend',
      'Draw {d} to scale, with dimensions and annotations on every element a builder or reader needs',
      'Check {h} against the rules it must meet (clearances, distances, codes or a checklist) and mark each one checked',
      'Issue {h} with a revision letter and a list of what changed',
    ],
    kickoff:
      'Collect the measurements, existing drawings and rules {n} must follow, and agree the scale and sheet size',
    finish: 'Cross-check {n} against each other: the same dimensions, levels and labels on every sheet',
  },
  {
    key: 'report',
    match: [
      'report',
      'memo',
      'findings',
      'assessment',
      'evaluation report',
      'review',
      'audit',
      'study',
      'analysis',
      'commentary',
      'note on',
      'brief on',
      'summary',
    ],
    steps: [
      'Outline {h} as the questions its reader needs answered, one section each',
      'Gather the evidence for each section of {h}: figures, measurements and sources, each with its reference',
      'Draft {d} with every finding followed by the figure or source behind it',
      'Put the answer first in {h}: a one-page summary of the findings and what to do about them',
      'Have {h} read by someone who did not write it, and resolve every comment',
    ],
    kickoff: 'Agree who reads {n}, what decision they will take with it and how long it may be',
    finish: 'Check every figure in {n} against its source, and every recommendation against a finding',
  },
  {
    key: 'integration',
    match: [
      'integration',
      'sync',
      'synchronisation',
      'connector',
      'webhook',
      'import',
      'export',
      'bridge',
      'feed',
    ],
    steps: [
      'Map the fields of {h} between the two systems, with the transformation and the owner of each',
      'Make {h} idempotent: a key for every record so a retry or a repeated event never writes twice',
      'Handle the failures of {h}: retries with back-off, a dead-letter list and an alert someone reads',
      'Reconcile {h}: a daily count and total on both sides, with the differences listed',
      'Test {d} against the other system’s sandbox with real-shaped records, including duplicates and refunds',
    ],
    kickoff: 'Get sandbox access and the field documentation of both systems {n} connects',
    finish: 'Run {n} for a full day on the sandbox and reconcile both sides to zero differences',
  },
  {
    key: 'screen',
    match: [
      'screen',
      'screens',
      'page',
      'pages',
      'view',
      'ui',
      'interface',
      'form',
      'dashboard',
      'app',
      'website',
    ],
    steps: [
      'Sketch {h} with its content and actions, and walk a user’s task through it',
      'List the states of {h}: loading, empty, error, offline and the longest content',
      'Build {d} from the sketch, one state at a time',
      'Try {h} on the smallest and largest target devices, with the keyboard or a screen reader, and fix what breaks',
    ],
    kickoff: 'List the users of {n} and the tasks they come to do, most frequent first',
    finish: 'Walk every user task through {n} end to end, as a first-time user would',
  },
  {
    key: 'event',
    match: [
      'event',
      'concert',
      'conference',
      'fair',
      'festival',
      'ceremony',
      'wedding',
      'sports day',
      'meetup',
      'launch event',
      'webinar',
      'run-of-show',
      'run of show',
      'programme of',
    ],
    steps: [
      'Write the run-of-show of {h} minute by minute, with who is on and who is responsible',
      'Book what {h} needs (venue, equipment, vendors) and confirm each in writing with its time',
      'Draw up the roster of people for {h}, each with a role and a briefing',
      'Plan for what can go wrong at {h}: first aid, weather, a late speaker or performer, with who acts',
      'Walk through {h} on site with the leads before the day',
    ],
    kickoff: 'Fix the date, place, audience size and budget of {n}, and who decides on the day',
    finish: 'Hold a walk-through of {n} with everyone responsible and close every open point',
  },
  {
    key: 'schedule',
    match: ['schedule', 'timetable', 'roster', 'rota', 'calendar', 'itinerary', 'rehearsal'],
    steps: [
      'List every slot {h} must fill, with its time, its duration and who is needed',
      'Order {h} by fixed dates and dependencies, leaving a buffer before each deadline',
      'Share {d} with everyone in it and collect clashes and absences',
      'Publish {h} as one version that everyone uses, and note who changes it',
    ],
    kickoff: 'Collect the fixed dates, availabilities and constraints {n} must respect',
    finish: 'Check {n} has no clash, no one double-booked and a buffer before each deadline',
  },
  {
    key: 'visual',
    match: [
      'poster',
      'logo',
      'banner',
      'flyer',
      'brochure',
      'booklet',
      'tiles',
      'tile',
      'illustration',
      'artwork',
      'infographic',
      'packaging',
      'signage',
    ],
    steps: [
      'Collect the content and references for {h}: text, logos, colours and the sizes it must come in',
      'Sketch two or three concepts for {h} and choose one with the brief owner',
      'Lay out {d} on a grid, with the hierarchy readable at the smallest size it will be seen',
      'Prepare the production files of {h} to specification (colour mode, bleed, resolution, sizes) and proof them',
    ],
    kickoff: 'Agree the sizes, formats and deadlines {n} must be produced in',
    finish:
      'Proof {n} at actual size, in print and on a phone, and check every text against the approved copy',
  },
  {
    key: 'media',
    match: [
      'film',
      'video',
      'teaser',
      'trailer',
      'episode',
      'episodes',
      'podcast',
      'recording',
      'audio',
      'edit',
      'reel',
    ],
    steps: [
      'Log the footage or recordings for {h} and mark the usable takes',
      'Assemble a rough cut of {d} and review it against the brief',
      'Refine {h} to a fine cut: timing, transitions and audio levels',
      'Finish {h}: colour or loudness to target, captions, and an export to every required format',
    ],
    kickoff: 'Agree the running times, formats and delivery specs of {n}',
    finish: 'Watch or listen to {n} end to end on the target devices and check them against the specs',
  },
  {
    key: 'lesson',
    match: ['lesson', 'lessons', 'curriculum', 'course', 'training', 'module', 'workshop plan', 'syllabus'],
    steps: [
      'Write the learning objectives of {h}: what a learner can do at the end',
      'Plan the activities of {h} with timings, each tied to an objective',
      'Prepare the materials and a short assessment for {h}',
      'Try {h} with a few learners and adjust the timings and the hard parts',
    ],
    kickoff: 'Agree who the learners of {n} are, what they know already and how much time there is',
    finish: 'Run through {n} in order and check each objective has an activity and an assessment',
  },
  {
    key: 'fieldwork',
    match: [
      'sampling',
      'samples',
      'sample',
      'measurements',
      'interviews',
      'fieldwork',
      'site visits',
      'inspection',
      'survey of',
    ],
    steps: [
      'Write the protocol for {h}: where, when, how many and how each is recorded',
      'Prepare the forms, equipment and permissions {h} needs, and test them once',
      'Carry out {d}, logging each with its place, time and who did it',
      'Check the quality of {h}: repeats, blanks or a second person on a share of them, and note every deviation',
    ],
    kickoff: 'Agree the sampling frame and the schedule of {n}, and get the permissions',
    finish: 'Check {n} are complete against the protocol and every deviation is recorded',
  },
  {
    key: 'document',
    match: [
      'document',
      'policy',
      'guide',
      'manual',
      'handbook',
      'sop',
      'procedure',
      'proposal',
      'agreement',
      'contract',
      'letter',
      'faq',
      'guidelines',
      'checklist',
      'codebook',
      'glossary',
      'data dictionary',
      'specification',
      'template',
      'plan',
      'translation',
      'post',
      'posts',
      'copy',
      'article',
      'script',
    ],
    steps: [
      'Outline {h} against what it must cover (the template, regulation or brief), one heading per requirement',
      'Draft {d} in the reader’s words, with every rule or claim traced to its source',
      'Check {h} against the rules it must comply with, clause by clause, and note each reference',
      'Have {h} reviewed by its owner and one reader, and resolve every comment before sign-off',
    ],
    kickoff: 'Collect what {n} must comply with or follow (template, regulation, style) and who approves it',
    finish: 'Read {n} as its reader would, and check every cross-reference and defined term',
  },
];

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const PATTERNS = DELIVERABLE_KINDS.map((k) => ({
  kind: k,
  re: new RegExp(`(?:^|[^\\p{L}])(?:${k.match.map(escapeRegExp).join('|')})(?![\\p{L}])`, 'iu'),
}));

/** The kind of a deliverable, by the first kind whose words it names; null when none does. */
export function kindOf(deliverable: string): DeliverableKind | null {
  return PATTERNS.find((p) => p.re.test(deliverable))?.kind ?? null;
}
