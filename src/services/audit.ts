import type { Database } from '../db/client';
import { auditLog } from '../db/schema';

/**
 * One audit entry. `actorId` is who acted (null for the system); `targetType`/`targetId` what
 * was acted on. Entries by or about a person are deleted with the rest of their data on
 * erasure (see docs/data-rights.md), so `details` may hold their personal data while they
 * exist, but never anyone else's.
 */
export type AuditEntry = {
  actorId: string | null;
  action: string;
  targetType: string;
  targetId?: string | null;
  details?: Record<string, unknown> | null;
};

/** The insert statement, unexecuted, for callers that put it in a `db.batch([...])` with their change. */
export function auditInsert(db: Database, entry: AuditEntry) {
  return db.insert(auditLog).values({
    actorId: entry.actorId,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId ?? null,
    details: entry.details ?? null,
  });
}

/** Writes one audit entry. */
export async function recordAudit(db: Database, entry: AuditEntry): Promise<void> {
  await auditInsert(db, entry);
}
