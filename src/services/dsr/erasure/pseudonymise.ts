/** The audit log's entries about an erased person, pseudonymised; and the yearly purge of those entries (Rule 8(3)). */
import { and, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { auditLog, dpoRecords } from '../../../db/schema';
import { pseudonym } from '../../../domain/pseudonym';
import { aboutThePerson, CHUNK, type StepContext } from './context';
/** Audit entries per chunk: each binds its id and at most one target pair, within 100 parameters. */
export const AUDIT_CHUNK = 20;

/**
 * Pseudonymises up to `AUDIT_CHUNK` entries about the person in one statement: the person as
 * actor becomes their keyed pseudonym (`actor_id` null), every target id becomes its pseudonym,
 * details and the client address are dropped. A pseudonymised entry no longer matches
 * `aboutThePerson`, so the loop ends; a retried chunk finds what is left.
 */
export async function pseudonymiseChunk(ctx: StepContext, key: CryptoKey): Promise<number> {
  const { db, person } = ctx;
  const rows = await db
    .select({ id: auditLog.id, targetId: auditLog.targetId })
    .from(auditLog)
    .where(and(isNull(auditLog.pseudonymisedAt), aboutThePerson(person, db)))
    // Their corrections last: they say which addresses were theirs (formerEmailsOf) should the cascade resume.
    .orderBy(sql`${auditLog.action} = 'dsr.correction'`)
    .limit(AUDIT_CHUNK);
  if (rows.length === 0) return ctx.chunk('audit_log_pseudonymised', null);
  const targets = [...new Set(rows.map((r) => r.targetId).filter((t): t is string => t !== null))];
  const mapped = await Promise.all(targets.map(async (t) => sql`when ${t} then ${await pseudonym(key, t)}`));
  const targetCase = mapped.length
    ? sql`case ${auditLog.targetId} ${sql.join(mapped, sql` `)} else ${auditLog.targetId} end`
    : sql`${auditLog.targetId}`;
  const actor = await pseudonym(key, person.userId);
  const ids = rows.map((r) => r.id);
  return ctx.chunk(
    'audit_log_pseudonymised',
    db
      .update(auditLog)
      .set({
        actorPseudonym: sql`case when ${auditLog.actorId} = ${person.userId} then ${actor} else ${auditLog.actorPseudonym} end`,
        actorId: sql`case when ${auditLog.actorId} = ${person.userId} then null else ${auditLog.actorId} end`,
        targetId: targetCase,
        details: null,
        ip: null,
        pseudonymisedAt: new Date(),
      })
      .where(inArray(auditLog.id, ids)),
  );
}

/** How long pseudonymised processing logs are kept (Rule 8(3): one year). */
export const PSEUDONYMISED_LOG_DAYS = 365;

/**
 * Deletes pseudonymised audit entries and the DPO's pseudonymised records older than a year (the cron; docs/data-rights.md).
 * Returns how many. Entries of people who were not erased follow the audit log's own policy.
 */
export async function purgePseudonymisedLogs(db: Database, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - PSEUDONYMISED_LOG_DAYS * 86_400_000);
  let total = 0;
  for (;;) {
    const deleted = await db
      .delete(auditLog)
      .where(
        inArray(
          auditLog.id,
          db
            .select({ id: auditLog.id })
            .from(auditLog)
            .where(and(isNotNull(auditLog.pseudonymisedAt), lt(auditLog.createdAt, cutoff)))
            .limit(CHUNK),
        ),
      )
      .returning({ id: auditLog.id });
    total += deleted.length;
    if (deleted.length < CHUNK) break;
  }
  const records = await db
    .delete(dpoRecords)
    .where(lt(dpoRecords.requestedAt, cutoff))
    .returning({ id: dpoRecords.id });
  return total + records.length;
}
