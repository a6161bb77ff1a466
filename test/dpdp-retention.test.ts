/** Retention (§8(7), Rule 8): notice 48 hours before erasure for inactivity, then erasure; a sign-in keeps the account. */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { runScheduled } from '../src/scheduled';
import { DEFAULT_RETENTION_INACTIVE_DAYS, retentionDays, runRetention } from '../src/services/retention';
import { db, signup } from './harness';
import { as, call, jsonInit } from './helpers';

const DAY = 86_400_000;
const HOUR = 3_600_000;

const userRow = (id: string) =>
  env.DB.prepare('SELECT disabled_at, retention_notice_at FROM users WHERE id = ?')
    .bind(id)
    .first<{ disabled_at: number | null; retention_notice_at: number | null }>();
const erasureOf = (id: string) =>
  env.DB.prepare("SELECT count(*) AS n FROM dsr_requests WHERE user_id = ? AND kind = 'erasure'")
    .bind(id)
    .first<{ n: number }>();

type Notices = { notices: { kind: string; title: string; body: string }[] };

describe('retention of inactive accounts', { timeout: 30_000 }, () => {
  it('defaults to three years and reads RETENTION_INACTIVE_DAYS', () => {
    expect(DEFAULT_RETENTION_INACTIVE_DAYS).toBe(1095);
    expect(retentionDays(undefined)).toBe(1095);
    expect(retentionDays('')).toBe(1095);
    expect(retentionDays('abc')).toBe(1095);
    expect(retentionDays('30')).toBe(30);
    expect(env.RETENTION_INACTIVE_DAYS).toBe('1095');
  });

  it('notifies after the period, erases 48 hours later through the cascade, not before', async () => {
    const person = await signup('candidate');
    const start = Date.now();
    // One day short of the period: nothing.
    await runRetention(db(), env, new Date(start + 1094 * DAY));
    expect((await userRow(person.id))?.retention_notice_at).toBeNull();

    const noticeAt = new Date(start + 1096 * DAY);
    await runRetention(db(), env, noticeAt);
    expect((await userRow(person.id))?.retention_notice_at).toBe(noticeAt.getTime());
    const res = await call('/api/me/notices', { headers: as(person) });
    expect(res.status).toBe(200);
    const { notices } = await res.json<Notices>();
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ kind: 'retention', title: 'Your account will be erased in 48 hours' });
    expect(notices[0]!.body).toContain(new Date(noticeAt.getTime() + 48 * HOUR).toISOString());

    // A second run does not notify twice; 47 hours later nothing is erased yet.
    await runRetention(db(), env, new Date(noticeAt.getTime() + 47 * HOUR));
    expect((await erasureOf(person.id))?.n).toBe(0);
    expect((await userRow(person.id))?.disabled_at).toBeNull();

    // Through the cron, as in production.
    await runScheduled(env, new Date(noticeAt.getTime() + 49 * HOUR));
    expect((await erasureOf(person.id))?.n).toBe(1);
    expect((await userRow(person.id))?.disabled_at).not.toBeNull();
    const audit = await env.DB.prepare(
      "SELECT count(*) AS n FROM audit_log WHERE action = 'retention.erasure' AND target_id = ?",
    )
      .bind(person.id)
      .first<{ n: number }>();
    expect(audit?.n).toBe(1);
  });

  it('keeps the account of a person who signs in after the notice', async () => {
    const person = await signup('candidate');
    const noticeAt = new Date(Date.now() + 1096 * DAY);
    await runRetention(db(), env, noticeAt);
    expect((await userRow(person.id))?.retention_notice_at).toBe(noticeAt.getTime());
    // They sign in (the real clock: a sign-in clears the notice and restarts the period).
    const login = await call(
      '/api/auth/login',
      jsonInit('POST', { email: person.email, password: person.password }),
    );
    expect(login.status).toBe(200);
    expect((await userRow(person.id))?.retention_notice_at).toBeNull();
    await runRetention(db(), env, new Date(noticeAt.getTime() + 49 * HOUR));
    expect((await erasureOf(person.id))?.n).toBe(0);
    expect((await userRow(person.id))?.disabled_at).toBeNull();
  });

  it('has an empty notice list for an active person', async () => {
    const person = await signup('candidate');
    const res = await call('/api/me/notices', { headers: as(person) });
    expect(await res.json<Notices>()).toEqual({ notices: [], nextCursor: null });
  });
});
