import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { generateCertificateNumber } from '../src/domain/certificates/certificate-number';
import { createApp } from '../src/http/create-app';
import { BODY_LIMIT_BYTES } from '../src/middleware/body-limits';
import { isPublicRead } from '../src/middleware/public-cors';
import { call, expectProblem, jsonInit } from './helpers';

describe('problem+json for every error status', () => {
  it('400 for malformed JSON', async () => {
    const res = await call('/api/auth/login', jsonInit('POST', '{"email": "a@b.c", '));
    const problem = await expectProblem(res, 400, 'malformed-json');
    expect(problem.instance).toBe('/api/auth/login');
    expect(problem.requestId).toBe(res.headers.get('x-request-id'));
  });

  it('400 for an invalid path parameter, pointing at it', async () => {
    const problem = await expectProblem(await call('/problems/no-such-type'), 400, 'invalid-parameters');
    expect(problem.errors?.[0]?.pointer).toBe('#/path/type');
  });

  it('401 for a session route without a session', async () => {
    await expectProblem(await call('/api/me'), 401, 'unauthenticated');
  });

  it('404 for an unknown route', async () => {
    const problem = await expectProblem(await call('/api/does-not-exist'), 404, 'not-found');
    expect(problem.detail).toContain('/api/does-not-exist');
  });

  it('405 with Allow when the path exists with another method', async () => {
    const res = await call('/api/public/agreement-rate', { method: 'DELETE' });
    await expectProblem(res, 405, 'method-not-allowed');
    expect(res.headers.get('allow')).toContain('GET');
    const post = await call('/api/auth/login', { method: 'GET' });
    await expectProblem(post, 405, 'method-not-allowed');
    expect(post.headers.get('allow')).toBe('POST');
  });

  it("405 on a path with a parameter; a handler's own 404 stays a 404", async () => {
    const res = await call('/api/verify/VP-2026-00000001', { method: 'DELETE' });
    await expectProblem(res, 405, 'method-not-allowed');
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    // The route matched GET; the number was never issued: the handler's own 404.
    const miss = await call(`/api/verify/${generateCertificateNumber()}`);
    expect(miss.status).toBe(404);
    expect(miss.headers.get('allow')).toBeNull();
  });

  it('413 for a body over the limit, declared or streamed', async () => {
    const big = JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(BODY_LIMIT_BYTES) });
    await expectProblem(await call('/api/auth/login', jsonInit('POST', big)), 413, 'payload-too-large');

    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > BODY_LIMIT_BYTES) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const streamed = await call('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
    });
    await expectProblem(streamed, 413, 'payload-too-large');
  });

  it('415 for a body that is not JSON', async () => {
    const res = await call('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'hello',
    });
    await expectProblem(res, 415, 'unsupported-media-type');
    const none = await call('/api/auth/login', { method: 'POST', body: new Blob(['{}']).stream() });
    await expectProblem(none, 415, 'unsupported-media-type');
  });

  it('415 says what to send: the media type expected, and the one sent', async () => {
    const form = await call('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=a%40b.c',
    });
    const problem = await expectProblem(form, 415, 'unsupported-media-type');
    expect(problem.detail).toBe(
      'Send the body as JSON with Content-Type: application/json (this one is application/x-www-form-urlencoded).',
    );
  });

  it('415 for a compressed body (RFC 9110 §15.5.16), with Accept-Encoding: identity; not "malformed JSON"', async () => {
    const gzip = await call('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: new Uint8Array([31, 139, 8, 0, 0, 0, 0, 0]),
    });
    const problem = await expectProblem(gzip, 415, 'unsupported-media-type');
    expect(gzip.headers.get('accept-encoding')).toBe('identity');
    expect(problem.detail).toContain('Content-Encoding: gzip');
    // `identity` is no coding at all.
    const identity = await call('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
      body: JSON.stringify({ email: 'nobody@example.com', password: 'wrong password' }),
    });
    expect(identity.status).toBe(401);
  });

  it('422 for a body that parses but fails the schema, with a JSON Pointer per field', async () => {
    const res = await call(
      '/api/auth/signup',
      jsonInit('POST', { email: 'a@b.c', name: 'A', role: 'candidate', extra: 1 }),
    );
    const problem = await expectProblem(res, 422, 'validation-failed');
    expect(problem.errors).toEqual(
      expect.arrayContaining([
        { pointer: '#/password', detail: 'Required' },
        { pointer: '#/extra', detail: 'Unknown field' },
      ]),
    );
    const notObject = await call('/api/auth/login', jsonInit('POST', '[1,2]'));
    await expectProblem(notObject, 422, 'validation-failed');
  });

  it('500 without internals, through the shared error handler', async () => {
    const app = createApp();
    app.get('/boom', () => {
      throw new Error('database password is hunter2');
    });
    const res = await app.fetch(new Request('http://localhost/boom'), env);
    const problem = await expectProblem(res, 500, 'internal-error');
    const text = JSON.stringify(problem);
    expect(text).not.toContain('hunter2');
    expect(text).not.toMatch(/at .*\.ts/);
    expect(problem.requestId).toEqual(expect.any(String));
  });

  it('every problem type URI resolves to its description', async () => {
    const res = await call('/problems/quota-exceeded');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ type: '/problems/quota-exceeded', status: 429 });
  });
});

describe('security headers and CORS', () => {
  it('sets nosniff, a restrictive CSP and no-referrer on every response, errors included', async () => {
    for (const res of [
      await call('/api/public/agreement-rate'),
      await call('/api/nope'),
      await call('/api/me'),
    ]) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    }
  });

  it('is closed to cross-origin callers by default and open on the public agreement rate', async () => {
    const me = await call('/api/me', { headers: { origin: 'https://partner.example' } });
    expect(me.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await call('/api/auth/login', {
      method: 'OPTIONS',
      headers: { origin: 'https://partner.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const pub = await call('/api/public/agreement-rate', { headers: { origin: 'https://partner.example' } });
    expect(pub.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('knows exactly which paths are public reads', () => {
    const reads = [
      '/api/verify/VP-2026-00000001',
      '/api/leaderboard',
      '/api/public/agreement-rate',
      '/api/briefs',
      '/api/briefs/abc',
      '/.well-known/jwks.json',
      '/api/consent/notices/v1',
      '/problems/not-found',
      '/openapi.yaml',
      '/changelog',
      '/api/certificates/VP-DEM0-CERT-1FY3/badge.svg',
      '/api/certificates/VP-DEM0-CERT-1FY3/badge.png',
      '/ob/keys/abc',
      '/ob/issuers/platform',
      '/ob/achievements/00000000-0000-4000-8000-000000000101',
      '/ob/status-lists/revocation/0',
    ];
    for (const path of reads) expect(isPublicRead(path), path).toBe(true);
    const others = [
      '/api/verify',
      '/api/verify/a/b',
      '/api/leaderboard/x',
      '/api/briefs/abc/playbook',
      '/api/public/agreement-rate/',
      '/x/api/leaderboard',
      '/.well-known/jwksXjson',
      '/openapi.yaml.bak',
      '/api/me',
      '/changelog/',
      '/api/certificates/VP-DEM0-CERT-1FY3/revoke',
      '/api/certificates/VP-DEM0-CERT-1FY3/badge.gif',
      '/ob/issuers',
      '/ob/status-lists/revocation',
    ];
    for (const path of others) expect(isPublicRead(path), path).toBe(false);
  });
});
