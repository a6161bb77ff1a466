/**
 * Data-subject requests (DPDP Act 2023 §11–14): every right exercised is a tracked record
 * `received → in_progress → completed | rejected` with a due date.
 */
import { and, asc, desc, eq, gt, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type DSR_KINDS, type DSR_STATES, dsrRequests, jobs } from '../../db/schema';
import { invalidCursor, type Position } from '../../lib/paging';
import { ProblemError } from '../../lib/problem';
import { auditInsert, recordAudit } from '../audit';

export type DsrKind = (typeof DSR_KINDS)[number];
export type DsrState = (typeof DSR_STATES)[number];
type DsrRow = typeof dsrRequests.$inferSelect;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Days until a request of each kind is due. Grievances: 90 days, the outer bound of the DPDP
 * Rules 2025 (r. 14(3)). The Rules set no separate period for the other rights; we commit to
 * 30 days (the one-month norm of comparable laws), well inside the grievance bound, so that a
 * request that slips is still answered before a grievance about it would fall due. Access and
 * correction complete on the spot; erasure completes when the queue cascade finishes.
 */
export const DSR_DUE_DAYS: Record<DsrKind, number> = {
  access: 30,
  correction: 30,
  erasure: 30,
  grievance: 90,
  nomination: 30,
};

export const dueDate = (kind: DsrKind, from: Date) => new Date(from.getTime() + DSR_DUE_DAYS[kind] * DAY_MS);

/** Which states an administrator may move a request to from each state. */
const TRANSITIONS: Record<DsrState, readonly DsrState[]> = {
  received: ['in_progress', 'completed', 'rejected'],
  in_progress: ['completed', 'rejected'],
  completed: [],
  rejected: [],
};

export const canTransition = (from: DsrState, to: DsrState) => TRANSITIONS[from].includes(to);

const isClosed = (state: DsrState) => state === 'completed' || state === 'rejected';

export type DsrRequestView = {
  id: string;
  kind: DsrKind;
  state: DsrState;
  details: Record<string, unknown> | null;
  dueAt: string;
  createdAt: string;
  updatedAt: string | null;
  completedAt: string | null;
};

type JobRow = typeof jobs.$inferSelect;

export type DsrJobView = {
  id: string;
  state: JobRow['state'];
  attempts: number;
  lastError: string | null;
  stalledAt: string | null;
};

export type AdminDsrRequestView = DsrRequestView & {
  userId: string;
  overdue: boolean;
  job: DsrJobView | null;
};

export const toRequestView = (r: DsrRow): DsrRequestView => ({
  id: r.id,
  kind: r.kind,
  state: r.state,
  details: r.details ?? null,
  dueAt: r.dueAt.toISOString(),
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt?.toISOString() ?? null,
  completedAt: r.completedAt?.toISOString() ?? null,
});

export const toAdminRequestView = (
  r: DsrRow,
  now = new Date(),
  job: JobRow | null = null,
): AdminDsrRequestView => ({
  ...toRequestView(r),
  userId: r.userId,
  overdue: !isClosed(r.state) && r.dueAt.getTime() < now.getTime(),
  job: job
    ? {
        id: job.id,
        state: job.state,
        attempts: job.attempts,
        lastError: job.lastError,
        stalledAt: job.stalledAt?.toISOString() ?? null,
      }
    : null,
});

export type NewRequest = {
  id?: string;
  userId: string;
  kind: DsrKind;
  state?: DsrState;
  details?: Record<string, unknown> | null;
};

/** The insert of a new request, unexecuted, for a `db.batch([...])` with the change it records. */
export function requestInsert(db: Database, input: NewRequest, now = new Date()) {
  const state = input.state ?? 'received';
  return db
    .insert(dsrRequests)
    .values({
      id: input.id ?? crypto.randomUUID(),
      userId: input.userId,
      kind: input.kind,
      state,
      details: input.details ?? null,
      dueAt: dueDate(input.kind, now),
      createdAt: now,
      completedAt: isClosed(state) ? now : null,
      updatedAt: state === 'received' ? null : now,
    })
    .returning();
}

/** Files a request the person makes (grievance, nomination), with its audit entry. */
export async function fileRequest(
  db: Database,
  input: NewRequest,
  /** Who asked when not the person: their guardian (src/services/guardians.ts). */
  actorId: string = input.userId,
): Promise<DsrRequestView> {
  const id = input.id ?? crypto.randomUUID();
  const [inserted] = await db.batch([
    requestInsert(db, { ...input, id }),
    auditInsert(db, {
      actorId,
      action: `dsr.${input.kind}`,
      targetType: 'dsr_request',
      targetId: id,
    }),
  ]);
  return toRequestView(inserted[0] as DsrRow);
}

/** Marks a request the service fulfils itself (access) as completed. */
export async function completeRequest(db: Database, id: string, now = new Date()): Promise<void> {
  await db
    .update(dsrRequests)
    .set({ state: 'completed', updatedAt: now, completedAt: now })
    .where(eq(dsrRequests.id, id));
}

const after = (cursor: Position | undefined): SQL | undefined =>
  cursor
    ? or(
        lt(dsrRequests.createdAt, cursor.createdAt),
        and(eq(dsrRequests.createdAt, cursor.createdAt), lt(dsrRequests.id, cursor.id)),
      )
    : undefined;

/** The person's own requests, newest first; fetches `limit + 1` for `toPage`. */
export async function listUserRequests(db: Database, userId: string, limit: number, cursor?: Position) {
  return db
    .select()
    .from(dsrRequests)
    .where(and(eq(dsrRequests.userId, userId), after(cursor)))
    .orderBy(desc(dsrRequests.createdAt), desc(dsrRequests.id))
    .limit(limit + 1);
}

/**
 * Open requests (received or in progress), written as the partial index `dsr_requests_open_due_idx`
 * states it (literal values, not bound parameters), so SQLite can use that index.
 */
const isOpen = sql`${dsrRequests.state} in ('received', 'in_progress')`;

/** Where a page of the due-date order ends: the due date, then the id. */
export type DuePosition = { dueAt: Date; id: string };

const DUE_CURSOR = 'due:';

/**
 * A cursor of the due-date order: base64url of `due:<ms>.<id>`. The prefix keeps the two orders'
 * cursors apart: one of the newest-first order is refused here, and this one by `decodeCursor`.
 */
export function encodeDueCursor(p: DuePosition): string {
  return btoa(`${DUE_CURSOR}${p.dueAt.getTime()}.${p.id}`)
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

export function decodeDueCursor(cursor: string | undefined): DuePosition | undefined {
  if (!cursor) return undefined;
  let text = '';
  try {
    text = atob(cursor.replaceAll('-', '+').replaceAll('_', '/'));
  } catch {
    throw invalidCursor();
  }
  if (!text.startsWith(DUE_CURSOR)) throw invalidCursor();
  const rest = text.slice(DUE_CURSOR.length);
  const dot = rest.indexOf('.');
  const ms = Number(rest.slice(0, dot));
  const id = rest.slice(dot + 1);
  if (dot > 0 && Number.isSafeInteger(ms) && ms >= 0 && ms <= 8.64e15 && id)
    return { dueAt: new Date(ms), id };
  throw invalidCursor();
}

export type RequestFilter = {
  kind?: DsrKind | undefined;
  state?: DsrState | undefined;
  /** Only open requests past their due date (what `overdue` says in the view). */
  overdue?: boolean | undefined;
};

/** The order of the DPO's queue: newest first (every request), or open ones by due date, soonest first. */
export type RequestOrder =
  | { sort: 'created'; cursor?: Position | undefined }
  | { sort: 'due'; cursor?: DuePosition | undefined };

/**
 * Every request (the Data Protection Officer's queue), optionally by kind and state, or only the
 * overdue ones, each with the job carrying it out (erasures), so a stalled cascade shows beside its
 * due date. Newest first; or (`sort: 'due'`) only the open requests, the oldest due date first, so
 * the grievances and nominations that fall due are not lost among the access requests every export
 * completes. Fetches `limit + 1` for the page.
 */
export async function listRequests(
  db: Database,
  filter: RequestFilter,
  limit: number,
  order: RequestOrder = { sort: 'created' },
  now = new Date(),
) {
  const byDue = order.sort === 'due';
  const dueCursor = order.sort === 'due' ? order.cursor : undefined;
  return db
    .select({ request: dsrRequests, job: jobs })
    .from(dsrRequests)
    .leftJoin(
      jobs,
      and(eq(dsrRequests.kind, 'erasure'), eq(jobs.kind, 'erasure'), eq(jobs.ref, dsrRequests.id)),
    )
    .where(
      and(
        filter.kind ? eq(dsrRequests.kind, filter.kind) : undefined,
        filter.state ? eq(dsrRequests.state, filter.state) : undefined,
        byDue || filter.overdue ? isOpen : undefined,
        filter.overdue ? lt(dsrRequests.dueAt, now) : undefined,
        order.sort === 'created' ? after(order.cursor) : undefined,
        dueCursor
          ? or(
              gt(dsrRequests.dueAt, dueCursor.dueAt),
              and(eq(dsrRequests.dueAt, dueCursor.dueAt), gt(dsrRequests.id, dueCursor.id)),
            )
          : undefined,
      ),
    )
    .orderBy(
      ...(byDue
        ? [asc(dsrRequests.dueAt), asc(dsrRequests.id)]
        : [desc(dsrRequests.createdAt), desc(dsrRequests.id)]),
    )
    .limit(limit + 1);
}

/**
 * An administrator moves a request on. Only the transitions in `TRANSITIONS` are legal, and
 * erasure requests are moved only by the cascade; anything else is a 409. The update is
 * conditional on the state read, so two administrators acting at once cannot both succeed.
 * The resolution text is kept on the request (the person sees it); the audit entry holds only
 * the transition, never the text.
 */
export async function resolveRequest(
  db: Database,
  adminId: string,
  id: string,
  input: { state: DsrState; resolution?: string | undefined },
  now = new Date(),
): Promise<AdminDsrRequestView> {
  const [current] = await db.select().from(dsrRequests).where(eq(dsrRequests.id, id)).limit(1);
  if (!current) throw new ProblemError('not-found', 'No data-subject request with this id.');
  if (current.kind === 'erasure')
    throw new ProblemError('conflict', 'Erasure requests are completed by the erasure cascade, not by hand.');
  if (!canTransition(current.state, input.state))
    throw new ProblemError('conflict', `A ${current.state} request cannot move to ${input.state}.`);
  // A refusal says why, and a grievance is closed with an answer (DPDP §13, Rules 2025 r. 14):
  // the person reads it with the request, and "rejected" alone answers nothing.
  const answerNeeded = input.state === 'rejected' || (current.kind === 'grievance' && isClosed(input.state));
  if (answerNeeded && !input.resolution?.trim() && typeof current.details?.resolution !== 'string')
    throw new ProblemError('validation-failed', 'The request body does not match the schema.', {
      errors: [
        {
          pointer: '#/resolution',
          detail:
            input.state === 'rejected'
              ? 'Say why the request is rejected: the person reads it with the request'
              : 'Give the answer to the grievance: the person reads it with the request',
        },
      ],
    });
  const details =
    input.resolution === undefined
      ? current.details
      : { ...(current.details ?? {}), resolution: input.resolution };
  const [row] = await db
    .update(dsrRequests)
    .set({ state: input.state, details, updatedAt: now, completedAt: isClosed(input.state) ? now : null })
    .where(and(eq(dsrRequests.id, id), eq(dsrRequests.state, current.state)))
    .returning();
  if (!row) throw new ProblemError('conflict', 'The request changed meanwhile; read it again.');
  await recordAudit(db, {
    actorId: adminId,
    action: 'dsr.resolve',
    targetType: 'dsr_request',
    targetId: id,
    details: { kind: current.kind, from: current.state, to: input.state },
  });
  return toAdminRequestView(row, now);
}
