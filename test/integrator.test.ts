import { env, SELF } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { app } from '../src/app';
import { CANONICAL_SERVER_URL, openApiDocument } from '../src/http/openapi';
import { resetDeploymentChecks } from '../src/services/deployment-checks';
import { BASE, call } from './helpers';

type Op = {
  operationId?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  responses: Record<string, { description: string; content?: Record<string, { example?: unknown }> }>;
};
const doc = openApiDocument(app, CANONICAL_SERVER_URL) as unknown as {
  info: { description: string };
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, Op>>;
  components: {
    schemas: Record<string, { nullable?: boolean }>;
    securitySchemes: Record<string, { description: string }>;
  };
};
const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => ({ label: `${method.toUpperCase()} ${path}`, method, op })),
);

describe('an OpenAPI document generators can use', () => {
  it('names every operation with a unique camelCase operationId', () => {
    const ids = operations.map(({ op }) => op.operationId);
    expect(ids.filter((id) => !id || !/^[a-z][a-zA-Z0-9]*$/.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('declares every tag an operation uses, each with a description', () => {
    const declared = new Map(doc.tags.map((t) => [t.name, t.description]));
    const used = new Set(operations.flatMap(({ op }) => op.tags ?? []));
    expect([...used].filter((t) => !declared.has(t))).toEqual([]);
    for (const [name, description] of declared) expect(description, name).toMatch(/\w/);
  });

  it('puts null where a value can be null, not on a component', () => {
    const nullable = Object.entries(doc.components.schemas).filter(([, s]) => s.nullable);
    expect(nullable.map(([name]) => name)).toEqual([]);
    const evaluation = doc.paths['/api/evaluations/{id}']?.get?.responses['200'];
    expect(JSON.stringify(evaluation)).toContain('#/components/schemas/Evaluation');
    expect(JSON.stringify(doc.components.schemas.Submission)).toMatch(
      /"evaluation":\{"type":"object","nullable":true,"allOf":\[\{"\$ref":"#\/components\/schemas\/Evaluation"\}\]/,
    );
  });

  it('writes the cookie rule (an allowed Origin for writes) on the scheme and on every cookie write’s 403', () => {
    expect(doc.components.securitySchemes.sessionCookie?.description).toContain('Origin');
    const writes = operations.filter(
      ({ method, op }) => method !== 'get' && op.security?.some((s) => 'sessionCookie' in s),
    );
    expect(writes.length).toBeGreaterThan(10);
    for (const { label, op } of writes) {
      expect(op.responses['403']?.description, label).toContain('`Origin`');
      expect(op.responses['403']?.content?.['application/problem+json']?.example, label).toMatchObject({
        status: 403,
        type: '/problems/forbidden',
      });
    }
  });

  it('serves a description for a reader with only this repository, naming its own server', async () => {
    const res = await call('/openapi.yaml');
    const served = parse(await res.text()) as typeof doc;
    const text = JSON.stringify(served);
    for (const internal of ['{base_url}', 'PRODUCT.md', 'seed §', "seed's"])
      expect(text).not.toContain(internal);
    expect(served.info.description).toContain(`Origin: ${env.PUBLIC_BASE_URL}`);
  });
});

describe('CORS preflights of public reads', () => {
  const preflight = (path: string) =>
    call(path, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://partner.example',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'if-none-match, x-request-id',
      },
    });

  it.each([
    '/api/verify/VP-7K3M-Q9TD-2XWV',
    '/api/leaderboard',
    '/api/public/agreement-rate',
    '/api/briefs',
    '/.well-known/jwks.json',
    '/openapi.yaml',
    // What a credential points to, for browser verifiers and wallets revalidating with ETags.
    '/ob/status-lists/revocation/0',
    '/ob/issuers/platform',
    '/api/certificates/VP-7K3M-Q9TD-2XWV/badge.png',
  ])('answers OPTIONS %s with 204 and the allowed methods and headers', async (path) => {
    const res = await preflight(path);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
    expect(res.headers.get('access-control-allow-headers')).toContain('If-None-Match');
    expect(res.headers.get('access-control-allow-headers')).toContain('X-Request-Id');
    expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    // A preflight is a response like any other: the security headers and our request id.
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.each(['/api/me', '/api/dsr/erasure', '/api/consent', '/verify/VP-7K3M-Q9TD-2XWV'])(
    'grants no CORS to %s (authenticated, or a page): OPTIONS is a 405',
    async (path) => {
      const res = await preflight(path);
      expect(res.status).toBe(405);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    },
  );

  it('exposes the ETag of what a credential points to, so a cross-origin verifier can revalidate', async () => {
    const res = await call('/ob/issuers/platform', { headers: { Origin: 'https://wallet.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-expose-headers')).toContain('ETag');
    // Its refusals too, so a browser verifier can read why.
    const missing = await call('/ob/issuers/00000000-0000-4000-8000-00000000dead', {
      headers: { Origin: 'https://wallet.example' },
    });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('lets any origin read a public list, and not a private one', async () => {
    const list = await call('/api/briefs', { headers: { Origin: 'https://partner.example' } });
    expect(list.status).toBe(200);
    expect(list.headers.get('access-control-allow-origin')).toBe('*');
    expect(list.headers.get('access-control-expose-headers')).toContain('ETag');
    const me = await call('/api/me', { headers: { Origin: 'https://partner.example' } });
    expect(me.status).toBe(401);
    expect(me.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('GET /api/health: the configured base URL against the served origin', () => {
  beforeEach(() => resetDeploymentChecks());

  it('is ok when PUBLIC_BASE_URL is where requests arrive', async () => {
    const res = await call('/api/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      status: 'ok',
      checks: { baseUrl: { status: 'ok', ok: true, configured: env.PUBLIC_BASE_URL, observed: null } },
    });
  });

  it('shows a mismatch found on the first request of the isolate, and keeps showing it', async () => {
    expect(new URL(env.PUBLIC_BASE_URL).origin).toBe(BASE);
    const first = await SELF.fetch('https://api.elsewhere.example/api/leaderboard');
    expect(first.status).toBe(200);
    const res = await call('/api/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      status: 'degraded',
      checks: {
        baseUrl: {
          status: 'degraded',
          ok: false,
          configured: env.PUBLIC_BASE_URL,
          observed: 'https://api.elsewhere.example',
        },
      },
    });
  });
});
