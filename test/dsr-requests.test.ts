import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { getDb } from '../src/db/client';
import { requestErasure } from '../src/services/dsr/erasure';
import { loginAdmin, signup } from './harness';
import { type Account, as, call, expectProblem, jsonInit } from './helpers';

type DsrRequest = {
  id: string;
  kind: string;
  state: string;
  details: Record<string, unknown> | null;
  dueAt: string;
  createdAt: string;
  updatedAt: string | null;
  completedAt: string | null;
};
type AdminRequest = DsrRequest & { userId: string; overdue: boolean };
type Page<T> = { items: T[]; nextCursor: string | null };

const DAY_MS = 24 * 60 * 60 * 1000;

const post = (account: Account, path: string, body: unknown) =>
  call(path, jsonInit('POST', body, as(account)));
const grievance = (
  account: Account,
  body: unknown = { subject: 'Wrong score', description: 'My score ignores my tests.' },
) => post(account, '/api/dsr/grievance', body);
const nomination = (
  account: Account,
  body: unknown = { nomineeName: 'Anita Kumar', nomineeEmail: 'Anita@Example.com', relationship: 'Sister' },
) => post(account, '/api/dsr/nomination', body);
const resolve = (admin: Account, id: string, body: unknown) =>
  call(`/api/admin/dsr-requests/${id}`, jsonInit('PATCH', body, as(admin)));

describe('grievance and nomination', () => {
  it('files a grievance due in 90 days, and a nomination due in 30, both received', async () => {
    const person = await signup('candidate');
    const g = await grievance(person);
    expect(g.status).toBe(201);
    const filed = await g.json<DsrRequest>();
    expect(filed).toMatchObject({
      kind: 'grievance',
      state: 'received',
      details: { subject: 'Wrong score', description: 'My score ignores my tests.' },
      completedAt: null,
    });
    expect(Date.parse(filed.dueAt) - Date.parse(filed.createdAt)).toBe(90 * DAY_MS);

    const n = await nomination(person);
    expect(n.status).toBe(201);
    const nominated = await n.json<DsrRequest>();
    expect(nominated).toMatchObject({
      kind: 'nomination',
      state: 'received',
      details: { nomineeName: 'Anita Kumar', nomineeEmail: 'anita@example.com', relationship: 'Sister' },
    });
    expect(Date.parse(nominated.dueAt) - Date.parse(nominated.createdAt)).toBe(30 * DAY_MS);

    const audit = await env.DB.prepare(
      'SELECT action, target_id FROM audit_log WHERE actor_id = ? ORDER BY rowid',
    )
      .bind(person.id)
      .all<{ action: string; target_id: string }>();
    expect(audit.results).toEqual([
      { action: 'dsr.grievance', target_id: filed.id },
      { action: 'dsr.nomination', target_id: nominated.id },
    ]);
  });

  it('validates strictly, pointing at each field', async () => {
    const person = await signup('candidate');
    const g = await expectProblem(
      await grievance(person, { subject: '', description: 'x'.repeat(5001), priority: 'high' }),
      422,
      'validation-failed',
    );
    expect(g.errors?.map((e) => e.pointer).sort()).toEqual(['#/description', '#/priority', '#/subject']);
    const long = await expectProblem(
      await grievance(person, { subject: 's'.repeat(201), description: '   ' }),
      422,
      'validation-failed',
    );
    expect(long.errors?.map((e) => e.pointer).sort()).toEqual(['#/description', '#/subject']);

    const n = await expectProblem(
      await nomination(person, { nomineeName: 'A', nomineeEmail: 'not-an-email' }),
      422,
      'validation-failed',
    );
    expect(n.errors?.map((e) => e.pointer).sort()).toEqual(['#/nomineeEmail', '#/relationship']);
    const self = await expectProblem(
      await nomination(person, {
        nomineeName: 'Me',
        nomineeEmail: person.email.toUpperCase(),
        relationship: 'Self',
      }),
      422,
      'validation-failed',
    );
    expect(self.errors?.map((e) => e.pointer)).toEqual(['#/nomineeEmail']);
    await expectProblem(
      await call('/api/dsr/grievance', {
        method: 'POST',
        headers: { ...as(person), 'content-type': 'application/json' },
        body: '{',
      }),
      400,
      'malformed-json',
    );
  });

  it('needs a session: 401 without one', async () => {
    await expectProblem(
      await call('/api/dsr/grievance', jsonInit('POST', { subject: 's', description: 'd' })),
      401,
      'unauthenticated',
    );
    await expectProblem(
      await call(
        '/api/dsr/nomination',
        jsonInit('POST', { nomineeName: 'a', nomineeEmail: 'a@b.co', relationship: 'r' }),
      ),
      401,
      'unauthenticated',
    );
    await expectProblem(await call('/api/me/dsr-requests'), 401, 'unauthenticated');
  });
});

describe('GET /api/me/dsr-requests', () => {
  it("lists only the caller's requests, newest first, cursor-paged", async () => {
    const person = await signup('candidate');
    const other = await signup('candidate');
    await grievance(other);
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) ids.push((await (await grievance(person)).json<DsrRequest>()).id);
    ids.push((await (await nomination(person)).json<DsrRequest>()).id);

    const first = await (await call('/api/me/dsr-requests?limit=3', { headers: as(person) })).json<
      Page<DsrRequest>
    >();
    expect(first.items).toHaveLength(3);
    expect(first.nextCursor).not.toBeNull();
    const second = await (
      await call(`/api/me/dsr-requests?limit=3&cursor=${first.nextCursor}`, { headers: as(person) })
    ).json<Page<DsrRequest>>();
    expect(second).toMatchObject({ nextCursor: null });
    const listed = [...first.items, ...second.items];
    expect(listed.map((r) => r.id).sort()).toEqual([...ids].sort());
    const key = (r: DsrRequest) => `${Date.parse(r.createdAt).toString().padStart(15, '0')}.${r.id}`;
    expect(listed.map(key)).toEqual(listed.map(key).sort().reverse());
  });

  it('refuses bad paging parameters with 400', async () => {
    const person = await signup('candidate');
    const limit = await expectProblem(
      await call('/api/me/dsr-requests?limit=0', { headers: as(person) }),
      400,
      'invalid-parameters',
    );
    expect(limit.errors?.map((e) => e.pointer)).toEqual(['#/query/limit']);
    await expectProblem(
      await call('/api/me/dsr-requests?cursor=%%%', { headers: as(person) }),
      400,
      'invalid-parameters',
    );
  });
});

describe('admin DSR queue', () => {
  it('lists every request with filters by kind and state; non-admins get 403, no session 401', async () => {
    const admin = await loginAdmin();
    const person = await signup('candidate');
    const g = await (await grievance(person)).json<DsrRequest>();
    const n = await (await nomination(person)).json<DsrRequest>();

    const grievances = await (
      await call('/api/admin/dsr-requests?kind=grievance&limit=100', { headers: as(admin) })
    ).json<Page<AdminRequest>>();
    expect(grievances.items.every((r) => r.kind === 'grievance')).toBe(true);
    const mine = grievances.items.find((r) => r.id === g.id);
    expect(mine).toMatchObject({ userId: person.id, state: 'received', overdue: false });
    expect(grievances.items.some((r) => r.id === n.id)).toBe(false);

    const received = await (
      await call('/api/admin/dsr-requests?state=received&kind=nomination', { headers: as(admin) })
    ).json<Page<AdminRequest>>();
    expect(received.items.map((r) => r.id)).toContain(n.id);

    await expectProblem(
      await call('/api/admin/dsr-requests?kind=complaint', { headers: as(admin) }),
      400,
      'invalid-parameters',
    );
    await expectProblem(await call('/api/admin/dsr-requests', { headers: as(person) }), 403, 'forbidden');
    await expectProblem(await call('/api/admin/dsr-requests'), 401, 'unauthenticated');
  });

  it('moves a request through legal transitions only, and the person sees the resolution', async () => {
    const admin = await loginAdmin();
    const person = await signup('candidate');
    const g = await (await grievance(person)).json<DsrRequest>();

    const started = await resolve(admin, g.id, { state: 'in_progress' });
    expect(started.status).toBe(200);
    expect(await started.json()).toMatchObject({ state: 'in_progress', completedAt: null });

    await expectProblem(await resolve(admin, g.id, { state: 'in_progress' }), 409, 'conflict');
    const done = await resolve(admin, g.id, {
      state: 'completed',
      resolution: 'Re-scored; the tests now count.',
    });
    expect(done.status).toBe(200);
    const completed = await done.json<AdminRequest>();
    expect(completed).toMatchObject({
      state: 'completed',
      details: { resolution: 'Re-scored; the tests now count.' },
    });
    expect(completed.completedAt).not.toBeNull();
    await expectProblem(await resolve(admin, g.id, { state: 'rejected' }), 409, 'conflict');

    const mine = await (await call('/api/me/dsr-requests', { headers: as(person) })).json<Page<DsrRequest>>();
    expect(mine.items[0]).toMatchObject({
      id: g.id,
      state: 'completed',
      details: { resolution: expect.any(String) },
    });

    const audit = await env.DB.prepare(
      "SELECT actor_id, details FROM audit_log WHERE action = 'dsr.resolve' AND target_id = ?",
    )
      .bind(g.id)
      .all<{ actor_id: string; details: string }>();
    expect(audit.results.map((r) => JSON.parse(r.details))).toEqual([
      { kind: 'grievance', from: 'received', to: 'in_progress' },
      { kind: 'grievance', from: 'in_progress', to: 'completed' },
    ]);
    // The audit entry records the move, not the answer's text.
    expect(JSON.stringify(audit.results)).not.toContain('Re-scored');
  });

  it('rejects from received; 404 for an unknown id; 422 for a bad body; 409 for erasure requests', async () => {
    const admin = await loginAdmin();
    const person = await signup('candidate');
    const n = await (await nomination(person)).json<DsrRequest>();
    const rejected = await resolve(admin, n.id, { state: 'rejected', resolution: 'Nominee unreachable.' });
    expect((await rejected.json<AdminRequest>()).state).toBe('rejected');

    await expectProblem(await resolve(admin, crypto.randomUUID(), { state: 'completed' }), 404, 'not-found');
    const bad = await expectProblem(
      await resolve(admin, n.id, { state: 'received', note: 'x' }),
      422,
      'validation-failed',
    );
    expect(bad.errors?.map((e) => e.pointer).sort()).toEqual(['#/note', '#/state']);

    // An erasure request as `DELETE /api/dsr/erasure` records it, its job kept off the queue: the
    // test Worker's consumer would otherwise run the cascade, which deletes the request, whenever
    // its batch fills (the queue is shared by the files of a run), and the answer would be a 404.
    const leaving = await signup('candidate');
    const held = { send: async () => {}, sendBatch: async () => {} } as unknown as Queue;
    const { requestId } = await requestErasure(getDb(env.DB), { ...env, JOBS_QUEUE: held }, leaving.id);
    await expectProblem(await resolve(admin, requestId, { state: 'completed' }), 409, 'conflict');
    await expectProblem(await resolve(person, n.id, { state: 'completed' }), 403, 'forbidden');
  });
});
