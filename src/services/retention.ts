/**
 * Retention (DPDP Act 2023 §8(7), Rules 2025 Rule 8): an account nobody has signed in to for
 * `RETENTION_INACTIVE_DAYS` (default 1095, three years) has served its purpose. The cron gives
 * the person an in-app notice (`GET /api/me/notices`) 48 hours before erasure (Rule 8(2)); if
 * they have not signed in by then, their data is erased through the ordinary erasure request and
 * cascade (`requestErasure`). Signing in (`startSession`) clears the notice and restarts the
 * period. Activity is the later of the last sign-in and the account's creation; admins and
 * disabled accounts (erasures under way, tombstones) are left out.
 */
import { and, desc, eq, isNotNull, isNull, lte, ne, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { type NOTICE_KINDS, userNotices, users } from '../db/schema';
import { olderThan, type Position } from '../lib/paging';
import { auditInsert } from './audit';
import { requestErasure } from './dsr/erasure';
import { guardianCopies, type NoticeDraft } from './guardians';

export const DEFAULT_RETENTION_INACTIVE_DAYS = 1095;
/** Rule 8(2): the notice comes at least 48 hours before erasure. */
export const RETENTION_NOTICE_MS = 48 * 3600_000;
/** Accounts notified, and erasures requested, per cron run. */
const PER_RUN = 50;
const DAY_MS = 86_400_000;

/** The configured period in days; unset, empty or not a positive integer: the default. */
export function retentionDays(value: string | undefined): number {
  const n = Number(value);
  return value && Number.isSafeInteger(n) && n > 0 ? n : DEFAULT_RETENTION_INACTIVE_DAYS;
}

export type RetentionRun = { notified: number; erased: number };

export async function runRetention(
  db: Database,
  env: Pick<Env, 'JOBS_QUEUE' | 'CACHE'> & { RETENTION_INACTIVE_DAYS?: string },
  now = new Date(),
): Promise<RetentionRun> {
  const days = retentionDays(env.RETENTION_INACTIVE_DAYS);
  const inactiveSince = new Date(now.getTime() - days * DAY_MS);
  const lastActivity = sql`coalesce(${users.lastLoginAt}, ${users.createdAt})`;
  const eligible = and(isNull(users.disabledAt), ne(users.role, 'admin'));

  // Erase those notified at least 48 hours ago who have not signed in since.
  const due = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eligible,
        isNotNull(users.retentionNoticeAt),
        lte(users.retentionNoticeAt, new Date(now.getTime() - RETENTION_NOTICE_MS)),
        lte(lastActivity, inactiveSince.getTime()),
      ),
    )
    .limit(PER_RUN);
  for (const u of due) {
    await db.batch([
      auditInsert(db, {
        actorId: null,
        action: 'retention.erasure',
        targetType: 'user',
        targetId: u.id,
        details: { inactiveDays: days },
      }),
      db.update(users).set({ retentionNoticeAt: null }).where(eq(users.id, u.id)),
    ]);
    await requestErasure(db, env, u.id, now);
  }

  // Notify those inactive for the period who have no notice yet.
  const stale = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eligible, isNull(users.retentionNoticeAt), lte(lastActivity, inactiveSince.getTime())))
    .limit(PER_RUN);
  const erasureAt = new Date(now.getTime() + RETENTION_NOTICE_MS);
  for (const u of stale) {
    const notice: NoticeDraft = {
      userId: u.id,
      kind: 'retention',
      ref: now.toISOString(),
      title: 'Your account will be erased in 48 hours',
      body:
        `Nobody has signed in to this account for ${days} days, so the purpose we hold your data for has ` +
        `been served. Unless you sign in before ${erasureAt.toISOString()}, your account and data will be ` +
        'erased (DPDP Act 2023 §8(7)). Signing in keeps the account. Questions: GET /api/dpo.',
    };
    // A child's guardian gets a copy naming the child (src/services/guardians.ts).
    const copies = await guardianCopies(db, [notice], now);
    await db.batch([
      db
        .update(users)
        .set({ retentionNoticeAt: now })
        .where(and(eq(users.id, u.id), isNull(users.retentionNoticeAt))),
      ...[notice, ...copies].map((n) => db.insert(userNotices).values(n).onConflictDoNothing()),
      auditInsert(db, {
        actorId: null,
        action: 'retention.notice',
        targetType: 'user',
        targetId: u.id,
        details: { erasureAt: erasureAt.toISOString() },
      }),
    ]);
  }
  return { notified: stale.length, erased: due.length };
}

export type NoticeView = {
  id: string;
  kind: (typeof NOTICE_KINDS)[number];
  title: string;
  body: string;
  createdAt: string;
};

type NoticeRow = typeof userNotices.$inferSelect;

/**
 * One page of the person's notices, newest first (ties by id): `limit + 1` rows after `after`,
 * for `toPage` (src/lib/paging.ts).
 */
export async function noticesPage(
  db: Database,
  userId: string,
  limit: number,
  after?: Position,
): Promise<NoticeRow[]> {
  return db
    .select()
    .from(userNotices)
    .where(and(eq(userNotices.userId, userId), after ? olderThan(userNotices, after) : undefined))
    .orderBy(desc(userNotices.createdAt), desc(userNotices.id))
    .limit(limit + 1);
}

export const noticeView = (r: NoticeRow): NoticeView => ({
  id: r.id,
  kind: r.kind,
  title: r.title,
  body: r.body,
  createdAt: r.createdAt.toISOString(),
});
