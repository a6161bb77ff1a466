/**
 * The API-key lifecycle (unkey's model): organisation, expiry, roll with a grace period, a
 * per-key rate limit, and usage by day and outcome counted in the limiter and written behind.
 */
import { env, runDurableObjectAlarm } from 'cloudflare:test';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { issueKey, loginAdmin, organisationOf, signup } from './harness';
import { type Account, as, call, eventually, expectProblem, jsonInit } from './helpers';

const CHALLENGE = 'ApiKey realm="api", header="X-Service-Key"';

let admin: Account;
beforeAll(async () => {
  admin = await loginAdmin();
});
afterEach(() => {
  vi.useRealTimers();
});

type Created = {
  id: string;
  key: string;
  prefix: string;
  organisationId: string | null;
  expiresAt: string | null;
  ratelimitPerMinute: number | null;
  previousKeyExpiresAt: string | null;
  rolledAt: string | null;
};

async function create(body: Record<string, unknown>): Promise<Created> {
  const res = await call(
    '/api/admin/api-keys',
    jsonInit('POST', { name: 'lifecycle', scopes: ['rubrics:generate'], ...body }, as(admin)),
  );
  expect(res.status).toBe(201);
  return res.json<Created>();
}

const self = (key: string) => call('/api/v1/keys/self', { headers: { 'X-Service-Key': key } });

const roll = (id: string, body?: Record<string, unknown>) =>
  call(
    `/api/admin/api-keys/${id}/roll`,
    body ? jsonInit('POST', body, as(admin)) : { method: 'POST', headers: as(admin) },
  );

describe('API keys: organisation and expiry', () => {
  it('belongs to an organisation when given one; an unknown organisation is a 404', async () => {
    const employer = await signup('employer');
    const organisationId = await organisationOf(employer);
    const created = await create({ organisationId });
    expect(created.organisationId).toBe(organisationId);
    expect(await (await self(created.key)).json()).toMatchObject({ id: created.id, organisationId });
    await expectProblem(
      await call(
        '/api/admin/api-keys',
        jsonInit(
          'POST',
          { name: 'x', scopes: ['rubrics:generate'], organisationId: 'no-such-org' },
          as(admin),
        ),
      ),
      404,
      'not-found',
    );
  });

  it('stops working at expiresAt with a 401 that says it expired (moved clock)', async () => {
    const expiresAt = new Date(Date.now() + 3600_000);
    const created = await create({ expiresAt: expiresAt.toISOString() });
    expect(created.expiresAt).toBe(expiresAt.toISOString());
    expect((await self(created.key)).status).toBe(200);

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(expiresAt.getTime() - 1000);
    expect((await self(created.key)).status).toBe(200);
    vi.setSystemTime(expiresAt.getTime() + 1000);
    const expired = await self(created.key);
    expect(expired.headers.get('WWW-Authenticate')).toBe(CHALLENGE);
    const problem = await expectProblem(expired, 401, 'unauthenticated');
    expect(problem.detail).toMatch(/expired/);
  });

  it('refuses an expiry in the past and a per-key limit not below the default (422)', async () => {
    for (const bad of [
      { expiresAt: new Date(Date.now() - 1000).toISOString() },
      { ratelimitPerMinute: 600 },
      { ratelimitPerMinute: 0 },
    ]) {
      await expectProblem(
        await call(
          '/api/admin/api-keys',
          jsonInit('POST', { name: 'x', scopes: ['rubrics:generate'], ...bad }, as(admin)),
        ),
        422,
        'validation-failed',
      );
    }
  });
});

describe('API keys: roll', () => {
  it('issues a new secret for the same key; the old one works through the grace period, then 401 (moved clock)', async () => {
    const created = await create({});
    const start = Date.now();
    const res = await roll(created.id, { gracePeriodSeconds: 3600 });
    expect(res.status).toBe(200);
    const rolled = await res.json<Created>();
    expect(rolled.id).toBe(created.id);
    expect(rolled.key).not.toBe(created.key);
    expect(rolled.key).toMatch(/^vpk_[A-Za-z0-9_-]{43}$/);
    expect(rolled.prefix).not.toBe(created.prefix);
    expect(Date.parse(rolled.previousKeyExpiresAt ?? '')).toBeGreaterThanOrEqual(start + 3600_000 - 5000);

    // Both work during the grace period, as the same key.
    for (const key of [created.key, rolled.key])
      expect(await (await self(key)).json()).toMatchObject({ id: created.id });

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start + 3600_000 - 10_000);
    expect((await self(created.key)).status).toBe(200);
    vi.setSystemTime(start + 3600_000 + 10_000);
    await expectProblem(await self(created.key), 401, 'unauthenticated');
    expect((await self(rolled.key)).status).toBe(200);
  });

  it('defaults the grace period to a day; 0 ends the old secret at once', async () => {
    const a = await create({});
    const start = Date.now();
    const byDefault = await (await roll(a.id)).json<Created>();
    expect(Date.parse(byDefault.previousKeyExpiresAt ?? '') - start).toBeGreaterThan(86_400_000 - 10_000);
    expect(Date.parse(byDefault.previousKeyExpiresAt ?? '') - start).toBeLessThanOrEqual(86_400_000 + 10_000);
    expect((await self(a.key)).status).toBe(200);

    const b = await create({});
    const now = await (await roll(b.id, { gracePeriodSeconds: 0 })).json<Created>();
    expect(now.previousKeyExpiresAt).toBeNull();
    await expectProblem(await self(b.key), 401, 'unauthenticated');
    expect((await self(now.key)).status).toBe(200);
  });

  it('bounds the grace period, 404s an unknown key, 409s a revoked one, and is admin-only', async () => {
    const created = await create({});
    await expectProblem(await roll(created.id, { gracePeriodSeconds: 8 * 86_400 }), 422, 'validation-failed');
    await expectProblem(await roll(created.id, { gracePeriodSeconds: -1 }), 422, 'validation-failed');
    await expectProblem(await roll('no-such-key', {}), 404, 'not-found');
    await call(`/api/admin/api-keys/${created.id}`, { method: 'DELETE', headers: as(admin) });
    await expectProblem(await roll(created.id, {}), 409, 'conflict');
    const candidate = await signup('candidate');
    await expectProblem(
      await call(`/api/admin/api-keys/${created.id}/roll`, jsonInit('POST', {}, as(candidate))),
      403,
      'forbidden',
    );
  });

  it('takes an empty body sent as JSON for no body (the default grace period), not malformed JSON', async () => {
    const created = await create({});
    const start = Date.now();
    const res = await call(`/api/admin/api-keys/${created.id}/roll`, {
      method: 'POST',
      headers: as(admin, { 'content-type': 'application/json' }),
      body: '',
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const rolled = await res.json<Created>();
    expect(Date.parse(rolled.previousKeyExpiresAt ?? '') - start).toBeGreaterThan(86_400_000 - 10_000);
    // The header without any body at all: the same.
    const bare = await call(`/api/admin/api-keys/${created.id}/roll`, {
      method: 'POST',
      headers: as(admin, { 'content-type': 'application/json; charset=utf-8' }),
    });
    expect(bare.status).toBe(200);
    // Only the empty body: white space is not JSON, and a required body stays required.
    await expectProblem(
      await call(`/api/admin/api-keys/${created.id}/roll`, jsonInit('POST', ' ', as(admin))),
      400,
      'malformed-json',
    );
    await expectProblem(
      await call('/api/admin/api-keys', jsonInit('POST', '', as(admin))),
      400,
      'malformed-json',
    );

    // With an Idempotency-Key, "no body" and "an empty JSON body" are the same request (same bytes).
    const key = crypto.randomUUID();
    const first = await call(`/api/admin/api-keys/${created.id}/roll`, {
      method: 'POST',
      headers: as(admin, { 'Idempotency-Key': key }),
    });
    expect(first.status).toBe(200);
    const again = await call(`/api/admin/api-keys/${created.id}/roll`, {
      method: 'POST',
      headers: as(admin, { 'Idempotency-Key': key, 'content-type': 'application/json' }),
      body: '',
    });
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect((await again.json<Created>()).key).toBe((await first.json<Created>()).key);
  });

  it('a revoked key reports no previousKeyExpiresAt: no secret of it works', async () => {
    const created = await create({});
    const rolled = await (await roll(created.id, { gracePeriodSeconds: 3600 })).json<Created>();
    expect(rolled.previousKeyExpiresAt).not.toBeNull();
    const revoked = await call(`/api/admin/api-keys/${created.id}`, { method: 'DELETE', headers: as(admin) });
    expect(revoked.status).toBe(200);
    const view = await revoked.json<Created & { revokedAt: string | null }>();
    expect(view.revokedAt).not.toBeNull();
    expect(view.previousKeyExpiresAt).toBeNull();
    expect(view.rolledAt).not.toBeNull();
    for (const key of [created.key, rolled.key]) await expectProblem(await self(key), 401, 'unauthenticated');
    const list = await (await call('/api/admin/api-keys?limit=100', { headers: as(admin) })).json<{
      items: Created[];
    }>();
    expect(list.items.find((k) => k.id === created.id)).toMatchObject({ previousKeyExpiresAt: null });
    // Revoking again answers the same.
    const again = await call(`/api/admin/api-keys/${created.id}`, { method: 'DELETE', headers: as(admin) });
    expect((await again.json<Created>()).previousKeyExpiresAt).toBeNull();
  });

  it('rolling again ends the grace period of the secret before', async () => {
    const created = await create({});
    const first = await (await roll(created.id, { gracePeriodSeconds: 3600 })).json<Created>();
    const second = await (await roll(created.id, { gracePeriodSeconds: 3600 })).json<Created>();
    await expectProblem(await self(created.key), 401, 'unauthenticated');
    expect((await self(first.key)).status).toBe(200);
    expect((await self(second.key)).status).toBe(200);
  });
});

describe('API keys: per-key rate limit', () => {
  it('enforces a lower limit exactly like the default one, with its own policy header', async () => {
    const created = await create({ ratelimitPerMinute: 3 });
    expect(created.ratelimitPerMinute).toBe(3);
    for (let i = 0; i < 3; i++) {
      const res = await self(created.key);
      expect(res.status).toBe(200);
      expect(res.headers.get('RateLimit-Policy')).toBe('"apikey";q=3;w=60');
      expect(res.headers.get('RateLimit')).toMatch(new RegExp(`^"apikey";r=${2 - i};t=\\d+$`));
      if (i === 0) expect(await res.json()).toMatchObject({ rateLimit: { limit: 3, windowSeconds: 60 } });
    }
    const refused = await self(created.key);
    await expectProblem(refused, 429, 'quota-exceeded');
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);

    // Another key keeps the default.
    const other = await issueKey(admin, ['rubrics:generate']);
    expect((await self(other.key)).headers.get('RateLimit-Policy')).toBe('"apikey";q=600;w=60');
  });
});

describe('API keys: usage', () => {
  it('counts every request by day and outcome in the limiter, and writes them to D1 in one batch', async () => {
    const created = await create({ ratelimitPerMinute: 5, scopes: ['rubrics:generate'] });
    const rubric = (body: unknown) =>
      call('/api/rubrics/generate', jsonInit('POST', body, { 'X-Service-Key': created.key }));
    const BRIEF = {
      brief: 'We need a REST API. It must return RFC 9457 errors and have tests for each endpoint.',
    };
    // Counted by the limit of 5: 200, 200, 422, the 403 (the key lacks the scope: refused after
    // the limiter counted it), 200. Then 3 refusals by the limit.
    expect((await rubric(BRIEF)).status).toBe(200);
    expect((await rubric(BRIEF)).status).toBe(200);
    expect((await rubric({ brief: '' })).status).toBe(422);
    expect(
      (await call('/api/v1/playbooks/generate', jsonInit('POST', {}, { 'X-Service-Key': created.key })))
        .status,
    ).toBe(403);
    expect((await self(created.key)).status).toBe(200);
    expect((await rubric(BRIEF)).status).toBe(429);
    expect((await rubric(BRIEF)).status).toBe(429);
    expect((await rubric(BRIEF)).status).toBe(429);
    // Unknown secrets are nobody's usage.
    expect((await self(`${created.key}x`)).status).toBe(401);
    const expected = { success: 3, clientError: 2, rateLimited: 3, serverError: 0 };

    const limiter = env.RATE_LIMITER.getByName(`apikey:${created.id}`);
    const today = new Date().toISOString().slice(0, 10);
    // The counts are recorded after each response (waitUntil); wait for the last of them.
    await eventually(async () => {
      const pending = await limiter.pendingUsage(created.id);
      const sum = Object.values(pending[today] ?? {}).reduce((a, b) => a + b, 0);
      return sum === 8 ? true : undefined;
    });
    expect((await limiter.pendingUsage(created.id))[today]).toEqual(expected);
    const before = await env.DB.prepare('SELECT count(*) AS n FROM api_key_usage WHERE api_key_id = ?')
      .bind(created.id)
      .first<{ n: number }>();
    expect(before?.n).toBe(0); // nothing in D1 yet: no write per request

    // The write-behind timer stores the counts and arms the alarm; the alarm writes them to D1.
    await limiter.flush();
    expect(await runDurableObjectAlarm(limiter)).toBe(true);
    expect(await limiter.pendingUsage(created.id)).toEqual({});
    const row = await env.DB.prepare(
      'SELECT day, success, client_error, rate_limited, server_error FROM api_key_usage WHERE api_key_id = ?',
    )
      .bind(created.id)
      .all();
    expect(row.results).toEqual([
      { day: today, success: 3, client_error: 2, rate_limited: 3, server_error: 0 },
    ]);

    const report = await (
      await call(`/api/admin/api-keys/${created.id}/usage`, { headers: as(admin) })
    ).json<{
      from: string;
      to: string;
      days: ({ day: string } & typeof expected)[];
      totals: typeof expected;
    }>();
    expect(report.days).toHaveLength(90);
    expect(report.to).toBe(today);
    expect(report.days.at(-1)).toEqual({ day: today, ...expected });
    expect(report.totals).toEqual(expected);
    await expectProblem(
      await call('/api/admin/api-keys/nope/usage', { headers: as(admin) }),
      404,
      'not-found',
    );
  });

  it('lets a key read its own usage, exact before the flush as well (pending counts added)', async () => {
    const created = await create({});
    for (let i = 0; i < 3; i++) expect((await self(created.key)).status).toBe(200);
    const limiter = env.RATE_LIMITER.getByName(`apikey:${created.id}`);
    await eventually(async () => {
      const pending = await limiter.pendingUsage(created.id);
      return Object.values(pending).some((c) => c.success === 3) ? true : undefined;
    });
    const res = await call('/api/v1/keys/self/usage', { headers: { 'X-Service-Key': created.key } });
    expect(res.status).toBe(200);
    const report = await res.json<{ apiKeyId: string; totals: Record<string, number> }>();
    expect(report.apiKeyId).toBe(created.id);
    expect(report.totals).toEqual({ success: 3, clientError: 0, rateLimited: 0, serverError: 0 });
  });
});

// What a partner, or someone holding a leaked key, meets: refusals for a missing scope or role
// count towards the rate limit, a validation problem lists a bounded number of errors, an expiring
// key cannot be rolled past its end, a key can ask when it and its secret stop working, and key
// names an admin reads are plain text. Found by a black-box round on the partner platform.
/** A key of its own for a test: `rubrics:generate` unless `body` says otherwise. */
async function createKey(body: Record<string, unknown>): Promise<Created> {
  const res = await call(
    '/api/admin/api-keys',
    jsonInit('POST', { name: 'round 3', scopes: ['rubrics:generate'], ...body }, as(admin)),
  );
  expect(res.status).toBe(201);
  return res.json<Created>();
}

const PLAYBOOK_BRIEF = {
  title: 'Todo app',
  domain: 'web',
  deliverables: ['A todo app'],
  successCriteria: ['Tests pass'],
  durationDays: 7,
};

describe('the rate limit counts refusals for a missing scope or role', () => {
  it('limits a key calling an operation it lacks the scope for, and its 403 carries the RateLimit headers', async () => {
    const created = await createKey({ ratelimitPerMinute: 2 });
    const outOfScope = () =>
      call('/api/v1/playbooks/generate', jsonInit('POST', PLAYBOOK_BRIEF, { 'X-Service-Key': created.key }));

    for (let i = 0; i < 2; i++) {
      const res = await outOfScope();
      const problem = await expectProblem(res, 403, 'forbidden');
      expect(problem.detail).toMatch(/lacks the playbooks:generate scope/);
      expect(res.headers.get('RateLimit-Policy')).toBe('"apikey";q=2;w=60');
      expect(res.headers.get('RateLimit')).toMatch(new RegExp(`^"apikey";r=${1 - i};t=\\d+$`));
      expect(res.headers.get('WWW-Authenticate')).toBeNull();
    }
    // Over the limit: refused as such, whatever the operation.
    const refused = await outOfScope();
    await expectProblem(refused, 429, 'quota-exceeded');
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    await expectProblem(
      await call('/api/v1/keys/self', { headers: { 'X-Service-Key': created.key } }),
      429,
      'quota-exceeded',
    );
  });

  it("limits a signed-in user calling another role's routes, with the RateLimit headers on the 403", async () => {
    const candidate = await signup('candidate');
    const employerOnly = () => call('/api/webhooks', { headers: as(candidate) });
    const first = await employerOnly();
    await expectProblem(first, 403, 'forbidden');
    expect(first.headers.get('RateLimit-Policy')).toBe('"user";q=60;w=60');
    expect(first.headers.get('RateLimit')).toMatch(/^"user";r=59;t=\d+$/);
    for (let i = 1; i < 60; i++) expect((await employerOnly()).status).toBe(403);
    await expectProblem(await employerOnly(), 429, 'quota-exceeded');
    // The user's own routes are over the limit too: it is one budget per user.
    await expectProblem(await call('/api/me', { headers: as(candidate) }), 429, 'quota-exceeded');
  });
});

describe('validation problems list a bounded number of errors', () => {
  it('lists the first 50 errors of a body with thousands and says how many there were', async () => {
    const created = await createKey({ scopes: ['integrity:check'] });
    const body: Record<string, unknown> = { text: 'Some prose to check.' };
    for (let i = 0; i < 3000; i++) body[`field${i}`] = i;
    const res = await call(
      '/api/v1/integrity/check',
      jsonInit('POST', body, { 'X-Service-Key': created.key }),
    );
    const problem = await expectProblem(res, 422, 'validation-failed');
    expect(problem.errors).toHaveLength(50);
    expect(problem.errors?.[0]).toEqual({ pointer: '#/field0', detail: 'Unknown field' });
    expect(problem.detail).toBe(
      'The request body does not match the schema (3000 errors; the first 50 are listed).',
    );
  });

  it('counts issues of every kind together (wrong types in an array, then unknown fields)', async () => {
    const created = await createKey({ scopes: ['integrity:check'] });
    const commit = {
      sha: 'x',
      authorEmail: 1,
      authoredAt: 'yesterday',
      message: 2,
      additions: -1,
      deletions: 'y',
    };
    const res = await call(
      '/api/v1/integrity/check',
      jsonInit(
        'POST',
        { commits: Array.from({ length: 40 }, () => commit) },
        { 'X-Service-Key': created.key },
      ),
    );
    const problem = await expectProblem(res, 422, 'validation-failed');
    expect(problem.errors).toHaveLength(50);
    expect(problem.detail).toMatch(
      /^The request body does not match the schema \((\d+) errors; the first 50 are listed\)\.$/,
    );
    expect(Number(/\((\d+) errors/.exec(problem.detail)?.[1])).toBeGreaterThanOrEqual(240);
  });

  it('keeps the detail unchanged when every error is listed', async () => {
    const created = await createKey({ scopes: ['playbooks:generate'] });
    const res = await call(
      '/api/v1/playbooks/generate',
      jsonInit(
        'POST',
        { ...PLAYBOOK_BRIEF, successCriteria: undefined, extra: 1 },
        { 'X-Service-Key': created.key },
      ),
    );
    const problem = await expectProblem(res, 422, 'validation-failed');
    expect(problem.detail).toBe('The request body does not match the schema.');
    expect(problem.errors).toEqual(
      expect.arrayContaining([
        { pointer: '#/successCriteria', detail: 'Required' },
        { pointer: '#/extra', detail: 'Unknown field' },
      ]),
    );
  });
});

describe('rolling a key that expires', () => {
  const roll = (id: string, body: Record<string, unknown>) =>
    call(`/api/admin/api-keys/${id}/roll`, jsonInit('POST', body, as(admin)));

  it('reports a grace period that ends with the key, not after it', async () => {
    const expiresAt = new Date(Date.now() + 3600_000).toISOString();
    const created = await createKey({ expiresAt });
    const res = await roll(created.id, { gracePeriodSeconds: 86_400 });
    expect(res.status).toBe(200);
    const rolled = await res.json<Created>();
    expect(rolled.expiresAt).toBe(expiresAt);
    expect(rolled.previousKeyExpiresAt).toBe(expiresAt);
  });

  it('refuses to roll an expired key (409, as for a revoked one); its view shows no working old secret (moved clock)', async () => {
    const expiresAt = new Date(Date.now() + 3600_000);
    const created = await createKey({ expiresAt: expiresAt.toISOString() });
    expect((await roll(created.id, { gracePeriodSeconds: 600 })).status).toBe(200);

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(expiresAt.getTime() + 1000);
    const problem = await expectProblem(await roll(created.id, {}), 409, 'conflict');
    expect(problem.detail).toMatch(/expired/);

    const listed = await (await call('/api/admin/api-keys?limit=100', { headers: as(admin) })).json<{
      items: Created[];
    }>();
    const view = listed.items.find((k) => k.id === created.id);
    expect(view?.previousKeyExpiresAt).toBeNull();
  });
});

describe('GET /api/v1/keys/self tells a key when it and the secret sent stop working', () => {
  const self = (key: string) => call('/api/v1/keys/self', { headers: { 'X-Service-Key': key } });
  type Self = { expiresAt: string | null; replacedByRoll: boolean; sentKeyExpiresAt: string | null };

  it('reports the expiry of the key, null when it never expires', async () => {
    const expiresAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const expiring = await createKey({ expiresAt });
    expect(await (await self(expiring.key)).json<Self>()).toMatchObject({
      expiresAt,
      replacedByRoll: false,
      sentKeyExpiresAt: expiresAt,
    });
    const forever = await createKey({});
    expect(await (await self(forever.key)).json<Self>()).toMatchObject({
      expiresAt: null,
      replacedByRoll: false,
      sentKeyExpiresAt: null,
    });
  });

  it('tells the secret a roll replaced that it is, and when its grace period ends', async () => {
    const created = await createKey({});
    const res = await call(
      `/api/admin/api-keys/${created.id}/roll`,
      jsonInit('POST', { gracePeriodSeconds: 3600 }, as(admin)),
    );
    const rolled = await res.json<Created>();
    expect(await (await self(created.key)).json<Self>()).toEqual(
      expect.objectContaining({
        expiresAt: null,
        replacedByRoll: true,
        sentKeyExpiresAt: rolled.previousKeyExpiresAt,
      }),
    );
    expect(await (await self(rolled.key)).json<Self>()).toMatchObject({
      replacedByRoll: false,
      sentKeyExpiresAt: null,
    });
  });
});

describe('key names an admin reads in lists', () => {
  it('refuses control, bidi-override and invisible characters in a key name (422 at #/name)', async () => {
    for (const name of ['\u202egnp.exe', 'prod\u0000key', 'zero\u200bwidth']) {
      const res = await call(
        '/api/admin/api-keys',
        jsonInit('POST', { name, scopes: ['rubrics:generate'] }, as(admin)),
      );
      const problem = await expectProblem(res, 422, 'validation-failed');
      expect(
        problem.errors?.map((e) => e.pointer),
        JSON.stringify(name),
      ).toEqual(['#/name']);
    }
    // Other scripts are names like any other.
    expect((await createKey({ name: 'भर्ती प्रोडक्शन' })).id).toBeTruthy();
  });
});
