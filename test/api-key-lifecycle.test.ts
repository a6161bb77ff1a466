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
