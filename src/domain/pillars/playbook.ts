/**
 * Local playbook generation (pillar 1): a PlaybookBrief → dated milestones with tasks and
 * tutorial links, plus a preview of the rubric the work will be judged by.
 *
 * Written from knowledge, not from echo: the brief's field (knowledge/detect.ts) and, for each
 * deliverable, its kind (an archetype in knowledge/fields.ts) give the steps an expert in that
 * field takes, in the field's own language. A deliverable none of the field's archetypes fits
 * borrows the archetype of another field that clearly names it (a logo in a marketing brief is
 * planned as visual design), and each success criterion is checked the way its subject calls
 * for (charts by reviewing the charts, a Flesch score with a readability tool), falling back to
 * the field's own way of checking. The plan is kick-off → one build milestone per deliverable
 * (up to four) → checks → integrate and hand over, trimmed to fit short briefs, so deliverables
 * are spread over the duration and the final milestone integrates rather than carrying all the
 * work. The kick-off is due within the first week whatever the duration, checking takes a
 * proportionate span and the build milestones get the bulk (see `scheduleDays`). Links come
 * only from the field's own catalogue entries; a brief the knowledge base does not recognise
 * gets a plainly general plan, no links and `confidence: "low"`.
 *
 * Deliverables and criteria that repeat (compared case-insensitively, ignoring surrounding
 * whitespace and trailing punctuation) are planned once, under their first spelling.
 */

import {
  type BriefLike,
  briefWords,
  checkFor,
  detectField,
  type PlanConfidence,
  planArchetype,
} from './knowledge/detect';
import type { Field } from './knowledge/fields';
import { type DeliverableKind, kindOf } from './knowledge/kinds';
import { quantitiesOf } from './requirements';
import { extractRubric } from './rubric-extraction';
import { isContentWord, isImperative, lowerFirst, truncateWords } from './text';
import { languagesNamed, linksFor } from './tutorial-catalogue';
import type { Milestone, Playbook, PlaybookBrief, Rubric, RubricPreview } from './types';

export type { PlanConfidence } from './knowledge/detect';

/** A milestone stays a readable checklist (and inside the API's documented limits). */
const MAX_TASKS = 30;
const MAX_TASK_LENGTH = 1000;
const MAX_BUILD_MILESTONES = 4;
const MAX_MILESTONES = 6;
/** Below this many days a separate checking milestone is not worth a date of its own. */
const MIN_DAYS_FOR_CHECK_MILESTONE = 10;
/**
 * The time the fixed phases take, as a share of the duration with a ceiling in days: a kick-off
 * is a few days' work however long the brief runs, checking is proportionate, and the build
 * milestones get the rest.
 */
const KICKOFF_SPAN = { share: 0.1, maxDays: 5 };
const CHECK_SPAN = { share: 0.15, maxDays: 14 };
const FINAL_SPAN = { share: 0.1, maxDays: 7 };

/** The comparison key of a deliverable or criterion: case, spacing and trailing punctuation ignored. */
const itemKey = (item: string) =>
  item
    .trim()
    .replace(/[\s.;:!?,]+$/, '')
    .replace(/\s+/g, ' ')
    .toLowerCase();

/**
 * Items without repeats: two items are the same when they differ only in case, surrounding
 * whitespace, runs of spaces or trailing punctuation; the first spelling (trimmed) is kept, and
 * blank items are dropped.
 */
export function distinctItems(items: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const item of items) {
    const key = itemKey(item);
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(item.trim());
  }
  return out;
}

/**
 * Items grouped for `prefix: item` tasks, one item per task while they fit in `budget`; beyond
 * that, items share tasks ("Hand over: A; B") up to `MAX_TASK_LENGTH` characters each, so every
 * item still appears verbatim in a task. Items of paragraph length may need more than `budget`
 * tasks then: the caller decides what to do with the overflow.
 */
function packGroups(prefix: string, items: string[], budget: number): string[][] {
  if (items.length <= budget) return items.map((item) => [item]);
  const perTask = Math.ceil(items.length / Math.max(1, budget));
  const out: string[][] = [];
  let current: string[] = [];
  const flush = () => {
    if (current.length > 0) out.push(current);
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

const packTasks = (prefix: string, items: string[], budget: number): string[] =>
  packGroups(prefix, items, budget).map((group) => `${prefix}: ${group.join('; ')}`);

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

/**
 * Due days for the phases. The kick-off takes 10 % of the duration but at most 5 days (so it is
 * due in the first week), the checking milestone 15 % but at most 14 days, and the integrate
 * and hand-over milestone 10 % but at most 7 days; the build milestones share what is left in
 * proportion to their deliverables (a single milestone takes the whole duration). Each phase is
 * due at the end of its span, rounded, then nudged so days are strictly increasing integers in
 * 1..days with the last on `days`.
 */
function scheduleDays(phases: Phase[], days: number): number[] {
  const fixed = (span: { share: number; maxDays: number }) => Math.min(span.share * days, span.maxDays);
  const fixedSpan = (phase: Phase): number | null => {
    switch (phase.kind) {
      case 'kickoff':
        return fixed(KICKOFF_SPAN);
      case 'check':
        return fixed(CHECK_SPAN);
      case 'final':
        return fixed(FINAL_SPAN);
      default:
        return null;
    }
  };
  const weight = (phase: Phase) => (phase.kind === 'build' ? Math.max(1, phase.items.length) : 1);
  const fixedTotal = phases.reduce((sum, p) => sum + (fixedSpan(p) ?? 0), 0);
  const weights = phases.reduce((sum, p) => sum + (fixedSpan(p) === null ? weight(p) : 0), 0);
  const rest = Math.max(0, days - fixedTotal);
  const spans = phases.map((p) => fixedSpan(p) ?? (rest * weight(p)) / Math.max(1, weights));
  const n = phases.length;
  let cumulative = 0;
  const out = spans.map((span) => {
    cumulative += span;
    return Math.round(cumulative);
  });
  out[n - 1] = days;
  for (let i = 0; i < n; i++) out[i] = Math.max(out[i] ?? 1, i + 1, i > 0 ? (out[i - 1] ?? 0) + 1 : 1);
  for (let i = 0; i < n; i++) out[i] = Math.min(out[i] ?? days, days - (n - 1 - i));
  return out;
}

/** A deliverable with the expert steps that produce it. */
type PlannedDeliverable = { text: string; steps: string[]; topics: readonly string[] };

/** Names that keep their capital mid-sentence ("posts for Instagram", not "instagram"). */
const PROPER_NAMES = new Set(
  'android apple excel figma google instagram ios iphone jupyter kotlin kubernetes linkedin python react swift swiftui terraform tiktok twitter youtube docker github openapi hindi marathi english tamil telugu kannada bengali gujarati punjabi urdu malayalam odia french german spanish'.split(
    ' ',
  ),
);

/** The deliverable as it reads inside a step: trailing punctuation dropped, an ordinary first word lower-cased. */
function inSentence(deliverable: string): string {
  const text = deliverable.replace(/[.;:!]+$/, '');
  const word = text.match(/^[A-Za-z]+/)?.[0] ?? '';
  // "MedDRA", "iPhone": a capital inside the word is part of the name.
  return PROPER_NAMES.has(word.toLowerCase()) || /^[A-Za-z][a-z]+[A-Z]/.test(word) ? text : lowerFirst(text);
}

const fill = (step: string, deliverable: string) => step.replaceAll('{d}', inSentence(deliverable));

/**
 * The parts of a deliverable, each a thing to produce: "A floor plan and a 3D render" → "a floor
 * plan", "a 3D render"; a qualifier after the last part ("… by accident year") belongs to each.
 * A side of one word ("Paid and incurred loss triangles") is a modifier, not a part.
 */
export function deliverableParts(deliverable: string): string[] {
  const text = deliverable.trim().replace(/[.;:!]+$/, '');
  // A qualifier that holds another part ("for four meals and a caterer comparison") is not one.
  const found = text.match(/\s+((?:by|for|per|across|within|in|on|from|to|at)\s+[^,]+)$/i);
  const qualifier = found && !/\band\s+(?:an?|the)\s/i.test(found[1] ?? '') ? found : null;
  const body = qualifier ? text.slice(0, qualifier.index) : text;
  const parts = body
    .split(/\s*,(?!\d)\s*(?:and\s+)?|\s+and\s+|\s+plus\s+|\s+with\s+(?=an?\s)/i)
    .map((p) => p.trim());
  if (parts.length < 2 || parts.some((p) => p.split(/\s+/).length < 2)) return [text];
  return parts.map((p, i) => (qualifier && i === parts.length - 1 ? `${p} ${qualifier[1]}` : p));
}

/** The thing a part names, without articles, counts or qualifiers: "a 3D render" → "3D render". */
function headOf(part: string): string {
  return part
    .replace(/\s+(?:by|for|per|across|within|in|on|from|to|at|of|with|that|which)\s+.*$/i, '')
    .replace(
      /^(?:an?|the|one|two|three|four|five|six|seven|eight|nine|ten|twelve|\d+[-\w]*|each|every|all)\s+/i,
      '',
    )
    .trim();
}

/**
 * Steps for a deliverable of a field the knowledge base does not know, composed from the brief's
 * own words rather than a template: per part, set out what it must contain, produce it, review it.
 */
function composedSteps(deliverable: string): string[] {
  return deliverableParts(deliverable).flatMap((part) => {
    const thing = inSentence(part);
    const head = inSentence(headOf(part) || part);
    // A part whose kind is known (a dataset, a drawing, an event …) gets that kind's steps.
    const kind = kindOf(part);
    if (kind) return kindSteps(kind, part);
    return [
      `Set out what the ${head} must contain and gather what producing it needs`,
      `Produce ${thing}`,
      `Go through the ${head} line by line against the brief and correct it`,
    ];
  });
}

/** Whether the deliverable names one of an archetype's words as written (not only a stem alike: "variable" is no "variance"). */
function namesArchetype(match: readonly string[], deliverable: string): boolean {
  const text = deliverable.toLowerCase();
  return match.some((m) =>
    new RegExp(`(?:^|[^\\p{L}])${m.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'iu').test(text),
  );
}

/** A kind's steps for one deliverable, in its own words. */
function kindSteps(kind: DeliverableKind, part: string): string[] {
  const head = inSentence(headOf(part) || part);
  return kind.steps.map((step) => fill(step, part).replaceAll('{h}', `the ${head}`));
}

function planDeliverable(field: Field, text: string, brief: readonly string[]): PlannedDeliverable {
  if (field.key === 'unknown') return { text, steps: composedSteps(text), topics: [] };
  // "A forecasting notebook and a weekly forecast CSV": each part is planned as what it is, so a
  // step never reads "Train a forecasting notebook and a weekly forecast CSV in a Pipeline".
  const parts = deliverableParts(text);
  if (parts.length >= 2) {
    const planned = parts.map((part) => ({ part, archetype: planArchetype(field, part, brief)?.archetype }));
    // Only parts of different kinds ("a three-email sequence and six Instagram posts"); parts one
    // archetype plans alike stay one deliverable.
    const kinds = new Set(planned.map((p) => p.archetype?.key));
    if (planned.every((p) => p.archetype) && kinds.size === planned.length) {
      const seen = new Set<string>();
      const steps: string[] = [];
      const topics: string[] = [];
      for (const { part, archetype } of planned) {
        for (const step of (archetype?.steps ?? []).map((x) => fill(x, part)))
          if (!seen.has(step)) {
            seen.add(step);
            steps.push(step);
          }
        topics.push(...(archetype?.topics ?? []));
      }
      return { text, steps, topics: [...new Set(topics)] };
    }
  }
  const planned = planArchetype(field, text, brief);
  // No archetype of the field's own (none, or one borrowed from another field: "Map the chart of
  // accounts" for a codebook): the deliverable's kind plans it, when it has one.
  const own =
    planned?.from === field.key || (planned !== null && namesArchetype(planned.archetype.match, text));
  const kind = own ? null : kindOf(text);
  if (kind) return { text, steps: kindSteps(kind, text), topics: [] };
  const archetype = planned?.archetype;
  const steps = (archetype?.steps ?? field.fallback).map((s) => fill(s, text));
  // A borrowed archetype's topics name another field's links: `linksFor` keeps the field's own only.
  return { text, steps, topics: archetype?.topics ?? [] };
}

type Phase =
  | { kind: 'single' }
  | { kind: 'kickoff' }
  | { kind: 'build'; items: PlannedDeliverable[]; withKickoff: boolean }
  | { kind: 'check' }
  | { kind: 'final'; withChecks: boolean };

function planPhases(days: number, items: PlannedDeliverable[], criteria: string[]): Phase[] {
  if (days <= 1) return [{ kind: 'single' }];
  const builds = Math.max(1, Math.min(MAX_BUILD_MILESTONES, items.length));
  const wantsCheck = criteria.length > 0 && days >= MIN_DAYS_FOR_CHECK_MILESTONE;
  const n = Math.max(2, Math.min(days, MAX_MILESTONES, 1 + builds + (wantsCheck ? 1 : 0) + 1));
  if (n === 2)
    return [
      { kind: 'build', items, withKickoff: true },
      { kind: 'final', withChecks: true },
    ];
  const check = wantsCheck && n - 2 - 1 >= 1;
  const buildCount = Math.max(1, n - 2 - (check ? 1 : 0));
  const parts = chunk(items, Math.min(buildCount, Math.max(1, items.length)));
  return [
    { kind: 'kickoff' },
    ...parts.map((part): Phase => ({ kind: 'build', items: part, withKickoff: false })),
    ...(check ? [{ kind: 'check' } as Phase] : []),
    { kind: 'final', withChecks: !check },
  ];
}

type Context = {
  title: string;
  field: Field;
  items: PlannedDeliverable[];
  criteria: string[];
  preview: RubricPreview;
};

/** The figures a criterion names ("98%", "2 working days", "INR 18 lakh"), as written. */
function figuresOf(criterion: string): string[] {
  return quantitiesOf(criterion)
    .map((q) =>
      q.unit
        ? /^(?:INR|Rs|₹|USD|\$|EUR|€)/.test(q.unit)
          ? `${q.unit} ${q.value}`
          : `${q.value} ${q.unit}`
        : q.value,
    )
    .filter((f, i, all) => all.indexOf(f) === i);
}

function checkTask(ctx: Context, criterion: string): string {
  const quoted = criterion.replace(/[.;:!]+$/, '');
  if (ctx.field.key !== 'unknown') return `Check “${quoted}” ${checkFor(ctx.field, criterion)}`;
  // A field the knowledge base does not know: the criterion's own figures are the check.
  const figures = figuresOf(criterion);
  return figures.length > 0
    ? `Check “${quoted}”: measure it on the finished work and record the figure beside the target (${figures.join(', ')})`
    : `Check “${quoted}” with the person who will use the work, and note what they found`;
}

/** The kick-off, habit and hand-over of a field the knowledge base does not know, in the brief's own words. */
function composedField(field: Field, items: PlannedDeliverable[]): Field {
  const heads = [
    ...new Set(items.flatMap((d) => deliverableParts(d.text).map((p) => inSentence(headOf(p) || p)))),
  ];
  const shown = heads.slice(0, 3);
  // "the seating chart and the place cards", not "the seating chart, place cards".
  const named =
    shown.length === 0
      ? 'the work'
      : shown.length === 1
        ? `the ${shown[0]}`
        : `${shown
            .slice(0, -1)
            .map((h) => `the ${h}`)
            .join(', ')} and the ${shown[shown.length - 1]}`;
  const plural = shown.length !== 1 || /s$/i.test(shown[0] ?? '');
  // The first deliverable's kind opens the kick-off and closes the work in its own terms.
  const kind = items.map((d) => kindOf(d.text)).find((k) => k !== null) ?? null;
  if (kind)
    return {
      ...field,
      setup: [kind.kickoff.replaceAll('{n}', named)],
      habit: `Keep a dated log of decisions on the ${heads[0] ?? 'work'}: what you chose and why`,
      integrate: [kind.finish.replaceAll('{n}', named)],
    };
  return {
    ...field,
    setup: [
      `Agree with the brief owner what ${named} must show when finished, and who signs ${plural ? 'them' : 'it'} off`,
      `List the sources, data, access and people ${named} ${plural ? 'depend' : 'depends'} on, and ask for what is missing`,
    ],
    habit: `Keep a dated log of decisions on the ${heads[0] ?? 'work'}: what you chose and why`,
    // Several parts are compared with each other; one is read end to end as its user would.
    integrate: [
      shown.length >= 2
        ? `Put ${named} side by side and make sure they agree with each other and with the brief`
        : `Read ${named} end to end against the brief, as the person who will use ${plural ? 'them' : 'it'} would`,
    ],
  };
}

function rubricTask(preview: RubricPreview): string | null {
  const top = [...preview.criteria].sort((a, b) => b.weight - a.weight).slice(0, 2);
  if (top.length === 0) return null;
  return `Read the rubric: the heaviest criteria are ${top.map((c) => `"${c.name}" (${c.weight}%)`).join(' and ')}`;
}

function kickoffTasks(ctx: Context): string[] {
  const tasks = [...ctx.field.setup];
  if (ctx.criteria.length > 0)
    tasks.push(`Decide how each success criterion will be checked: ${ctx.field.check}`);
  const rubric = rubricTask(ctx.preview);
  if (rubric) tasks.push(rubric);
  return tasks;
}

/** The steps of some deliverables within a task budget: all steps when they fit, else the first ones. */
function buildTasks(items: PlannedDeliverable[], budget: number): string[] {
  const total = items.reduce((n, d) => n + d.steps.length, 0);
  if (total <= budget) return items.flatMap((d) => d.steps);
  const per = Math.floor(budget / Math.max(1, items.length));
  if (per >= 1) return items.flatMap((d) => d.steps.slice(0, per));
  // More deliverables than room: their hand-over tasks name them; here the first steps only.
  return items.slice(0, Math.max(0, budget)).map((d) => d.steps[0] ?? d.text);
}

/** The words of four letters or more that carry a topic ("with", "every" do not). */
const topicWords = (text: string) => (text.toLowerCase().match(/[a-z]{4,}/g) ?? []).filter(isContentWord);

/** Criteria whose wording shares a topic word with these deliverables: checked while building them. */
function relatedCriteria(items: PlannedDeliverable[], criteria: string[]): string[] {
  const words = new Set(items.flatMap((d) => topicWords(d.text)));
  return criteria.filter((c) => topicWords(c).some((w) => words.has(w)));
}

/**
 * About `budget` tasks, never more than `limit` (at least one). Too many criteria to check one per
 * task: the method is named once, then the criteria listed; criteria too long to all fit verbatim
 * within `limit` (twenty of 500 characters in a short plan) are counted in a last task instead, so
 * a milestone stays within its documented 30 tasks.
 */
function checkTasks(ctx: Context, criteria: string[], budget: number, limit = budget): string[] {
  if (criteria.length <= budget) return criteria.map((c) => checkTask(ctx, c));
  const method = `Check each criterion below ${ctx.field.check}`;
  if (limit <= 1) return [`Check every success criterion of the brief ${ctx.field.check}`];
  const groups = packGroups('Check', criteria, budget - 1);
  if (groups.length <= limit - 1) return [method, ...groups.map((g) => `Check: ${g.join('; ')}`)];
  const kept = groups.slice(0, Math.max(0, limit - 2));
  const left = criteria.length - kept.reduce((n, g) => n + g.length, 0);
  return [
    method,
    ...kept.map((g) => `Check: ${g.join('; ')}`),
    `Check the other ${left} success criteria of the brief the same way`,
  ];
}

function handoverTasks(ctx: Context, budget: number): string[] {
  const names = ctx.items.map((d) => d.text);
  if (names.length === 0)
    return [`Hand over ${ctx.title} with a note on how to review it and what is left open`];
  return packTasks('Hand over, with a note on how to review each and what is left open', names, budget);
}

const topicsOf = (items: PlannedDeliverable[]) => [...new Set(items.flatMap((d) => d.topics))];

function milestoneFor(
  phase: Phase,
  ctx: Context,
  placed: Set<string>,
): { title: string; tasks: string[]; topics: readonly string[] } {
  const { field } = ctx;
  switch (phase.kind) {
    case 'single': {
      // Hand-over and checks must hold every deliverable and criterion verbatim; steps get the rest.
      const handover = handoverTasks(ctx, Math.max(1, Math.ceil(ctx.items.length / 10)));
      const setup = field.setup.slice(0, 1);
      const checks = checkTasks(
        ctx,
        ctx.criteria,
        Math.max(1, Math.floor((MAX_TASKS - 1 - handover.length) / 3)),
        MAX_TASKS - setup.length - handover.length,
      );
      const steps = buildTasks(ctx.items, MAX_TASKS - setup.length - handover.length - checks.length);
      return {
        title: `Plan, produce and hand over: ${truncateWords(ctx.title, 60)}`,
        tasks: [...setup, ...steps, ...checks, ...handover],
        topics: [...field.setupTopics, ...topicsOf(ctx.items)],
      };
    }
    case 'kickoff':
      return {
        title: `Kick-off: ${truncateWords(ctx.title, 70)}`,
        tasks: kickoffTasks(ctx),
        topics: field.setupTopics,
      };
    case 'build': {
      const tasks = phase.withKickoff ? [...field.setup] : [];
      const related = relatedCriteria(phase.items, ctx.criteria)
        .filter((c) => !placed.has(c))
        .slice(0, 3);
      tasks.push(...buildTasks(phase.items, MAX_TASKS - tasks.length - related.length - 1));
      for (const c of related) {
        tasks.push(checkTask(ctx, c));
        placed.add(c);
      }
      tasks.push(field.habit);
      const [first] = phase.items;
      const more = phase.items.length - 1;
      const what =
        first === undefined
          ? ctx.title
          : `${truncateWords(first.text, 60)}${more > 0 ? ` (+${more} more)` : ''}`;
      return { title: what.charAt(0).toUpperCase() + what.slice(1), tasks, topics: topicsOf(phase.items) };
    }
    case 'check': {
      const remaining = ctx.criteria.filter((c) => !placed.has(c));
      const tasks = checkTasks(ctx, remaining, MAX_TASKS - 1);
      for (const c of remaining) placed.add(c);
      tasks.push('Fix what the checks found, then run them again');
      return {
        title: 'Check the work against the success criteria',
        tasks,
        topics: topicsOf(ctx.items).slice(-2),
      };
    }
    case 'final': {
      const remaining = phase.withChecks ? ctx.criteria.filter((c) => !placed.has(c)) : [];
      const handover = handoverTasks(ctx, Math.max(1, Math.ceil(ctx.items.length / 10)));
      const checks = checkTasks(ctx, remaining, MAX_TASKS - field.integrate.length - handover.length);
      for (const c of remaining) placed.add(c);
      return {
        title: 'Integrate and hand over',
        tasks: [...field.integrate, ...checks, ...handover],
        topics: [...field.setupTopics, ...topicsOf(ctx.items)].reverse(),
      };
    }
  }
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
 * Repeats are dropped as in the plan (`distinctItems`), so the rubric preview has no "(2)".
 */
export function briefAsRequirementText(brief: PlaybookBrief): string {
  const clean = (s: string) => s.trim().replace(/[.;:!]+$/, '');
  const lines = [`# ${clean(brief.title)}`, ''];
  for (const d of distinctItems(brief.deliverables).map(clean).filter(Boolean))
    lines.push(`- Must deliver ${lowerFirst(d)}.`);
  for (const c of distinctItems(brief.successCriteria).map(clean).filter(Boolean))
    lines.push(isImperative(c) ? `- Must ${lowerFirst(c)}.` : `- Must ensure ${lowerFirst(c)}.`);
  return lines.join('\n');
}

/**
 * Generates a playbook for a brief.
 *
 * Guarantees: ids `m1`…; every `day` is an integer in 1..durationDays, strictly increasing,
 * the last equal to durationDays (a non-integer or non-positive duration is treated as the
 * nearest whole number of days, at least 1); each distinct deliverable appears verbatim (in its
 * first spelling, see `distinctItems`) in a hand-over task of the last milestone and each
 * distinct success criterion verbatim in a “Check …” task (except in a plan too short for a
 * checking milestone whose criteria are too long to fit its 30 tasks: those are counted); every
 * tutorial link is a catalogue entry of the brief's own field (none for `general`); at most 30
 * tasks of at most 1,000 characters per milestone. `rubric_preview` comes from `rubric` when
 * given, else from `extractRubric` over the brief's own fields.
 */
export function generatePlaybook(
  brief: PlaybookBrief,
  rubric?: Rubric,
): Playbook & { confidence: PlanConfidence } {
  const days = Number.isFinite(brief.durationDays) ? Math.max(1, Math.round(brief.durationDays)) : 1;
  const deliverables = distinctItems(brief.deliverables);
  const criteria = distinctItems(brief.successCriteria);
  const title = brief.title.trim() || 'the project';
  const distinct = { ...brief, deliverables, successCriteria: criteria } satisfies BriefLike;
  const detected = detectField(distinct);
  const preview = toPreview(
    rubric ?? extractRubric(briefAsRequirementText(brief), { domain: detected.field.key }),
  );
  const words = briefWords(distinct);
  const items = deliverables.map((d) => planDeliverable(detected.field, d, words));
  // Outside the knowledge base the plan is composed from the brief itself, and says so.
  const field = detected.field.key === 'unknown' ? composedField(detected.field, items) : detected.field;
  const ctx: Context = { title, field, items, criteria, preview };

  const languages = languagesNamed([title, brief.domain, ...deliverables, ...criteria].join('\n'));
  const phases = planPhases(days, items, criteria);
  const dueDays = scheduleDays(phases, days);
  const used = new Set<string>();
  const placed = new Set<string>();
  const milestones: Milestone[] = phases.map((phase, i) => {
    const { title: milestoneTitle, tasks, topics } = milestoneFor(phase, ctx, placed);
    const links = linksFor(field.key, topics, used, 3, languages);
    for (const l of links) used.add(l);
    return {
      id: `m${i + 1}`,
      day: dueDays[i] ?? days,
      title: truncateWords(milestoneTitle, 200),
      tasks: tasks.filter(Boolean).map((t) => truncateWords(t, MAX_TASK_LENGTH)),
      tutorial_links: links,
    };
  });
  return { milestones, rubric_preview: preview, confidence: detected.confidence };
}
