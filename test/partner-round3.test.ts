/**
 * Partner platform and security, third black-box round: what a partner (or someone holding a
 * leaked key) met that the earlier rounds did not catch.
 * - A key calling operations outside its scope, or a user calling routes of another role, was
 *   never rate limited (the refusal came before the limiter) and its 403 carried no RateLimit headers.
 * - A validation problem listed every error: a 4 MB body with 350,000 unknown fields answered 17 MB.
 * - An expired key could be rolled (a new secret refused at once as expired), and a roll reported a
 *   grace period outliving the key itself.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loginAdmin, signup } from './harness';
import { type Account, as, call, expectProblem, jsonInit } from './helpers';

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
  expiresAt: string | null;
  previousKeyExpiresAt: string | null;
};

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
