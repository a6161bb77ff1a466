import { describe, expect, it } from 'vitest';
import { checkResponse } from './response-validation';

const json = (body: unknown, status = 200, type = 'application/json') =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': type } });
const problem = (status: number, slug: string) =>
  json({ type: `/problems/${slug}`, title: 'T', status, detail: 'D' }, status, 'application/problem+json');
const URL_SELF = 'http://localhost:8787/api/v1/keys/self';
const SELF_BODY = {
  id: 'k1',
  name: 'Partner',
  scopes: ['integrity:check'],
  otherScopes: [],
  grantedScopes: ['integrity:check'],
  organisationId: null,
  rateLimit: { limit: 600, windowSeconds: 60 },
  expiresAt: null,
  replacedByRoll: false,
  sentKeyExpiresAt: null,
};
const problems = async (method: string, url: string, res: Response) =>
  (await checkResponse(method, url, res)).problems;

describe('response validation against the generated OpenAPI document', () => {
  it('accepts a documented status, content type and body', async () => {
    expect(await problems('GET', URL_SELF, json(SELF_BODY))).toEqual([]);
    expect(await problems('GET', URL_SELF, problem(401, 'unauthenticated'))).toEqual([]);
  });

  it('refuses an undocumented status', async () => {
    expect(await problems('GET', URL_SELF, problem(409, 'conflict'))).toEqual([
      expect.stringContaining('status 409 is not documented'),
    ]);
  });

  it('refuses an undocumented content type, and an error that is not problem+json', async () => {
    const text = new Response('hi', { headers: { 'content-type': 'text/plain' } });
    expect(await problems('GET', URL_SELF, text)).toEqual([expect.stringContaining('"text/plain"')]);
    expect(
      await problems(
        'GET',
        URL_SELF,
        json({ type: '/problems/forbidden', title: 'F', status: 403, detail: 'x' }, 403),
      ),
    ).toEqual([expect.stringContaining('"application/json"')]);
  });

  it('refuses a body with a missing field, a wrong type, a value outside an enum, or an undocumented field', async () => {
    const { name: _name, ...missing } = SELF_BODY;
    expect(await problems('GET', URL_SELF, json(missing))).toEqual([expect.stringContaining('"name"')]);
    expect(
      await problems('GET', URL_SELF, json({ ...SELF_BODY, rateLimit: { limit: '600', windowSeconds: 60 } })),
    ).not.toEqual([]);
    expect(await problems('GET', URL_SELF, json({ ...SELF_BODY, scopes: ['admin'] }))).not.toEqual([]);
    expect(await problems('GET', URL_SELF, json({ ...SELF_BODY, keyHash: 'ab12' }))).toEqual(
      expect.arrayContaining([expect.stringContaining('keyHash')]),
    );
  });

  it('closes composed (allOf) objects as a whole: their members’ fields pass, others do not', async () => {
    const key = {
      id: 'k1',
      name: 'n',
      prefix: 'vpk_abc',
      scopes: ['integrity:check'],
      organisationId: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      lastUsedAt: null,
      revokedAt: null,
      expiresAt: null,
      ratelimitPerMinute: null,
      rolledAt: null,
      previousKeyExpiresAt: null,
    };
    const url = 'http://localhost:8787/api/admin/api-keys';
    expect(await problems('POST', url, json({ ...key, key: 'vpk_secret' }, 201))).toEqual([]);
    expect(await problems('POST', url, json({ ...key, key: 'vpk_secret', keyHash: 'x' }, 201))).toEqual(
      expect.arrayContaining([expect.stringContaining('keyHash')]),
    );
    expect(await problems('POST', url, json({ ...key, lastUsedAt: 5, key: 'k' }, 201))).not.toEqual([]);
  });

  it('checks a problem’s status and type against the response', async () => {
    const wrong = json(
      { type: 'about:blank', title: 'T', status: 400, detail: 'D' },
      401,
      'application/problem+json',
    );
    expect(await problems('GET', URL_SELF, wrong)).toEqual([
      expect.stringContaining('problem status 400 is not 401'),
      expect.stringContaining('not a /problems/{type} URI'),
    ]);
  });

  it('expects a 404 problem for an unknown path and a 405 with Allow for an undocumented method', async () => {
    expect(await problems('GET', 'http://localhost:8787/api/nope', json({ ok: true }))).toEqual([
      expect.stringContaining('status 200 for a path the document does not have'),
      expect.stringContaining('"application/json"'),
    ]);
    expect(await problems('DELETE', URL_SELF, problem(405, 'method-not-allowed'))).toEqual([
      '405 without an Allow header',
    ]);
  });

  it('accepts no body where the document has none', async () => {
    const logout = 'http://localhost:8787/api/auth/logout';
    expect(await problems('POST', logout, new Response(null, { status: 204 }))).toEqual([]);
  });
});
