/**
 * In-app notices (`GET /api/me/notices`) for children and their guardians, and paging. A child
 * reads the notices about their own data whatever the guardian gate's state; an approved
 * guardian gets a copy of each breach (and retention) notice given to their ward, naming the
 * child, by email too for a breach (DPDP §2(j), Rule 7(1)); the child's erasure removes the
 * copies. Every notice is reachable page by page.
 */
import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { breaches, userNotices } from '../src/db/schema';
import { BREACH_NOTIFICATION_JOB } from '../src/services/breaches';
import { runJob } from '../src/services/jobs/jobs';
import { runRetention } from '../src/services/retention';
import { completedErasure, db, loginAdmin, signup } from './harness';
import { type Account, as, call, expectProblem, jsonInit } from './helpers';

const DAY = 86_400_000;

type Notice = { id: string; kind: string; title: string; body: string; createdAt: string };
type NoticePage = { notices: Notice[]; nextCursor: string | null };

/** An ISO date `years` years before now (real clock). */
function bornAgo(years: number): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear() - years, now.getUTCMonth(), now.getUTCDate() - 1))
    .toISOString()
    .slice(0, 10);
}

const breachBody = (affected: Record<string, unknown>, description = 'A backup was readable by anyone.') => ({
  description,
  foundAt: new Date().toISOString(),
  categories: ['name', 'email'],
  measures: 'The backup was deleted.',
  consequences: 'Someone may send you messages that pretend to be from us.',
  ...affected,
});

async function recordBreach(admin: Account, affected: Record<string, unknown>, description?: string) {
  const res = await call(
    '/api/admin/breaches',
    jsonInit('POST', breachBody(affected, description), as(admin)),
  );
  expect(res.status).toBe(201);
  return res.json<{ id: string }>();
}

async function noticesOf(account: Account, query = ''): Promise<NoticePage> {
  const res = await call(`/api/me/notices${query}`, { headers: as(account) });
  expect(res.status).toBe(200);
  return res.json<NoticePage>();
}

/** A child (named `name`) whose request names a fresh adult guardian; approved unless told otherwise. */
async function childAndGuardian(name: string, { approve = true, age = 15 } = {}) {
  const guardian = await signup('candidate', 'Parent Person');
  const child = await signup('candidate', name, undefined, {
    dateOfBirth: bornAgo(age),
    guardianEmail: guardian.email,
  });
  const approveIt = async () => {
    const { items } = await (await call('/api/guardian/requests', { headers: as(guardian) })).json<{
      items: { id: string; child: { email: string } }[];
    }>();
    const request = items.find((i) => i.child.email === child.email)!;
    const res = await call(
      `/api/guardian/requests/${request.id}/approve`,
      jsonInit('POST', { relationship: 'parent' }, as(guardian)),
    );
    expect(res.status).toBe(200);
  };
  if (approve) await approveIt();
  return { guardian, child, approveIt };
}

/** Runs a selector breach's page jobs (the queue may run some too) until its notification is done. */
async function notifyAll(breachId: string): Promise<void> {
  for (let round = 0; round < 200; round++) {
    const [row] = await db().select().from(breaches).where(eq(breaches.id, breachId));
    if (row?.notification === 'done') return;
    const { results } = await env.DB.prepare(
      "SELECT id FROM jobs WHERE kind = ? AND ref LIKE ? AND state IN ('pending', 'running')",
    )
      .bind(BREACH_NOTIFICATION_JOB, `${breachId}:%`)
      .all<{ id: string }>();
    for (const job of results) await runJob(db(), env, job.id);
    if (results.length === 0) await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('breach notification did not finish');
}

describe("a child's notices and their guardian's copies", { timeout: 60_000 }, () => {
  it('a child reads their breach notice before their guardian approves; the rest stays closed', async () => {
    const admin = await loginAdmin();
    const { child, approveIt } = await childAndGuardian('Waiting Child', { approve: false });
    await recordBreach(admin, { affectedUserIds: [child.id] });
    const before = await noticesOf(child);
    expect(before.notices.map((n) => n.kind)).toEqual(['breach']);
    // Only their notices opened up: other routes still wait for the guardian.
    await expectProblem(
      await call('/api/me/consents', { headers: as(child) }),
      403,
      'guardian-consent-required',
    );
    await approveIt();
    expect((await noticesOf(child)).notices).toHaveLength(1);
  });

  it('the approved guardian gets a copy naming the ward, by email too', async () => {
    const admin = await loginAdmin();
    const unique = crypto.randomUUID().slice(0, 8);
    const { guardian, child } = await childAndGuardian(`Ward ${unique}`);
    const bystander = await signup('candidate');
    const breach = await recordBreach(admin, { affectedUserIds: [child.id, bystander.id] });

    const mine = await noticesOf(guardian);
    expect(mine.notices).toHaveLength(1);
    expect(mine.notices[0]).toMatchObject({ kind: 'breach' });
    expect(mine.notices[0]!.title).toContain(`Ward ${unique}`);
    expect(mine.notices[0]!.body).toContain('A backup was readable by anyone.');
    expect(mine.notices[0]!.body).toContain(`/api/guardian/wards/${child.id}/access`);
    // The copy goes by email like the child's own notice: a job addressed to the guardian.
    const jobs = await env.DB.prepare(
      "SELECT count(*) AS n FROM jobs WHERE kind = 'email' AND subject_id = ? AND ref = ?",
    )
      .bind(guardian.id, mine.notices[0]!.id)
      .first<{ n: number }>();
    expect(jobs?.n).toBe(1);
    // The child keeps their own notice; the breach counts the two affected people, not the copy.
    expect((await noticesOf(child)).notices.map((n) => n.title)).toEqual([
      'A personal data breach affected your data',
    ]);
    const [row] = await db().select().from(breaches).where(eq(breaches.id, breach.id));
    expect(row?.affectedCount).toBe(2);
    // Nobody else's guardian hears of it.
    expect((await noticesOf(bystander)).notices).toHaveLength(1);

    // Another guardian's copy goes to them only.
    const other = await childAndGuardian('Other Child');
    expect((await noticesOf(other.guardian)).notices).toEqual([]);
  });

  it('a guardian whose address is not confirmed gets no copy, by notice or email, until it is (issue 41)', async () => {
    const admin = await loginAdmin();
    const unique = crypto.randomUUID().slice(0, 8);
    const { guardian, child } = await childAndGuardian(`Unconfirmed Ward ${unique}`);
    // Their approval was given while confirmed; the address then lost its confirmation (an account
    // made before addresses were confirmed is in the same place).
    await env.DB.prepare('UPDATE users SET email_confirmed_at = NULL WHERE id = ?').bind(guardian.id).run();
    await recordBreach(admin, { affectedUserIds: [child.id] }, `First breach ${unique}`);
    expect((await noticesOf(guardian)).notices).toEqual([]);
    const mailed = () =>
      env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE kind = 'email' AND subject_id = ?")
        .bind(guardian.id)
        .first<{ n: number }>();
    expect((await mailed())?.n).toBe(0);
    // The child still gets theirs.
    expect((await noticesOf(child)).notices).toHaveLength(1);

    // Confirmed again: the next notice is copied to them.
    await env.DB.prepare('UPDATE users SET email_confirmed_at = ? WHERE id = ?')
      .bind(Date.now(), guardian.id)
      .run();
    await recordBreach(admin, { affectedUserIds: [child.id] }, `Second breach ${unique}`);
    const copies = (await noticesOf(guardian)).notices;
    expect(copies).toHaveLength(1);
    expect(copies[0]!.title).toContain(`Unconfirmed Ward ${unique}`);
    expect(copies[0]!.body).toContain(`Second breach ${unique}`);
    expect((await mailed())?.n).toBe(1);
  });

  it('a breach chosen by a selector copies the notice to the guardian too, once however often a page runs', async () => {
    const admin = await loginAdmin();
    const { guardian, child } = await childAndGuardian('Selected Child');
    const created = await env.DB.prepare('SELECT created_at AS at FROM users WHERE id = ?')
      .bind(child.id)
      .first<{ at: number }>();
    const breach = await recordBreach(admin, {
      affected: { query: { role: 'candidate', signedUpAfter: new Date(created!.at).toISOString() } },
    });
    await notifyAll(breach.id);
    const copies = (await noticesOf(guardian)).notices.filter((n) => n.title.includes('Selected Child'));
    expect(copies).toHaveLength(1);
    const [row] = await db().select().from(breaches).where(eq(breaches.id, breach.id));
    expect(row?.affectedCount).toBe(1);
  });

  it('a retention notice of a child is copied to their guardian', async () => {
    const { guardian, child } = await childAndGuardian('Quiet Child', { age: 10 });
    await runRetention(db(), env, new Date(Date.now() + 1096 * DAY));
    expect((await noticesOf(child)).notices.map((n) => n.kind)).toEqual(['retention']);
    const copies = (await noticesOf(guardian)).notices.filter((n) => n.title.includes('Quiet Child'));
    expect(copies.map((n) => n.kind)).toEqual(['retention']);
  });

  it("the child's erasure removes the copies that name them", async () => {
    const admin = await loginAdmin();
    const unique = crypto.randomUUID().slice(0, 8);
    const { guardian, child } = await childAndGuardian(`Erased Ward ${unique}`);
    await recordBreach(admin, { affectedUserIds: [child.id, guardian.id] });
    expect((await noticesOf(guardian)).notices).toHaveLength(2);

    const res = await call(`/api/guardian/wards/${child.id}/erasure`, {
      method: 'DELETE',
      headers: as(guardian),
    });
    expect(res.status).toBe(202);
    const { requestId } = await res.json<{ requestId: string }>();
    const receipt = await completedErasure(requestId);
    expect(receipt.deletedCounts.ward_notice_copies).toBe(1);
    // The guardian keeps their own notice; nothing names the child any more.
    const left = await noticesOf(guardian);
    expect(left.notices.map((n) => n.title)).toEqual(['A personal data breach affected your data']);
    const naming = await env.DB.prepare(
      'SELECT count(*) AS n FROM user_notices WHERE instr(title || body || ref, ?) > 0 OR instr(title || body || ref, ?) > 0',
    )
      .bind(child.id, `Erased Ward ${unique}`)
      .first<{ n: number }>();
    expect(naming?.n).toBe(0);
  });
});

describe('GET /api/me/notices is paged', { timeout: 30_000 }, () => {
  it('pages newest first with limit and cursor until nextCursor is null, so every notice is reachable', async () => {
    const person = await signup('candidate');
    const start = Date.now() - 1_000_000;
    // 105 notices, more than a page can hold; the last three share a second.
    const rows = Array.from({ length: 105 }, (_, i) => ({
      userId: person.id,
      kind: 'breach' as const,
      ref: `paging-${i}`,
      title: `Notice ${i}`,
      body: 'Body',
      createdAt: new Date(start + Math.min(i, 102) * 1000),
    }));
    // 10 rows per insert: D1 binds at most 100 parameters per statement.
    for (let i = 0; i < rows.length; i += 10)
      await db()
        .insert(userNotices)
        .values(rows.slice(i, i + 10));

    // Without parameters: the 100 newest, as before, and a cursor to the rest.
    const first = await noticesOf(person);
    expect(first.notices).toHaveLength(100);
    expect(first.nextCursor).not.toBeNull();
    const rest = await noticesOf(person, `?cursor=${first.nextCursor}`);
    expect(rest.notices).toHaveLength(5);
    expect(rest.nextCursor).toBeNull();

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: NoticePage = await noticesOf(person, `?limit=7${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.notices.length).toBeLessThanOrEqual(7);
      seen.push(...page.notices.map((n) => n.title));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(105);
    expect(new Set(seen).size).toBe(105);
    expect(seen[seen.length - 1]).toBe('Notice 0');
    const times = seen.map((t) => Math.min(Number(t.split(' ')[1]), 102));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    await expectProblem(
      await call('/api/me/notices?cursor=not-a-cursor', { headers: as(person) }),
      400,
      'invalid-parameters',
    );
    await expectProblem(
      await call('/api/me/notices?limit=101', { headers: as(person) }),
      400,
      'invalid-parameters',
    );
  });
});
