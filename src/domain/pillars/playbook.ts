/**
 * Local playbook generation (pillar 1): a PlaybookBrief → dated milestones with tasks and
 * tutorial links, plus a preview of the rubric the work will be judged by.
 *
 * The plan follows the shape of most project work — plan, build (in one to three chunks of
 * deliverables), verify against the success criteria, deliver — trimmed to fit short briefs:
 * a one-day brief is a single milestone, a brief of a month or more gets all six. Days are
 * spread in proportion to the estimated effort of each phase.
 */
import { extractRubric } from './rubric-extraction';
import { contentStems, isImperative, lowerFirst, stemSet, truncateWords } from './text';
import { type CatalogueDomain, catalogueFor, entryKeywordStems, normaliseDomain } from './tutorial-catalogue';
import type { Milestone, Playbook, PlaybookBrief, Rubric, RubricPreview } from './types';

type Phase =
  | { kind: 'plan' }
  | { kind: 'build'; deliverables: string[]; withPlan: boolean }
  | { kind: 'verify' }
  | { kind: 'final'; withPlan: boolean; withVerify: boolean };

/** More days allow more checkpoints; beyond a month, six milestones are enough to steer by. */
function milestonesForDuration(days: number): number {
  if (days <= 1) return 1;
  if (days <= 3) return 2;
  if (days <= 7) return 3;
  if (days <= 14) return 4;
  if (days <= 30) return 5;
  return 6;
}

const MAX_BUILD_MILESTONES = 3;
const MAX_LINKS = 3;
/** A milestone stays a readable checklist (and inside the API's documented limits). */
const MAX_TASKS = 30;
const MAX_TASK_LENGTH = 1000;

/**
 * `prefix: item` tasks, one per item while they fit in `budget`; beyond that, items share
 * tasks ("Deliver: A; B"), so every item still appears verbatim in a task.
 */
function packTasks(prefix: string, items: string[], budget: number): string[] {
  if (items.length <= budget) return items.map((item) => `${prefix}: ${item}`);
  const perTask = Math.ceil(items.length / Math.max(1, budget));
  const out: string[] = [];
  let current: string[] = [];
  const flush = () => {
    if (current.length > 0) out.push(`${prefix}: ${current.join('; ')}`);
    current = [];
  };
  for (const item of items) {
    const longer = `${prefix}: ${[...current, item].join('; ')}`;
    if (current.length >= perTask || (current.length > 0 && longer.length > MAX_TASK_LENGTH)) flush();
    current.push(item);
  }
  flush();
  return out;
}

/** Splits items into `parts` contiguous chunks whose sizes differ by at most one. */
function chunk<T>(items: T[], parts: number): T[][] {
  const out: T[][] = [];
  let at = 0;
  for (let p = 0; p < parts; p++) {
    const size = Math.floor(items.length / parts) + (p < items.length % parts ? 1 : 0);
    out.push(items.slice(at, at + size));
    at += size;
  }
  return out;
}

function planPhases(days: number, deliverables: string[], criteria: string[]): Phase[] {
  const buildSlots = Math.max(1, Math.min(MAX_BUILD_MILESTONES, deliverables.length));
  const hasVerifyWork = criteria.length > 0 || deliverables.length > 1;
  const byWork = 1 + buildSlots + (hasVerifyWork ? 1 : 0) + 1;
  const n = Math.min(milestonesForDuration(days), byWork, days);
  if (n === 1) return [{ kind: 'final', withPlan: true, withVerify: true }];
  if (n === 2)
    return [
      { kind: 'build', deliverables, withPlan: true },
      { kind: 'final', withPlan: false, withVerify: true },
    ];
  if (n === 3)
    return [
      { kind: 'plan' },
      { kind: 'build', deliverables, withPlan: false },
      { kind: 'final', withPlan: false, withVerify: true },
    ];
  const builds = chunk(deliverables, n - 3).map(
    (part): Phase => ({ kind: 'build', deliverables: part, withPlan: false }),
  );
  return [
    { kind: 'plan' },
    ...builds,
    { kind: 'verify' },
    { kind: 'final', withPlan: false, withVerify: false },
  ];
}

/** Relative effort of a phase: building dominates, planning and delivery are short. */
function effort(phase: Phase, criteria: number): number {
  switch (phase.kind) {
    case 'plan':
      return 1;
    case 'build':
      return 2 * Math.max(1, phase.deliverables.length) + (phase.withPlan ? 0.5 : 0);
    case 'verify':
      return 1 + Math.min(2, criteria * 0.25);
    case 'final':
      return 1;
  }
}

/**
 * Due days for the phases: cumulative effort scaled to the duration, then nudged so days are
 * strictly increasing integers in 1..days with the last on `days`.
 */
function scheduleDays(efforts: number[], days: number): number[] {
  const total = efforts.reduce((a, b) => a + b, 0);
  const n = efforts.length;
  let cumulative = 0;
  const out = efforts.map((e) => {
    cumulative += e;
    return Math.round((cumulative / total) * days);
  });
  out[n - 1] = days;
  for (let i = 0; i < n; i++) out[i] = Math.max(out[i] ?? 1, i + 1, i > 0 ? (out[i - 1] ?? 0) + 1 : 1);
  for (let i = 0; i < n; i++) out[i] = Math.min(out[i] ?? days, days - (n - 1 - i));
  return out;
}

const SETUP_TASK: Readonly<Record<CatalogueDomain, string>> = {
  'web-development': 'Set up the repository, the toolchain and a test runner, and commit a running skeleton',
  backend: 'Set up the repository, a local database and a test runner, and commit a running skeleton',
  'data-science': 'Set up the repository and a reproducible environment, then load and explore the dataset',
  mobile:
    'Set up the project and run it on an emulator or a device, with the platform accessibility tools at hand',
  design: 'Set up a design file and gather existing material: brand, past research and analytics',
  devops: 'Set up the repository and a local environment that mirrors production',
  security: 'Set up an isolated test environment and agree the scope and rules of engagement',
  general: 'Set up a repository under version control for the work',
};

function rubricTask(preview: RubricPreview): string | null {
  const top = [...preview.criteria].sort((a, b) => b.weight - a.weight).slice(0, 2);
  if (top.length === 0) return null;
  const named = top.map((c) => `"${c.name}" (${c.weight}%)`).join(' and ');
  return `Read the rubric: the heaviest criteria are ${named}`;
}

/** Success criteria that share content words with some deliverables: checked while building them. */
function relatedCriteria(deliverables: string[], criteria: string[]): string[] {
  const words = new Set(deliverables.flatMap((d) => contentStems(d)));
  return criteria.filter((c) => contentStems(c).some((s) => words.has(s)));
}

type Context = {
  title: string;
  deliverables: string[];
  criteria: string[];
  domain: CatalogueDomain;
  preview: RubricPreview;
};

/** A habit worth repeating in every build milestone, in the form the domain works in. */
const PROGRESS_TASK: Readonly<Record<CatalogueDomain, string>> = {
  'web-development': 'Commit in small steps with messages that say why',
  backend: 'Commit in small steps with messages that say why',
  'data-science': 'Commit code and notebooks in small steps, so every result can be reproduced',
  mobile: 'Commit in small steps with messages that say why',
  design: 'Share work in progress early and note the feedback you get',
  devops: 'Commit in small steps with messages that say why, and keep every change reviewable',
  security: 'Log each finding as you go, with evidence and steps to reproduce',
  general: 'Commit in small steps with messages that say why',
};

function planTasks(ctx: Context): string[] {
  const tasks = [`Read the brief "${ctx.title}" and write down open questions and assumptions`];
  if (ctx.deliverables.length === 1) tasks.push('Break the deliverable into small steps and estimate them');
  if (ctx.deliverables.length > 1)
    tasks.push(
      `Break each of the ${ctx.deliverables.length} deliverables into small steps and estimate them`,
    );
  tasks.push(SETUP_TASK[ctx.domain]);
  if (ctx.criteria.length === 1) tasks.push('Decide how the success criterion will be checked');
  if (ctx.criteria.length > 1)
    tasks.push(`Decide how each of the ${ctx.criteria.length} success criteria will be checked`);
  const rubric = rubricTask(ctx.preview);
  if (rubric) tasks.push(rubric);
  return tasks;
}

function verifyTasks(ctx: Context, budget = MAX_TASKS): string[] {
  if (ctx.criteria.length === 0) return ['Test each deliverable end to end as its user would'];
  return packTasks('Verify', ctx.criteria, budget);
}

/**
 * A milestone's title and tasks, plus its topic: the words specific to this milestone (its
 * deliverables, criteria, setup), which choose its tutorial links before the generic tasks do.
 */
function milestoneFor(phase: Phase, ctx: Context): { title: string; tasks: string[]; topic: string[] } {
  switch (phase.kind) {
    case 'plan': {
      const tasks = planTasks(ctx);
      return {
        title: `Kick-off and plan: ${truncateWords(ctx.title, 70)}`,
        tasks,
        topic: [ctx.title, SETUP_TASK[ctx.domain]],
      };
    }
    case 'build': {
      const tasks = phase.withPlan ? planTasks(ctx).slice(0, 3) : [];
      if (phase.deliverables.length === 0) tasks.push(`Build a working first version of ${ctx.title}`);
      tasks.push(
        ...packTasks('Build a working first version of', phase.deliverables, MAX_TASKS - tasks.length - 4),
      );
      const related = relatedCriteria(phase.deliverables, ctx.criteria).slice(0, 3);
      for (const c of related) tasks.push(`Check progress against: ${c}`);
      tasks.push(PROGRESS_TASK[ctx.domain]);
      const [first] = phase.deliverables;
      const more = phase.deliverables.length - 1;
      const what =
        first === undefined ? ctx.title : `${truncateWords(first, 60)}${more > 0 ? ` (+${more} more)` : ''}`;
      return { title: `Build: ${what}`, tasks, topic: [...phase.deliverables, ...related] };
    }
    case 'verify': {
      const tasks = verifyTasks(ctx, MAX_TASKS - 3);
      const top = [...ctx.preview.criteria].sort((a, b) => b.weight - a.weight).slice(0, 2);
      for (const c of top) tasks.push(`Self-assess against the rubric criterion "${c.name}" (${c.weight}%)`);
      tasks.push('Fix the gaps found, then re-test');
      return {
        title: 'Test and refine against the success criteria',
        tasks,
        topic: [...ctx.criteria, ...top.map((c) => c.name)],
      };
    }
    case 'final': {
      const tasks = phase.withPlan ? [`Read the brief "${ctx.title}" and plan the work in short steps`] : [];
      // Verification and delivery share what is left of the task budget in proportion.
      const room = MAX_TASKS - tasks.length - 2;
      const verifying = phase.withVerify ? Math.max(1, ctx.criteria.length) : 0;
      const delivering = Math.max(1, ctx.deliverables.length);
      const verifyBudget =
        verifying + delivering <= room
          ? verifying
          : Math.max(1, Math.floor((room * verifying) / (verifying + delivering)));
      if (phase.withVerify) tasks.push(...verifyTasks(ctx, verifyBudget));
      if (ctx.deliverables.length === 0) tasks.push(`Deliver: ${ctx.title}`);
      tasks.push(...packTasks('Deliver', ctx.deliverables, MAX_TASKS - tasks.length - 2));
      tasks.push('Write a short hand-over note: what was built, how to run or review it, known limitations');
      tasks.push('Submit the work for review');
      return {
        title: `Deliver: ${truncateWords(ctx.title, 70)}`,
        tasks,
        topic: [...ctx.deliverables, ...(phase.withVerify ? ctx.criteria : [])],
      };
    }
  }
}

/**
 * Ranks catalogue entries by the keywords they share with a text: each fully matched keyword
 * phrase scores its word count; entries already linked by an earlier milestone lose half a
 * point (so milestones point to different pages); ties keep catalogue order, which puts the
 * domain's own entries first.
 */
function rankEntries(text: string, domain: string, used: Set<string>): string[] {
  const stems = stemSet(text);
  return catalogueFor(domain)
    .map((entry, order) => {
      let score = 0;
      for (const phrase of entryKeywordStems(entry))
        if (phrase.every((s) => stems.has(s))) score += phrase.length;
      if (score > 0 && used.has(entry.url)) score -= 0.5;
      return { url: entry.url, score, order };
    })
    .filter((e) => e.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map((e) => e.url);
}

/**
 * Up to three links for a milestone: matches for its topic first, topped up from its generic
 * tasks when the topic finds fewer than two, and the domain's overview entries when nothing
 * matches at all — so every milestone has at least one link, and every link is catalogued.
 */
function pickLinks(topic: string, everything: string, domain: string, used: Set<string>): string[] {
  const links = rankEntries(topic, domain, used).slice(0, MAX_LINKS);
  if (links.length < 2) {
    for (const url of rankEntries(everything, domain, used)) {
      if (links.length >= 2) break;
      if (!links.includes(url)) links.push(url);
    }
  }
  if (links.length > 0) return links;
  const overviews = catalogueFor(domain)
    .slice(0, 2)
    .map((e) => e.url);
  const fresh = overviews.filter((u) => !used.has(u));
  return fresh.length > 0 ? fresh : overviews;
}

function toPreview(rubric: Rubric): RubricPreview {
  return {
    criteria: rubric.criteria.map((c) => ({ id: c.id, name: c.name, weight: c.weight })),
    passThreshold: rubric.passThreshold,
  };
}

/**
 * The brief as requirement text for rubric extraction: each deliverable as "Must deliver …",
 * each success criterion as "Must …" (or "Must ensure …" when it is not an instruction).
 */
export function briefAsRequirementText(brief: PlaybookBrief): string {
  const clean = (s: string) => s.trim().replace(/[.;:!]+$/, '');
  const lines = [`# ${clean(brief.title)}`, ''];
  for (const d of brief.deliverables.map(clean).filter(Boolean))
    lines.push(`- Must deliver ${lowerFirst(d)}.`);
  for (const c of brief.successCriteria.map(clean).filter(Boolean))
    lines.push(isImperative(c) ? `- Must ${lowerFirst(c)}.` : `- Must ensure ${lowerFirst(c)}.`);
  return lines.join('\n');
}

/**
 * Generates a playbook for a brief.
 *
 * Guarantees: ids `m1`…; every `day` is an integer in 1..durationDays, strictly increasing,
 * the last equal to durationDays (a non-integer or non-positive duration is treated as
 * the nearest whole number of days, at least 1); each deliverable appears verbatim in a task
 * of the last milestone ("Deliver: …") and each success criterion in a "Verify: …" task
 * (several share one task only when a milestone would otherwise exceed 30 tasks);
 * every tutorial link is from the curated catalogue. `rubric_preview` comes from `rubric`
 * when given, else from `extractRubric` over the brief's own fields.
 */
export function generatePlaybook(brief: PlaybookBrief, rubric?: Rubric): Playbook {
  const days = Number.isFinite(brief.durationDays) ? Math.max(1, Math.round(brief.durationDays)) : 1;
  const unique = (items: string[]) => [...new Set(items.map((s) => s.trim()).filter(Boolean))];
  const deliverables = unique(brief.deliverables);
  const criteria = unique(brief.successCriteria);
  const title = brief.title.trim() || 'the project';
  const preview = toPreview(rubric ?? extractRubric(briefAsRequirementText(brief), { domain: brief.domain }));
  const ctx: Context = { title, deliverables, criteria, domain: normaliseDomain(brief.domain), preview };

  const phases = planPhases(days, deliverables, criteria);
  const dueDays = scheduleDays(
    phases.map((p) => effort(p, criteria.length)),
    days,
  );
  const used = new Set<string>();
  const milestones: Milestone[] = phases.map((phase, i) => {
    const { title: milestoneTitle, tasks, topic } = milestoneFor(phase, ctx);
    const links = pickLinks(topic.join('\n'), [milestoneTitle, ...tasks].join('\n'), brief.domain, used);
    for (const l of links) used.add(l);
    return { id: `m${i + 1}`, day: dueDays[i] ?? days, title: milestoneTitle, tasks, tutorial_links: links };
  });
  return { milestones, rubric_preview: preview };
}
