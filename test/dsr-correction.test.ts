import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { leaderboardKey, verificationKey, verificationPageKey } from '../src/services/cache-keys';
import { openConfirmationLink } from './confirm';
import { seedBrief, seedCertifiedWork, signup } from './harness';
import { type Account, as, call, expectProblem, jsonInit } from './helpers';

const correct = (account: Account, body: unknown) =>
  call('/api/dsr/correction', jsonInit('PATCH', body, as(account)));

describe('PATCH /api/dsr/correction', () => {
  it('corrects name and email, audit-logs before and after, and records a completed request', async () => {
    const person = await signup('candidate', 'Ravi Kumr');
    const newEmail = `ravi-${crypto.randomUUID().slice(0, 8)}@Example.test`;
    const res = await correct(person, { name: '  Ravi Kumar ', email: newEmail });
    expect(res.status).toBe(200);
    const body = await res.json<{
      profile: Record<string, unknown>;
      request: Record<string, unknown>;
      pendingEmail: string;
    }>();
    // The name is corrected at once; the email waits until the new address is confirmed (issue 41).
    expect(body.profile).toMatchObject({ id: person.id, name: 'Ravi Kumar', email: person.email });
    expect(body.pendingEmail).toBe(newEmail.toLowerCase());
    expect(body.request).toMatchObject({
      kind: 'correction',
      state: 'in_progress',
      details: { fields: ['name', 'email'], pendingEmail: newEmail.toLowerCase() },
    });

    // The person opens the link mailed to the new address; the request then completes.
    const confirmed = await openConfirmationLink(person.id, 'change');
    expect(confirmed.status).toBe(200);
    const me = await (await call('/api/me', { headers: as(person) })).json<{ name: string; email: string }>();
    expect(me).toMatchObject({ name: 'Ravi Kumar', email: newEmail.toLowerCase() });
    const requests = await (await call('/api/me/dsr-requests', { headers: as(person) })).json<{
      items: { id: string; state: string }[];
    }>();
    expect(requests.items.find((item) => item.id === body.request.id)).toMatchObject({ state: 'completed' });

    // Audit: the request records the name's before and after and the pending address; the
    // confirmation records the email's before and after.
    const audits = await env.DB.prepare(
      "SELECT actor_id, target_type, target_id, details FROM audit_log WHERE action = 'dsr.correction' AND actor_id = ? ORDER BY rowid",
    )
      .bind(person.id)
      .all<{ actor_id: string; target_type: string; target_id: string; details: string }>();
    expect(audits.results).toHaveLength(2);
    for (const audit of audits.results)
      expect(audit).toMatchObject({ target_type: 'user', target_id: person.id });
    expect(JSON.parse(audits.results[0]!.details)).toEqual({
      before: { name: 'Ravi Kumr' },
      after: { name: 'Ravi Kumar' },
      pendingEmail: newEmail.toLowerCase(),
    });
    expect(JSON.parse(audits.results[1]!.details)).toEqual({
      before: { email: person.email },
      after: { email: newEmail.toLowerCase() },
      confirmed: true,
    });

    // The new email logs in; the old one no longer does.
    const login = await call(
      '/api/auth/login',
      jsonInit('POST', { email: newEmail, password: person.password }),
    );
    expect(login.status).toBe(200);
    const old = await call(
      '/api/auth/login',
      jsonInit('POST', { email: person.email, password: person.password }),
    );
    await expectProblem(old, 401, 'unauthenticated');
  });

  it('accepts one field alone, and records only what changed', async () => {
    const person = await signup('candidate', 'Meera');
    const res = await correct(person, { name: 'Meera Iyer' });
    expect(res.status).toBe(200);
    const body = await res.json<{ profile: { email: string }; request: { details: unknown } }>();
    expect(body.profile.email).toBe(person.email);
    expect(body.request.details).toEqual({ fields: ['name'] });
  });

  it('writes nothing when nothing changes: 200 with the unchanged profile and no request', async () => {
    const person = await signup('candidate', 'Anil Menon');
    const records = async () =>
      env.DB.prepare(
        "SELECT (SELECT count(*) FROM dsr_requests WHERE user_id = ?1) AS requests, (SELECT count(*) FROM audit_log WHERE action = 'dsr.correction' AND target_id = ?1) AS audit",
      )
        .bind(person.id)
        .first<{ requests: number; audit: number }>();
    // The name it has (spaces trimmed), the email it has (in another case), or both.
    for (const body of [
      { name: ' Anil Menon ' },
      { email: person.email.toUpperCase() },
      { name: 'Anil Menon', email: person.email },
    ]) {
      const res = await correct(person, body);
      expect(res.status).toBe(200);
      const result = await res.json<{ profile: { name: string; email: string }; request: unknown }>();
      expect(result.profile).toMatchObject({ name: 'Anil Menon', email: person.email });
      expect(result.request).toBeNull();
    }
    expect(await records()).toEqual({ requests: 0, audit: 0 });
    const listed = await (await call('/api/me/dsr-requests', { headers: as(person) })).json<{
      items: unknown[];
    }>();
    expect(listed.items).toEqual([]);
    // A real change is still recorded.
    const changed = await correct(person, { name: 'Anil K. Menon' });
    expect((await changed.json<{ request: { details: unknown } }>()).request.details).toEqual({
      fields: ['name'],
    });
    expect(await records()).toEqual({ requests: 1, audit: 1 });
  });

  it('refuses any other field (role, id) with 422 pointing at it, and an empty body', async () => {
    const person = await signup('candidate');
    const role = await expectProblem(
      await correct(person, { name: 'X', role: 'admin' }),
      422,
      'validation-failed',
    );
    expect(role.errors?.map((e) => e.pointer)).toEqual(['#/role']);
    const id = await expectProblem(await correct(person, { id: 'someone-else' }), 422, 'validation-failed');
    expect(id.errors?.map((e) => e.pointer)).toContain('#/id');
    const empty = await expectProblem(await correct(person, {}), 422, 'validation-failed');
    expect(empty.errors).toEqual([{ pointer: '#', detail: 'Give name, email, dateOfBirth or several' }]);
    const bad = await expectProblem(
      await correct(person, { email: 'nope', name: '' }),
      422,
      'validation-failed',
    );
    expect(bad.errors?.map((e) => e.pointer).sort()).toEqual(['#/email', '#/name']);
    const me = await (await call('/api/me', { headers: as(person) })).json<{ role: string }>();
    expect(me.role).toBe('candidate');
  });

  it('refuses an email another account has (any case), and the admin email, with 409', async () => {
    const person = await signup('candidate');
    const other = await signup('candidate');
    await expectProblem(await correct(person, { email: other.email.toUpperCase() }), 409, 'conflict');
    await expectProblem(await correct(person, { email: 'admin@test.local' }), 409, 'conflict');
    const count = await env.DB.prepare(
      "SELECT count(*) AS n FROM dsr_requests WHERE user_id = ? AND kind = 'correction'",
    )
      .bind(person.id)
      .first<{ n: number }>();
    expect(count?.n).toBe(0);
  });

  it('drops the cached public views that show the old name', async () => {
    const employer = await signup('employer');
    const person = await signup('candidate', 'Old Name');
    const brief = await seedBrief(employer.id);
    const cert = await seedCertifiedWork(person, { ...brief, employerId: employer.id });
    await env.CACHE.put(verificationKey(cert.certificateNo), '{"holderName":"Old Name"}');
    await env.CACHE.put(verificationPageKey(cert.certificateNo, 'hi'), '<p>Old Name</p>');
    await env.CACHE.put(leaderboardKey('web'), '{"entries":[{"alias":"Old Name"}]}');
    expect((await correct(person, { name: 'New Name' })).status).toBe(200);
    expect(await env.CACHE.get(verificationKey(cert.certificateNo))).toBeNull();
    expect(await env.CACHE.get(verificationPageKey(cert.certificateNo, 'hi'))).toBeNull();
    expect(await env.CACHE.get(leaderboardKey('web'))).toBeNull();
  });

  it('needs a session (401) and an allowed origin (403)', async () => {
    await expectProblem(
      await call('/api/dsr/correction', jsonInit('PATCH', { name: 'X' })),
      401,
      'unauthenticated',
    );
    const person = await signup('candidate');
    await expectProblem(
      await call('/api/dsr/correction', jsonInit('PATCH', { name: 'X' }, { cookie: person.cookie })),
      403,
      'forbidden',
    );
  });
});
