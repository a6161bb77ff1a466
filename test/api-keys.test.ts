import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../src/domain/secrets';
import { issueKey, loginAdmin, signup } from './harness';
import { as, call, expectProblem, jsonInit } from './helpers';

describe('admin API keys', () => {
  it('issues a key once, with a recognisable prefix, 256-bit secret and SHA-256 at rest', async () => {
    const admin = await loginAdmin();
    const res = await call(
      '/api/admin/api-keys',
      jsonInit('POST', { name: 'Acme', scopes: ['integrity:check', 'rubrics:generate'] }, as(admin)),
    );
    expect(res.status).toBe(201);
    const created = await res.json<{
      id: string;
      key: string;
      prefix: string;
      scopes: string[];
      lastUsedAt: null;
    }>();
    expect(created.key).toMatch(/^vpk_[A-Za-z0-9_-]{43}$/);
    expect(created.key.startsWith(created.prefix)).toBe(true);
    expect(created).toMatchObject({ scopes: ['integrity:check', 'rubrics:generate'], lastUsedAt: null });

    const row = await env.DB.prepare('SELECT * FROM api_keys WHERE id = ?')
      .bind(created.id)
      .first<Record<string, unknown>>();
    expect(row?.key_hash).toBe(await sha256Hex(created.key));
    expect(JSON.stringify(row)).not.toContain(created.key);

    const list = await (await call('/api/admin/api-keys', { headers: as(admin) })).json<{
      items: Record<string, unknown>[];
    }>();
    const listed = list.items.find((k) => k.id === created.id);
    expect(listed).toMatchObject({ name: 'Acme', prefix: created.prefix, revokedAt: null });
    expect(listed).not.toHaveProperty('key');
    expect(JSON.stringify(list)).not.toContain(created.key);
  });

  it('validates the body: unknown scope and empty scopes are 422', async () => {
    const admin = await loginAdmin();
    const bad = await call(
      '/api/admin/api-keys',
      jsonInit('POST', { name: 'x', scopes: ['everything'] }, as(admin)),
    );
    expect((await expectProblem(bad, 422, 'validation-failed')).errors?.[0]?.pointer).toBe('#/scopes/0');
    const empty = await call('/api/admin/api-keys', jsonInit('POST', { name: 'x', scopes: [] }, as(admin)));
    await expectProblem(empty, 422, 'validation-failed');
  });

  it('is admin-only: 401 without a session, 403 for candidates and employers', async () => {
    await expectProblem(await call('/api/admin/api-keys'), 401, 'unauthenticated');
    for (const role of ['candidate', 'employer'] as const) {
      const user = await signup(role);
      await expectProblem(await call('/api/admin/api-keys', { headers: as(user) }), 403, 'forbidden');
      await expectProblem(
        await call(
          '/api/admin/api-keys',
          jsonInit('POST', { name: 'x', scopes: ['integrity:check'] }, as(user)),
        ),
        403,
        'forbidden',
      );
      await expectProblem(
        await call('/api/admin/api-keys/any', { method: 'DELETE', headers: as(user) }),
        403,
        'forbidden',
      );
    }
  });

  it('pages the list with a bounded limit and an opaque cursor', async () => {
    const admin = await loginAdmin();
    for (let i = 0; i < 3; i++) await issueKey(admin, ['integrity:check'], `page-${i}`);
    const first = await (await call('/api/admin/api-keys?limit=2', { headers: as(admin) })).json<{
      items: { id: string }[];
      nextCursor: string;
    }>();
    expect(first.items).toHaveLength(2);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await (
      await call(`/api/admin/api-keys?limit=2&cursor=${first.nextCursor}`, { headers: as(admin) })
    ).json<{ items: { id: string }[] }>();
    expect(second.items.map((k) => k.id)).not.toContain(first.items[0]!.id);
    await expectProblem(
      await call('/api/admin/api-keys?limit=0', { headers: as(admin) }),
      400,
      'invalid-parameters',
    );
    await expectProblem(
      await call('/api/admin/api-keys?limit=101', { headers: as(admin) }),
      400,
      'invalid-parameters',
    );
    const badCursor = await call('/api/admin/api-keys?cursor=!!', { headers: as(admin) });
    expect((await expectProblem(badCursor, 400, 'invalid-parameters')).errors?.[0]?.pointer).toBe(
      '#/query/cursor',
    );
  });
});

describe('API-key authentication', () => {
  it('accepts a live key, reports it at /api/v1/keys/self and records lastUsedAt', async () => {
    const admin = await loginAdmin();
    const { key, id } = await issueKey(admin, ['playbooks:generate']);
    const res = await call('/api/v1/keys/self', { headers: { 'X-Service-Key': key } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      id,
      scopes: ['playbooks:generate'],
      rateLimit: { limit: 600, windowSeconds: 60 },
    });
    const row = await env.DB.prepare('SELECT last_used_at FROM api_keys WHERE id = ?')
      .bind(id)
      .first<{ last_used_at: number }>();
    expect(row?.last_used_at).toBeGreaterThan(Date.now() - 60_000);
  });

  it('refuses a missing, unknown or malformed key with 401', async () => {
    await expectProblem(await call('/api/v1/keys/self'), 401, 'unauthenticated');
    await expectProblem(
      await call('/api/v1/keys/self', { headers: { 'X-Service-Key': 'vpk_unknown' } }),
      401,
      'unauthenticated',
    );
    await expectProblem(
      await call('/api/v1/keys/self', { headers: { 'X-Service-Key': 'Bearer nonsense' } }),
      401,
      'unauthenticated',
    );
  });

  it('refuses a revoked key from the very next request', async () => {
    const admin = await loginAdmin();
    const { key, id } = await issueKey(admin, ['integrity:check']);
    expect((await call('/api/v1/keys/self', { headers: { 'X-Service-Key': key } })).status).toBe(200);
    const revoked = await call(`/api/admin/api-keys/${id}`, { method: 'DELETE', headers: as(admin) });
    expect(revoked.status).toBe(200);
    expect((await revoked.json<{ revokedAt: string | null }>()).revokedAt).not.toBeNull();
    await expectProblem(
      await call('/api/v1/keys/self', { headers: { 'X-Service-Key': key } }),
      401,
      'unauthenticated',
    );
    // Revoking again is harmless; an unknown id is 404.
    expect((await call(`/api/admin/api-keys/${id}`, { method: 'DELETE', headers: as(admin) })).status).toBe(
      200,
    );
    await expectProblem(
      await call('/api/admin/api-keys/nope', { method: 'DELETE', headers: as(admin) }),
      404,
      'not-found',
    );
  });

  it('ignores session cookies on API-key routes', async () => {
    const admin = await loginAdmin();
    await expectProblem(await call('/api/v1/keys/self', { headers: as(admin) }), 401, 'unauthenticated');
  });
});

describe('API-key 401s', () => {
  it('carry a WWW-Authenticate challenge naming the header (RFC 9110 §15.5.2)', async () => {
    const admin = await loginAdmin();
    const revoked = await issueKey(admin, ['rubrics:generate'], 'challenge');
    await call(`/api/admin/api-keys/${revoked.id}`, { method: 'DELETE', headers: as(admin) });
    const presented: Record<string, string>[] = [
      {},
      { 'X-Service-Key': 'vpk_bogus' },
      { 'X-Service-Key': 'not-even-a-key' },
      { 'X-Service-Key': revoked.key },
    ];
    for (const headers of presented) {
      for (const path of ['/api/v1/keys/self', '/api/v1/webhooks']) {
        const res = await call(path, { headers });
        expect(res.headers.get('WWW-Authenticate'), `${path} ${JSON.stringify(headers)}`).toBe(
          'ApiKey realm="api", header="X-Service-Key"',
        );
        await expectProblem(res, 401, 'unauthenticated');
      }
    }
    const rubric = await call(
      '/api/v1/rubrics/generate',
      jsonInit('POST', { brief: 'x' }, { 'X-Service-Key': 'vpk_bogus' }),
    );
    expect(rubric.headers.get('WWW-Authenticate')).toBe('ApiKey realm="api", header="X-Service-Key"');
    // A live key that lacks the scope is a 403: no challenge.
    const live = await issueKey(admin, ['integrity:check'], 'challenge live');
    const forbidden = await call('/api/v1/webhooks', { headers: { 'X-Service-Key': live.key } });
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers.get('WWW-Authenticate')).toBeNull();
  });
});
