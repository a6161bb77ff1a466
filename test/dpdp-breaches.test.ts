/** Personal data breaches (§8(6), Rule 7): notices to every affected person and the Board's deadlines. */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { listBreaches } from '../src/services/breaches';
import { runJob } from '../src/services/jobs/jobs';
import { db, loginAdmin, signup } from './harness';
import { as, call, expectProblem, jsonInit } from './helpers';

const HOUR = 3_600_000;

type Breach = {
  id: string;
  affectedCount: number;
  boardIntimation: { dueAt: string; doneAt: string | null; overdue: boolean };
  boardReport: { dueAt: string; doneAt: string | null; overdue: boolean };
};

const body = (foundAt: Date, affectedUserIds: string[]) => ({
  description: 'A misconfigured export bucket was readable for two hours.',
  foundAt: foundAt.toISOString(),
  categories: ['name', 'email'],
  measures: 'The bucket was closed and its access logs reviewed.',
  consequences: 'Someone may send you messages that pretend to be from us.',
  affectedUserIds,
});

describe('POST/GET /api/admin/breaches', { timeout: 30_000 }, () => {
  it('notifies every affected person, and nobody else, at once', async () => {
    const admin = await loginAdmin();
    const [a, b, bystander] = [await signup(), await signup(), await signup()];
    const res = await call(
      '/api/admin/breaches',
      jsonInit('POST', body(new Date(), [a.id, b.id]), as(admin)),
    );
    expect(res.status).toBe(201);
    const breach = await res.json<Breach>();
    expect(breach.affectedCount).toBe(2);
    for (const person of [a, b]) {
      const { notices } = await (await call('/api/me/notices', { headers: as(person) })).json<{
        notices: { kind: string; body: string }[];
      }>();
      expect(notices).toHaveLength(1);
      expect(notices[0]).toMatchObject({ kind: 'breach' });
      expect(notices[0]!.body).toContain('misconfigured export bucket');
      expect(notices[0]!.body).toContain('name, email');
    }
    const other = await (await call('/api/me/notices', { headers: as(bystander) })).json<{
      notices: unknown[];
    }>();
    expect(other.notices).toEqual([]);
    // The outbox: one `email` job per affected person, written with the notice; running it emails the notice.
    const outbox = (
      await env.DB.prepare(
        "SELECT j.id AS job, n.user_id AS user FROM jobs j JOIN user_notices n ON n.id = j.ref WHERE j.kind = 'email' AND n.ref = ?",
      )
        .bind(breach.id)
        .all<{ job: string; user: string }>()
    ).results;
    expect(outbox.map((o) => o.user).sort()).toEqual([a.id, b.id].sort());
    for (const o of outbox) await runJob(db(), env, o.job);
    const emailed = await env.DB.prepare(
      'SELECT count(*) AS n FROM user_notices WHERE ref = ? AND emailed_at IS NOT NULL',
    )
      .bind(breach.id)
      .first<{ n: number }>();
    expect(emailed?.n).toBe(2);
    const audit = await env.DB.prepare(
      "SELECT actor_id FROM audit_log WHERE action = 'breach.recorded' AND target_id = ?",
    )
      .bind(breach.id)
      .first<{ actor_id: string }>();
    expect(audit?.actor_id).toBe(admin.id);
  });

  it('tracks the Board intimation (due at once) and the 72-hour report, overdue by a moved clock', async () => {
    const admin = await loginAdmin();
    const person = await signup();
    const foundAt = new Date();
    const created = await (
      await call('/api/admin/breaches', jsonInit('POST', body(foundAt, [person.id]), as(admin)))
    ).json<Breach>();
    expect(Date.parse(created.boardReport.dueAt) - foundAt.getTime()).toBe(72 * HOUR);
    expect(created.boardIntimation.overdue).toBe(true);
    expect(created.boardReport.overdue).toBe(false);

    const listed = await call('/api/admin/breaches?overdue=true', { headers: as(admin) });
    expect(listed.status).toBe(200);
    expect((await listed.json<{ items: Breach[] }>()).items.map((i) => i.id)).toContain(created.id);

    const marked = await call(
      `/api/admin/breaches/${created.id}/board`,
      jsonInit('POST', { step: 'intimation' }, as(admin)),
    );
    expect(marked.status).toBe(200);
    expect((await marked.json<Breach>()).boardIntimation).toMatchObject({ overdue: false });
    await expectProblem(
      await call(
        `/api/admin/breaches/${created.id}/board`,
        jsonInit('POST', { step: 'intimation' }, as(admin)),
      ),
      409,
      'conflict',
    );

    // 71 hours on: not overdue; 73 hours on: the report is overdue.
    const at71 = (await listBreaches(db(), true, new Date(foundAt.getTime() + 71 * HOUR))).map((b) => b.id);
    expect(at71).not.toContain(created.id);
    const at73 = await listBreaches(db(), true, new Date(foundAt.getTime() + 73 * HOUR));
    expect(at73.find((b) => b.id === created.id)?.boardReport.overdue).toBe(true);

    await call(`/api/admin/breaches/${created.id}/board`, jsonInit('POST', { step: 'report' }, as(admin)));
    const after = await listBreaches(db(), true, new Date(foundAt.getTime() + 73 * HOUR));
    expect(after.map((b) => b.id)).not.toContain(created.id);
  });

  it('accepts the documented maximum of affected accounts (beyond D1’s 100 parameters per statement)', async () => {
    const admin = await loginAdmin();
    const person = await signup();
    const ids = [person.id, ...Array.from({ length: 150 }, (_, i) => `missing-${i}`)];
    // Unknown ids among many: a 422 naming the field, not a 500 from too many SQL variables.
    const res = await call('/api/admin/breaches', jsonInit('POST', body(new Date(), ids), as(admin)));
    expect((await expectProblem(res, 422, 'validation-failed')).errors?.[0]?.pointer).toBe(
      '#/affectedUserIds',
    );
  });

  it('refuses unknown accounts and non-admins', async () => {
    const admin = await loginAdmin();
    const res = await call(
      '/api/admin/breaches',
      jsonInit('POST', body(new Date(), ['no-such-user']), as(admin)),
    );
    expect((await expectProblem(res, 422, 'validation-failed')).errors?.[0]?.pointer).toBe(
      '#/affectedUserIds',
    );
    const person = await signup();
    await expectProblem(
      await call('/api/admin/breaches', jsonInit('POST', body(new Date(), [person.id]), as(person))),
      403,
      'forbidden',
    );
  });
});
