/**
 * Breaches whose affected people are "a query that selects them" (DPDP Rule 7): a small, closed
 * selector, resolved on the server and notified a page at a time through the job outbox, for
 * any number of people (2,000 seeded straight into D1 here).
 */
import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { breaches, users } from '../src/db/schema';
import { BREACH_NOTIFICATION_JOB, BREACH_PAGE, listBreaches } from '../src/services/breaches';
import { runJob } from '../src/services/jobs/jobs';
import { db, loginAdmin, seedBrief, seedCertifiedWork, signup } from './harness';
import { as, call, expectProblem, jsonInit } from './helpers';

const HOUR = 3_600_000;

type Breach = {
  id: string;
  affectedCount: number;
  affectedQuery: Record<string, unknown> | null;
  notification: 'notifying' | 'done';
  boardReport: { dueAt: string; overdue: boolean };
};

const body = (affected: unknown, foundAt = new Date()) => ({
  description: 'A reporting replica was exposed without authentication.',
  foundAt: foundAt.toISOString(),
  categories: ['name', 'email'],
  measures: 'The replica was taken offline.',
  consequences: 'Someone may send you messages that pretend to be from us.',
  affected,
});

/** Runs the breach's page jobs (the queue may run some too) until its notification is done. */
async function notifyAll(breachId: string): Promise<number> {
  let pages = 0;
  for (let round = 0; round < 200; round++) {
    const [row] = await db().select().from(breaches).where(eq(breaches.id, breachId));
    if (row?.notification === 'done') return pages;
    const { results } = await env.DB.prepare(
      "SELECT id FROM jobs WHERE kind = ? AND ref LIKE ? AND state IN ('pending', 'running')",
    )
      .bind(BREACH_NOTIFICATION_JOB, `${breachId}:%`)
      .all<{ id: string }>();
    for (const job of results) if ((await runJob(db(), env, job.id)) === 'done') pages += 1;
    if (results.length === 0) await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('breach notification did not finish');
}

const noticeCount = async (breachId: string) =>
  (await env.DB.prepare(
    "SELECT count(*) AS n, count(DISTINCT user_id) AS people FROM user_notices WHERE kind = 'breach' AND ref = ?",
  )
    .bind(breachId)
    .first<{ n: number; people: number }>())!;

describe('POST /api/admin/breaches with a selector', { timeout: 120_000 }, () => {
  it('selects the people on the server and notifies exactly them, not later signups', async () => {
    const admin = await loginAdmin();
    const employer = await signup('employer', 'Brief Owner');
    const brief = await seedBrief(employer.id, `sel-${crypto.randomUUID().slice(0, 6)}`);
    const [a, b, bystander] = [await signup(), await signup(), await signup()];
    for (const person of [a, b]) await seedCertifiedWork(person, { ...brief, employerId: employer.id });

    const res = await call(
      '/api/admin/breaches',
      jsonInit('POST', body({ query: { briefId: brief.briefId } }), as(admin)),
    );
    expect(res.status).toBe(201);
    const breach = await res.json<Breach>();
    expect(breach).toMatchObject({ notification: 'notifying', affectedQuery: { briefId: brief.briefId } });

    // Someone who submits to the brief after the breach was recorded is not among its people.
    const late = await signup();
    await seedCertifiedWork(late, { ...brief, employerId: employer.id });

    await notifyAll(breach.id);
    const listed = (await listBreaches(db(), false)).find((x) => x.id === breach.id);
    expect(listed).toMatchObject({ affectedCount: 2, notification: 'done' });
    for (const person of [a, b]) {
      const { notices } = await (await call('/api/me/notices', { headers: as(person) })).json<{
        notices: { kind: string; body: string }[];
      }>();
      expect(notices.map((n) => n.kind)).toEqual(['breach']);
      expect(notices[0]!.body).toContain('reporting replica');
    }
    for (const person of [bystander, late]) {
      const { notices } = await (await call('/api/me/notices', { headers: as(person) })).json<{
        notices: unknown[];
      }>();
      expect(notices).toEqual([]);
    }
    const emails = await env.DB.prepare(
      "SELECT count(*) AS n FROM jobs j JOIN user_notices n ON n.id = j.ref WHERE j.kind = 'email' AND n.ref = ?",
    )
      .bind(breach.id)
      .first<{ n: number }>();
    expect(emails?.n).toBe(2);
    const audit = await env.DB.prepare(
      "SELECT details FROM audit_log WHERE action = 'breach.recorded' AND target_id = ?",
    )
      .bind(breach.id)
      .first<{ details: string }>();
    expect(JSON.parse(audit!.details).query).toEqual({ briefId: brief.briefId });
  });

  it('refuses anything but a well-formed selector or ids (no free-form filter), and writes nothing', async () => {
    const admin = await loginAdmin();
    const person = await signup();
    const before = (await env.DB.prepare('SELECT count(*) AS n FROM breaches').first<{ n: number }>())!.n;
    const cases: [unknown, string][] = [
      [{ ...body({ query: { role: 'candidate' } }), affectedUserIds: [person.id] }, '#/affectedUserIds'],
      [{ ...body(undefined) }, '#/affectedUserIds'],
      [body({ query: {} }), '#/affected/query'],
      [body({ query: { all: true, role: 'candidate' } }), '#/affected/query/all'],
      [body({ query: { where: '1=1; DROP TABLE users' } }), '#/affected/query'],
      [body({ query: { role: 'root' } }), '#/affected/query/role'],
      [body({ query: { all: false } }), '#/affected/query/all'],
      [
        body({ query: { signedUpAfter: '2026-02-01T00:00:00Z', signedUpBefore: '2026-01-01T00:00:00Z' } }),
        '#/affected/query/signedUpAfter',
      ],
    ];
    for (const [payload, pointer] of cases) {
      const problem = await expectProblem(
        await call('/api/admin/breaches', jsonInit('POST', payload, as(admin))),
        422,
        'validation-failed',
      );
      expect(problem.errors?.map((e) => e.pointer).join(' ')).toContain(pointer);
    }
    await expectProblem(
      await call('/api/admin/breaches', jsonInit('POST', body({ query: { all: true } }), as(person))),
      403,
      'forbidden',
    );
    const after = (await env.DB.prepare('SELECT count(*) AS n FROM breaches').first<{ n: number }>())!.n;
    expect(after).toBe(before);
  });

  it('notifies 2,000 people in pages, each page whole, with the Board deadlines on a moved clock', async () => {
    const admin = await loginAdmin();
    // 2,000 accounts seeded straight into D1, signed up in one hour of 2020 nobody else did.
    const start = Date.UTC(2020, 0, 1);
    const seeded = Array.from({ length: 2000 }, (_, i) => ({
      id: `bulk-${String(i).padStart(4, '0')}-${crypto.randomUUID().slice(0, 8)}`,
      email: `bulk-${i}-${crypto.randomUUID().slice(0, 6)}@example.test`,
      name: `Bulk ${i}`,
      role: 'candidate' as const,
      passwordHash: 'x',
      passwordSalt: 'x',
      passwordIterations: 1,
      dateOfBirth: '1990-01-01',
      createdAt: new Date(start + i * 1000),
    }));
    const inserts = [];
    for (let i = 0; i < seeded.length; i += 10)
      inserts.push(
        db()
          .insert(users)
          .values(seeded.slice(i, i + 10)),
      );
    await db().batch([inserts[0]!, ...inserts.slice(1)]);
    // One of them is disabled (erasure pending): not selected.
    await db().update(users).set({ disabledAt: new Date() }).where(eq(users.id, seeded[7]!.id));

    const foundAt = new Date();
    const query = {
      role: 'candidate',
      signedUpAfter: '2020-01-01T00:00:00Z',
      signedUpBefore: '2020-01-01T01:00:00Z',
    };
    const res = await call('/api/admin/breaches', jsonInit('POST', body({ query }, foundAt), as(admin)));
    expect(res.status).toBe(201);
    const breach = await res.json<Breach>();
    expect(breach.affectedCount).toBe(0);

    const pages = await notifyAll(breach.id);
    expect(pages).toBeGreaterThanOrEqual(Math.ceil(1999 / BREACH_PAGE));
    const counted = await noticeCount(breach.id);
    expect(counted).toEqual({ n: 1999, people: 1999 });
    const row = (await listBreaches(db(), false)).find((x) => x.id === breach.id);
    expect(row).toMatchObject({ affectedCount: 1999, notification: 'done' });
    const emails = await env.DB.prepare(
      "SELECT count(*) AS n FROM jobs j JOIN user_notices n ON n.id = j.ref WHERE j.kind = 'email' AND n.ref = ?",
    )
      .bind(breach.id)
      .first<{ n: number }>();
    expect(emails?.n).toBe(1999);
    const disabled = await env.DB.prepare(
      "SELECT count(*) AS n FROM user_notices WHERE user_id = ? AND kind = 'breach'",
    )
      .bind(seeded[7]!.id)
      .first<{ n: number }>();
    expect(disabled?.n).toBe(0);

    // Running every page job again (a redelivery) writes nothing twice.
    const { results } = await env.DB.prepare('SELECT id FROM jobs WHERE kind = ? AND ref LIKE ?')
      .bind(BREACH_NOTIFICATION_JOB, `${breach.id}:%`)
      .all<{ id: string }>();
    await env.DB.prepare("UPDATE jobs SET state = 'pending' WHERE kind = ? AND ref LIKE ?")
      .bind(BREACH_NOTIFICATION_JOB, `${breach.id}:%`)
      .run();
    for (const job of results) await runJob(db(), env, job.id);
    expect(await noticeCount(breach.id)).toEqual({ n: 1999, people: 1999 });

    // The Board's deadlines are those of any breach: the report is overdue 73 hours on, not 71.
    const at71 = await listBreaches(db(), true, new Date(foundAt.getTime() + 71 * HOUR));
    expect(at71.find((b) => b.id === breach.id)?.boardReport.overdue ?? false).toBe(false);
    const at73 = await listBreaches(db(), true, new Date(foundAt.getTime() + 73 * HOUR));
    expect(at73.find((b) => b.id === breach.id)?.boardReport.overdue).toBe(true);
  });
});
