import { and, desc, eq, gte, lte, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { auditLog } from '../db/schema';
import { olderThan, type Position } from '../lib/paging';

/**
 * One audit entry. `actorId` is who acted (null for the system); `targetType`/`targetId` what
 * was acted on. Entries by or about a person are pseudonymised on their erasure (ids replaced
 * by keyed hashes, `details` and `ip` dropped) and deleted a year later (docs/data-rights.md),
 * so `details` may hold their personal data while they exist, but never anyone else's.
 */
export type AuditEntry = {
  actorId: string | null;
  action: string;
  targetType: string;
  targetId?: string | null;
  details?: Record<string, unknown> | null;
  /** The client address of the request; set for uses of powers (see `auditPower`). */
  ip?: string | null;
};

/** The insert statement, unexecuted, for callers that put it in a `db.batch([...])` with their change. */
export function auditInsert(db: Database, entry: AuditEntry) {
  return db.insert(auditLog).values({
    actorId: entry.actorId,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId ?? null,
    details: entry.details ?? null,
    ip: entry.ip ?? null,
  });
}

/** Writes one audit entry. */
export async function recordAudit(db: Database, entry: AuditEntry): Promise<void> {
  await auditInsert(db, entry);
}

/**
 * The powers whose every use is audited with who, what, when and from which address: issuing,
 * revoking and rolling API keys, bootstrapping the admin (and refusals to), changing a role,
 * verifying an organisation. Listed so that `GET /api/admin/audit-log?action=` can offer them.
 */
export const POWER_ACTIONS = [
  'api_key.issued',
  'api_key.revoked',
  'api_key.rolled',
  'admin.bootstrapped',
  'admin.bootstrap_refused',
  'user.role_changed',
  'organisation.verified',
] as const;
export type PowerAction = (typeof POWER_ACTIONS)[number];

/** A use of a power: who (null for the system or an unauthenticated caller), what, on what, from where. */
export type PowerUse = {
  actor: string | null;
  action: PowerAction;
  target: { type: string; id: string | null };
  ip: string | null;
  details?: Record<string, unknown>;
};

const powerEntry = (use: PowerUse): AuditEntry => ({
  actorId: use.actor,
  action: use.action,
  targetType: use.target.type,
  targetId: use.target.id,
  ip: use.ip,
  ...(use.details ? { details: use.details } : {}),
});

/** The insert for a use of a power, unexecuted: batch it with the change it records. */
export function auditPowerInsert(db: Database, use: PowerUse) {
  return auditInsert(db, powerEntry(use));
}

/** Records a use of a power (when it is not part of a batch). */
export async function auditPower(db: Database, use: PowerUse): Promise<void> {
  await auditPowerInsert(db, use);
}

export type AuditFilter = { actorId?: string; action?: string; since?: Date; until?: Date };

/** The audit log, newest first, filtered and paged (`limit + 1` rows, for `toPage`). */
export async function listAuditLog(db: Database, filter: AuditFilter, limit: number, after?: Position) {
  const conditions: (SQL | undefined)[] = [];
  if (filter.actorId) conditions.push(eq(auditLog.actorId, filter.actorId));
  if (filter.action) conditions.push(eq(auditLog.action, filter.action));
  if (filter.since) conditions.push(gte(auditLog.createdAt, filter.since));
  if (filter.until) conditions.push(lte(auditLog.createdAt, filter.until));
  if (after) conditions.push(olderThan(auditLog, after));
  return db
    .select()
    .from(auditLog)
    .where(and(...conditions))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(limit + 1);
}

export const auditView = (row: typeof auditLog.$inferSelect) => ({
  id: row.id,
  actorId: row.actorId,
  action: row.action,
  targetType: row.targetType,
  targetId: row.targetId,
  ip: row.ip,
  details: row.details ?? null,
  createdAt: row.createdAt.toISOString(),
});
