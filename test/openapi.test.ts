import { env } from 'cloudflare:test';
import { describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { app } from '../src/app';
import {
  CANONICAL_SERVER_URL,
  ENDPOINTS_END,
  ENDPOINTS_START,
  endpointTable,
  openApiYaml,
} from '../src/http/openapi';
import { call } from './helpers';

type Operation = {
  security?: Record<string, string[]>[];
  parameters?: { name?: string; in?: string }[];
  responses: Record<
    string,
    { content?: Record<string, { schema: { $ref?: string } }>; headers?: Record<string, unknown> }
  >;
};
type Doc = {
  openapi: string;
  info: { title: string; version: string };
  servers: { url: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown> };
};

const generated = openApiYaml(app, CANONICAL_SERVER_URL);
const doc = parse(generated) as Doc;
const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => ({ path, method, op })),
);

describe('openapi.yaml', () => {
  it('matches what the code generates (run `npm run openapi` after changing a route)', () => {
    expect(env.COMMITTED_OPENAPI).toBe(generated);
  });

  it('agrees with the README endpoint table (run `npm run openapi` to regenerate it)', () => {
    const readme = env.README_MD;
    const table = readme.slice(
      readme.indexOf(ENDPOINTS_START),
      readme.indexOf(ENDPOINTS_END) + ENDPOINTS_END.length,
    );
    expect(table).toBe(endpointTable(app, JSON.parse(env.ROUTE_SOURCES)));
    expect(table.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| Method')).length).toBe(
      operations.length,
    );
  });

  it("leads from every URL to the file that defines it (the README table's Source column)", () => {
    const sources = JSON.parse(env.ROUTE_SOURCES) as Record<string, string>;
    const missing = operations
      .map((op) => `${op.method.toUpperCase()} ${op.path}`)
      .filter((key) => !sources[key]?.startsWith('src/routes/'));
    expect(missing).toEqual([]);
  });

  it('is a valid OpenAPI 3.0.3 document according to an independent validator', () => {
    // Validated in Node by test/global-setup.ts (@seriousme/openapi-schema-validator).
    const result = inject('openapiValidation');
    expect(result.errors).toBeNull();
    expect(result).toMatchObject({ valid: true, version: '3.0' });
  });

  it('is titled Core API v1.0.0 with one configured server and both security schemes', () => {
    expect(doc.openapi).toBe('3.0.3');
    expect(doc.info).toMatchObject({ title: 'Core API', version: 'v1.0.0' });
    expect(doc.servers).toEqual([
      { url: CANONICAL_SERVER_URL, description: 'Production', 'x-internal': false },
    ]);
    expect(doc.components.securitySchemes).toMatchObject({
      sessionCookie: { type: 'apiKey', in: 'cookie', name: 'session' },
      serviceKey: { type: 'apiKey', in: 'header', name: 'X-Service-Key' },
    });
  });

  it('puts the /ims/ paths (Open Badges 3.0 and CLR 2.0 APIs) in a tag of their own, and nothing else in it', () => {
    const ims = operations.filter(({ path }) => path.startsWith('/ims/'));
    expect(ims.map(({ method, path }) => `${method} ${path}`).sort()).toEqual([
      'get /ims/clr/v2p0/credentials',
      'get /ims/clr/v2p0/discovery',
      'get /ims/ob/v3p0/credentials',
      'get /ims/ob/v3p0/discovery',
      'get /ims/ob/v3p0/profile',
    ]);
    for (const { op } of ims) expect((op as { tags?: string[] }).tags).toEqual(['Open Badges API']);
    const others = operations.filter(({ path }) => !path.startsWith('/ims/'));
    expect(others.filter(({ op }) => (op as { tags?: string[] }).tags?.includes('Open Badges API'))).toEqual(
      [],
    );
    // The OAuth server that protects them, the holder's grants and send-to-host: "Portability".
    for (const path of ['/oauth/register', '/oauth/token', '/oauth/authorize', '/api/me/oauth-grants'])
      for (const op of Object.values(doc.paths[path]!))
        expect((op as { tags?: string[] }).tags).toEqual(['Portability']);
  });

  it('documents every error of every operation with the ProblemDetails schema', () => {
    for (const { path, method, op } of operations) {
      expect(op.responses['500'], `${method} ${path}`).toBeDefined();
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        // The Open Badges API's own error shapes, as its specifications require: Imsx_StatusInfo under
        // /ims/; RFC 6749 JSON (or an HTML page) on the OAuth endpoints.
        if (path.startsWith('/ims/')) {
          expect(response.content?.['application/json']?.schema.$ref, `${method} ${path} ${status}`).toBe(
            '#/components/schemas/Imsx_StatusInfo',
          );
          continue;
        }
        // DigiLocker's issuer API answers its refusals in its own XML (`Status="0"`), as its
        // specification shows; its other errors are problems.
        if (path.startsWith('/api/digilocker/') && (status === '401' || status === '409')) {
          expect(response.content?.['application/xml'], `${method} ${path} ${status}`).toBeDefined();
          continue;
        }
        // OID4VCI's token and credential endpoints answer its (OAuth 2.0) error objects too.
        if (
          path.startsWith('/oauth/') ||
          path.startsWith('/.well-known/oauth-') ||
          path.startsWith('/oid4vci/')
        ) {
          expect(
            response.content?.['application/json']?.schema.$ref ??
              response.content?.['text/html'] ??
              response.content?.['application/problem+json'],
            `${method} ${path} ${status}`,
          ).toBeDefined();
          continue;
        }
        expect(
          response.content?.['application/problem+json']?.schema.$ref,
          `${method} ${path} ${status}`,
        ).toBe('#/components/schemas/ProblemDetails');
      }
    }
  });

  it('documents the WWW-Authenticate challenge on every 401, the one its security scheme sends', () => {
    const with401 = operations.filter(({ op }) => op.responses['401']);
    expect(with401.length).toBeGreaterThan(0);
    for (const { path, method, op } of with401) {
      const header = op.responses['401']?.headers?.['WWW-Authenticate'] as
        | { description?: string }
        | undefined;
      const keyed = (op.security ?? []).some((s) => 'serviceKey' in s);
      const bearer = (op.security ?? []).some((s) => 'OAuth2ACG' in s) || path.startsWith('/oid4vci/');
      const oauthEndpoint = path.startsWith('/oauth/');
      if (oauthEndpoint) continue; // RFC 6749 client authentication errors, or an HTML page
      if (path.startsWith('/api/digilocker/')) {
        // DigiLocker's request signature (docs/digilocker.md).
        expect(header?.description, `${method} ${path}`).toContain('x-digilocker-hmac realm=');
        continue;
      }
      expect(header?.description, `${method} ${path}`).toContain(
        bearer ? 'Bearer realm=' : keyed ? 'ApiKey realm=' : 'Cookie realm=',
      );
    }
  });

  it('puts a security scheme, 401/403/429 and the rate-limit headers on every protected operation', () => {
    const isPublic = (op: Operation) => !op.security || op.security.length === 0;
    // The Open Badges API's operations are protected by OAuth 2.0 bearer tokens (test/ob-api.test.ts).
    const protectedOps = operations.filter(({ op, path }) => !isPublic(op) && !path.startsWith('/ims/'));
    expect(protectedOps.length).toBeGreaterThan(0);
    for (const { path, method, op } of protectedOps) {
      const label = `${method} ${path}`;
      const scheme =
        path.startsWith('/api/v1/') || path === '/api/rubrics/generate' ? 'serviceKey' : 'sessionCookie';
      expect(op.security, label).toEqual([{ [scheme]: [] }]);
      for (const status of ['401', '403', '429'])
        expect(op.responses[status], `${label} ${status}`).toBeDefined();
      expect(Object.keys(op.responses['429']!.headers ?? {})).toEqual([
        'RateLimit-Policy',
        'RateLimit',
        'Server-Timing',
        'Retry-After',
      ]);
      const success = Object.entries(op.responses).find(([s]) => Number(s) < 300)!;
      expect(Object.keys(success[1].headers ?? {}), label).toEqual(
        expect.arrayContaining(['RateLimit-Policy', 'RateLimit']),
      );
      // A wrong scope or role is refused after the request is counted: the 403 carries them too.
      expect(Object.keys(op.responses['403']!.headers ?? {}), label).toEqual(
        expect.arrayContaining(['RateLimit-Policy', 'RateLimit']),
      );
    }
  });

  it('documents Retry-After on the 409 of every idempotent operation (idempotency-key-in-use)', () => {
    const idempotent = operations.filter(({ op }) =>
      (op.parameters ?? []).some((p) => p.name === 'Idempotency-Key'),
    );
    expect(idempotent.length).toBeGreaterThan(0);
    for (const { path, method, op } of idempotent)
      expect(op.responses['409']?.headers?.['Retry-After'], `${method} ${path}`).toBeDefined();
  });

  it('is served at /openapi.yaml with the deployment’s own server URL', async () => {
    const res = await call('/openapi.yaml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/yaml');
    const served = parse(await res.text()) as Doc;
    expect(served.servers[0]?.url).toBe(env.PUBLIC_BASE_URL);
    expect(Object.keys(served.paths)).toEqual(Object.keys(doc.paths));
    // A local server (the tests' base URL is loopback) is not labelled "Production" on the docs page.
    expect(new URL(env.PUBLIC_BASE_URL).hostname).toMatch(/^(localhost|127\.)/);
    expect(served.servers[0]?.description).toBe('Local development server (npm run dev)');
  });

  it('lists every route the app serves, and nothing else', () => {
    const served = new Set(
      app.routes
        .filter((r) => r.method !== 'ALL')
        .map((r) => `${r.method.toLowerCase()} ${r.path.replaceAll(/:(\w+)/g, '{$1}')}`),
    );
    // Served by the OAuth library ahead of the app (src/index.ts), documented with the app's routes.
    const byOAuthLibrary = [
      'post /oauth/register',
      'post /oauth/token',
      'get /.well-known/oauth-authorization-server',
    ];
    for (const route of byOAuthLibrary) served.add(route);
    const documented = new Set(operations.map(({ path, method }) => `${method} ${path}`));
    expect([...served].sort()).toEqual([...documented].sort());
  });
});

describe('docs and changelog', () => {
  it('serves the interactive reference at /docs', async () => {
    const res = await call('/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain('/openapi.yaml');
  });

  it('serves CHANGELOG.md at /changelog', async () => {
    const res = await call('/changelog');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/markdown');
    const text = await res.text();
    expect(text).toContain('# Changelog');
    expect(text).toContain('Keep a Changelog');
  });
});
