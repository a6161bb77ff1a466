import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type BriefState, briefs, milestones, organisations, rubrics } from '../../db/schema';
import type { Rubric } from '../../domain/pillars/types';
import { olderThan, type Position } from '../../lib/paging';
import { ProblemError } from '../../lib/problem';
import { auditInsert } from '../audit';
import type { PillarEngine } from '../pillars';
import type { EngineName } from '../pillars/schemas';

export type BriefInput = {
  title: string;
  domain: string;
  description: string;
  deliverables: string[];
  successCriteria: string[];
  durationDays: number;
  /** How long its certificates are valid, in months (1–120); absent or null: they do not expire. */
  validForMonths?: number | null | undefined;
  publish: boolean;
};

/**
 * The text the rubric is extracted from: the description as written, then the deliverables
 * and success criteria as requirement lines, so each becomes something a criterion can quote.
 */
export function briefRequirementText(
  b: Pick<BriefInput, 'description' | 'deliverables' | 'successCriteria'>,
): string {
  return [
    b.description.trim(),
    ...b.deliverables.map((d) => `- You must deliver ${d.trim()}.`),
    ...b.successCriteria.map((c) => `- The work must meet this criterion: ${c.trim()}.`),
  ].join('\n');
}

const preview = (rubric: Rubric) => ({
  criteria: rubric.criteria.map(({ id, name, weight }) => ({ id, name, weight })),
  passThreshold: rubric.passThreshold,
});

/** Creates a brief with its rubric (pillar 4) and playbook (pillar 1), in one batch, for the author's organisation. */
/** An organisation the platform suspended or rejected publishes nothing (409). */
async function assertMayPublish(db: Database, organisationId: string): Promise<void> {
  const [row] = await db
    .select({ verification: organisations.verification })
    .from(organisations)
    .where(eq(organisations.id, organisationId))
    .limit(1);
  if (row?.verification === 'suspended' || row?.verification === 'rejected') {
    throw new ProblemError(
      'conflict',
      `The organisation is ${row.verification} by the platform: it cannot publish briefs; contact the platform.`,
    );
  }
}

export async function createBrief(
  db: Database,
  engine: PillarEngine,
  author: { id: string; organisationId: string | null },
  input: BriefInput,
) {
  const employerId = author.id;
  const organisationId = requireOrganisation(author);
  if (input.publish) await assertMayPublish(db, organisationId);
  const rubric = await engine.extractRubric(briefRequirementText(input), input.domain);
  const playbook = await engine.generatePlaybook({
    title: input.title,
    deliverables: input.deliverables,
    successCriteria: input.successCriteria,
    durationDays: input.durationDays,
    domain: input.domain,
  });
  const now = new Date();
  const briefId = crypto.randomUUID();
  const steps = playbook.result.milestones;
  await db.batch([
    db.insert(briefs).values({
      id: briefId,
      employerId,
      organisationId,
      title: input.title,
      domain: input.domain,
      description: input.description,
      deliverables: input.deliverables,
      successCriteria: input.successCriteria,
      durationDays: input.durationDays,
      validForMonths: input.validForMonths ?? null,
      state: input.publish ? 'published' : 'draft',
      playbookEngine: playbook.engine,
      createdAt: now,
      publishedAt: input.publish ? now : null,
    }),
    db.insert(rubrics).values({
      briefId,
      criteria: rubric.result.criteria,
      passThreshold: rubric.result.passThreshold,
      engine: rubric.engine,
    }),
    db.insert(milestones).values(
      steps.map((m, i) => ({
        briefId,
        position: i + 1,
        day: m.day,
        title: m.title,
        tasks: m.tasks,
        tutorialLinks: m.tutorial_links,
        isFinal: i === steps.length - 1,
      })),
    ),
    auditInsert(db, {
      actorId: employerId,
      action: 'brief.created',
      targetType: 'brief',
      targetId: briefId,
      details: { organisationId },
    }),
  ]);
  return (await loadBrief(db, briefId))!;
}

export type BriefView = Awaited<ReturnType<typeof loadBrief>>;

/** A brief with its employer's name, rubric and playbook. */
export async function loadBrief(db: Database, briefId: string) {
  const [row] = await db
    .select({ brief: briefs, employerName: organisations.name })
    .from(briefs)
    .innerJoin(organisations, eq(organisations.id, briefs.organisationId))
    .where(eq(briefs.id, briefId))
    .limit(1);
  if (!row) return null;
  const [rubric] = await db.select().from(rubrics).where(eq(rubrics.briefId, briefId)).limit(1);
  const steps = await db
    .select()
    .from(milestones)
    .where(eq(milestones.briefId, briefId))
    .orderBy(asc(milestones.position));
  const r: Rubric = { criteria: rubric?.criteria ?? [], passThreshold: rubric?.passThreshold ?? 3 };
  return {
    ...row.brief,
    employerName: row.employerName,
    rubric: { ...r, engine: engineName(rubric?.engine) },
    milestones: steps,
    rubricPreview: preview(r),
  };
}

export function briefToJson(b: NonNullable<BriefView>) {
  return {
    id: b.id,
    title: b.title,
    domain: b.domain,
    description: b.description,
    deliverables: b.deliverables,
    successCriteria: b.successCriteria,
    durationDays: b.durationDays,
    validForMonths: b.validForMonths,
    state: b.state,
    employer: { name: b.employerName },
    createdAt: b.createdAt.toISOString(),
    publishedAt: b.publishedAt?.toISOString() ?? null,
    closedAt: b.closedAt?.toISOString() ?? null,
    rubric: b.rubric,
    playbook: {
      milestones: b.milestones.map((m) => ({
        id: m.id,
        day: m.day,
        title: m.title,
        tasks: m.tasks,
        tutorial_links: m.tutorialLinks,
        final: m.isFinal,
      })),
      rubric_preview: b.rubricPreview,
      engine: engineName(b.playbookEngine),
    },
  };
}

/** The engine a stored rubric or playbook names (the column is free text; older rows may lack it). */
const engineName = (stored: string | null | undefined): EngineName =>
  stored === 'workers-ai' ? 'workers-ai' : 'local';

/** Briefs newest first: public listings (published/closed) or one employer's own (any state). */
export async function listBriefs(
  db: Database,
  filter: { states: BriefState[]; domain?: string; organisationId?: string },
  limit: number,
  after?: Position,
) {
  const conditions = [inArray(briefs.state, filter.states)];
  if (filter.domain) conditions.push(eq(briefs.domain, filter.domain));
  if (filter.organisationId) conditions.push(eq(briefs.organisationId, filter.organisationId));
  if (after) {
    conditions.push(olderThan(briefs, after));
  }
  return db
    .select({
      id: briefs.id,
      title: briefs.title,
      domain: briefs.domain,
      state: briefs.state,
      durationDays: briefs.durationDays,
      createdAt: briefs.createdAt,
      employerName: organisations.name,
    })
    .from(briefs)
    .innerJoin(organisations, eq(organisations.id, briefs.organisationId))
    .where(and(...conditions))
    .orderBy(desc(briefs.createdAt), desc(briefs.id))
    .limit(limit + 1);
}

const TRANSITIONS: Record<BriefState, BriefState[]> = {
  draft: ['published'],
  published: ['closed'],
  closed: [],
};

/** draft → published → closed; anything else is refused. Null when the brief is not the member's organisation's. */
/**
 * Changes a brief: its state (draft → published → closed; other transitions are 409) and/or the
 * validity of the certificates it issues from now on (`validForMonths`, null for none;
 * certificates already issued keep what they were signed with).
 */
export async function changeBrief(
  db: Database,
  member: { id: string; organisationId: string | null },
  briefId: string,
  change: { state?: BriefState | undefined; validForMonths?: number | null | undefined },
) {
  const employerId = member.id;
  const [brief] = await db
    .select()
    .from(briefs)
    .where(and(eq(briefs.id, briefId), eq(briefs.organisationId, requireOrganisation(member))))
    .limit(1);
  if (!brief) return null;
  const to = change.state;
  if (to !== undefined && !TRANSITIONS[brief.state].includes(to)) {
    throw new ProblemError('conflict', `A ${brief.state} brief cannot become ${to}.`);
  }
  if (to === 'published') await assertMayPublish(db, brief.organisationId ?? requireOrganisation(member));
  const now = new Date();
  const stateChange =
    to === undefined
      ? {}
      : to === 'published'
        ? { state: to, publishedAt: now }
        : { state: to, closedAt: now };
  const validity = change.validForMonths === undefined ? {} : { validForMonths: change.validForMonths };
  await db.batch([
    db
      .update(briefs)
      .set({ ...stateChange, ...validity })
      .where(and(eq(briefs.id, briefId), eq(briefs.state, brief.state))),
    auditInsert(db, {
      actorId: employerId,
      action: to === undefined ? 'brief.validity_changed' : `brief.${to}`,
      targetType: 'brief',
      targetId: briefId,
      ...(change.validForMonths === undefined ? {} : { details: { validForMonths: change.validForMonths } }),
    }),
  ]);
  return loadBrief(db, briefId);
}

/** A brief in a listing: no description, rubric or playbook. */
export const briefSummaryView = (b: Awaited<ReturnType<typeof listBriefs>>[number]) => ({
  id: b.id,
  title: b.title,
  domain: b.domain,
  state: b.state,
  durationDays: b.durationDays,
  employer: { name: b.employerName },
  createdAt: b.createdAt.toISOString(),
});

/** Whether the brief exists and belongs to the member's organisation (anyone else's is "not found"). */
export async function ownsBrief(
  db: Database,
  briefId: string,
  member: { organisationId: string | null },
): Promise<boolean> {
  if (!member.organisationId) return false;
  const [owned] = await db
    .select({ id: briefs.id })
    .from(briefs)
    .where(and(eq(briefs.id, briefId), eq(briefs.organisationId, member.organisationId)))
    .limit(1);
  return owned !== undefined;
}

/** The organisation an employer acts for; an employer without one (never, after signup) cannot act. */
function requireOrganisation(member: { organisationId: string | null }): string {
  if (!member.organisationId)
    throw new ProblemError('forbidden', 'This account does not belong to an organisation.');
  return member.organisationId;
}
