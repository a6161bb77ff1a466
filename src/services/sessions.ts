import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { Database } from '../db/client';
import { sessions, users } from '../db/schema';
import { randomToken, sha256Hex } from '../domain/secrets';
import type { SessionUser } from '../lib/principals';

/** Sessions live 7 days from the last renewal. */
export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** Renew (slide) once less than half the lifetime is left: at most one write per 3.5 days of use. */
const RENEW_BELOW_MS = SESSION_TTL_MS / 2;

export type NewSession = { token: string; expiresAt: Date };

/** Creates a session; returns the token, which exists only in the cookie (D1 keeps its SHA-256). */
export async function startSession(db: Database, userId: string, now = new Date()): Promise<NewSession> {
  const token = randomToken(32);
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  // Signing in is activity: it restarts the retention period and cancels a pending erasure
  // notice (DPDP Rule 8(2); src/services/retention.ts).
  await db.batch([
    db
      .insert(sessions)
      .values({ userId, tokenHash: await sha256Hex(token), expiresAt, createdAt: now, lastSeenAt: now }),
    db.update(users).set({ lastLoginAt: now, retentionNoticeAt: null }).where(eq(users.id, userId)),
  ]);
  return { token, expiresAt };
}

export type ResolvedSession = { user: SessionUser; renewedUntil: Date | null };

/** The live session behind a token, renewing it when due. Null for unknown, expired or disabled. */
export async function resolveSession(
  db: Database,
  token: string,
  now = new Date(),
): Promise<ResolvedSession | null> {
  const [row] = await db
    .select({
      sessionId: sessions.id,
      signedInAt: sessions.createdAt,
      expiresAt: sessions.expiresAt,
      id: users.id,
      email: users.email,
      name: users.name,
      role: users.role,
      organisationId: users.organisationId,
      dateOfBirth: users.dateOfBirth,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, await sha256Hex(token)),
        gt(sessions.expiresAt, now),
        isNull(users.disabledAt),
      ),
    )
    .limit(1);
  if (!row) return null;
  const { sessionId, expiresAt, ...profile } = row;
  const user: SessionUser = { ...profile, sessionId };
  if (expiresAt.getTime() - now.getTime() >= RENEW_BELOW_MS) return { user, renewedUntil: null };
  const renewedUntil = new Date(now.getTime() + SESSION_TTL_MS);
  await db
    .update(sessions)
    .set({ expiresAt: renewedUntil, lastSeenAt: now })
    .where(eq(sessions.id, sessionId));
  return { user, renewedUntil };
}

export async function endSession(db: Database, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

/** Every session of a user (erasure, account disable). */
export async function endAllSessions(db: Database, userId: string): Promise<void> {
  await endAllSessionsStatement(db, userId);
}

/** The delete of all the person's sessions, unexecuted, for a `db.batch([...])`. */
export function endAllSessionsStatement(db: Database, userId: string) {
  return db.delete(sessions).where(eq(sessions.userId, userId));
}

/** Cron: drop expired rows so the table holds only live sessions. */
export async function sweepExpiredSessions(db: Database, now = new Date()): Promise<number> {
  const deleted = await db.delete(sessions).where(lt(sessions.expiresAt, now)).returning({ id: sessions.id });
  return deleted.length;
}
