/**
 * Verification answers gzipped when the visitor accepts it (src/lib/content-coding.ts): the same
 * JSON, a quarter of the bytes, compressed once per cached payload; everyone else gets the JSON as
 * it was. Caches are told the answer depends on `Accept-Encoding`.
 */
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { app } from '../src/app';
import { candidateWithCertificate } from './harness';
import { BASE, call } from './helpers';

/** The response as the Worker returns it (through `SELF`, the runtime decodes a gzip body for the test). */
async function direct(path: string, headers: Record<string, string>): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(`${BASE}${path}`, { headers }), env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

const gunzip = async (bytes: ArrayBuffer) =>
  new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text();

describe('GET /api/verify/{certificateNo} with Accept-Encoding', () => {
  let path = '';
  let identity = '';
  let etag = '';

  beforeAll(async () => {
    const { certificateNo } = await candidateWithCertificate('Gzip Verified');
    path = `/api/verify/${certificateNo}`;
    const res = await call(path);
    expect(res.status).toBe(200);
    etag = res.headers.get('ETag') ?? '';
    identity = await res.text();
  });

  it('answers a client that asks for nothing with the JSON as is, saying the answer varies', async () => {
    const res = await call(path);
    expect(res.headers.get('Content-Encoding')).toBeNull();
    expect(res.headers.get('Vary')).toBe('Accept-Encoding');
    expect(res.headers.get('Content-Type')).toBe('application/json');
    expect(JSON.parse(identity)).toMatchObject({ status: 'active', valid: true });
  });

  it('answers a browser with the same JSON gzipped, under the same validator, every time', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await direct(path, { 'Accept-Encoding': 'gzip, deflate, br, zstd' });
      expect(res.status).toBe(200);
      expect(res.headers.get('Content-Encoding')).toBe('gzip');
      expect(res.headers.get('Vary')).toBe('Accept-Encoding');
      expect(res.headers.get('ETag')).toBe(etag);
      expect(res.headers.get('Cache-Control')).toBe('public, max-age=60');
      expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*');
      const bytes = await res.arrayBuffer();
      // gzip's magic number, and a quarter of the JSON's size or less.
      expect([...new Uint8Array(bytes, 0, 2)]).toEqual([0x1f, 0x8b]);
      expect(bytes.byteLength).toBeLessThan(identity.length / 3);
      expect(await gunzip(bytes)).toBe(identity);
    }
    // Through the runtime, a client reading the answer gets the JSON.
    const decoded = await call(path, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(decoded.headers.get('Content-Encoding')).toBe('gzip');
    expect(await decoded.text()).toBe(identity);
  });

  it('sends the JSON as is to a client that refuses gzip', async () => {
    for (const header of ['gzip;q=0', 'identity', 'br', 'gzip;q=0, *']) {
      const res = await call(path, { headers: { 'Accept-Encoding': header } });
      expect(res.headers.get('Content-Encoding'), header).toBeNull();
      expect(await res.text(), header).toBe(identity);
    }
  });

  it("follows the visitor's own header when the runtime replaced it (request.cf.clientAcceptEncoding)", async () => {
    const res = await call(path, {
      headers: { 'Accept-Encoding': 'br, gzip' },
      cf: { clientAcceptEncoding: '' },
    });
    expect(res.headers.get('Content-Encoding')).toBeNull();
    expect(await res.text()).toBe(identity);
  });

  it('answers 304 to a held validator whatever the coding, still saying the answer varies', async () => {
    const res = await call(path, { headers: { 'Accept-Encoding': 'gzip', 'If-None-Match': etag } });
    expect(res.status).toBe(304);
    expect(res.headers.get('Vary')).toBe('Accept-Encoding');
    expect(await res.text()).toBe('');
  });

  it('keeps an unknown number a small uncompressed problem', async () => {
    const res = await call('/api/verify/VP-0000-0000-0000', { headers: { 'Accept-Encoding': 'gzip' } });
    expect([400, 404]).toContain(res.status);
    expect(res.headers.get('Content-Encoding')).toBeNull();
    expect(res.headers.get('Content-Type')).toBe('application/problem+json');
  });
});

describe('GET /api/leaderboard with Accept-Encoding', () => {
  it('sends a board over 1 KB gzipped to a browser and as is to a client that asks for nothing', async () => {
    // Enough certified candidates in one domain for a board over MIN_GZIP_BYTES.
    const domain = `gzip-board-${crypto.randomUUID().slice(0, 8)}`;
    for (let i = 0; i < 8; i++)
      await candidateWithCertificate(`Gzip Board Candidate With A Rather Long Display Name ${i}`, { domain });
    const ip = { 'CF-Connecting-IP': '198.18.9.1' };
    const plain = await call(`/api/leaderboard?domain=${domain}`, { headers: ip });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('Content-Encoding')).toBeNull();
    expect(plain.headers.get('Vary')).toBe('Accept-Encoding');
    const json = await plain.text();
    expect(json.length).toBeGreaterThan(1024);
    const res = await direct(`/api/leaderboard?domain=${domain}`, { ...ip, 'Accept-Encoding': 'gzip' });
    expect(res.headers.get('Content-Encoding')).toBe('gzip');
    expect(res.headers.get('RateLimit-Policy')).not.toBeNull();
    const bytes = await res.arrayBuffer();
    expect([...new Uint8Array(bytes, 0, 2)]).toEqual([0x1f, 0x8b]);
    expect(await gunzip(bytes)).toBe(json);
  }, 60_000);
});

describe('GET /embed/leaderboard with Accept-Encoding (issue 43)', () => {
  it('sends the same page gzipped to a browser, under the same validator and framing policy; as is to others', async () => {
    const headers = { 'CF-Connecting-IP': `192.0.2.${Math.floor(Math.random() * 250)}` };
    const plain = await call('/embed/leaderboard', { headers });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('Content-Encoding')).toBeNull();
    // The embed speaks the visitor's language too (issue 52): both negotiations are named.
    expect(plain.headers.get('Vary')).toBe('Accept-Encoding, Accept-Language');
    const html = await plain.text();
    expect(html).toContain('<table');

    const res = await direct('/embed/leaderboard', {
      ...headers,
      'Accept-Encoding': 'gzip, deflate, br, zstd',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Encoding')).toBe('gzip');
    expect(res.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('ETag')).toBe(plain.headers.get('ETag'));
    expect(res.headers.get('Vary')).toBe('Accept-Encoding, Accept-Language');
    expect(res.headers.get('Content-Security-Policy')).toBe(plain.headers.get('Content-Security-Policy'));
    expect(res.headers.get('RateLimit')).toMatch(/^"ip";r=58;t=60$/);
    const bytes = await res.arrayBuffer();
    expect([...new Uint8Array(bytes, 0, 2)]).toEqual([0x1f, 0x8b]);
    expect(await gunzip(bytes)).toBe(html);
  });
});

describe('GET /.well-known/jwks.json and /embed/leaderboard.js with Accept-Encoding (issue 43)', () => {
  it.each([
    ['/.well-known/jwks.json', 'application/json', 'public, max-age=300'],
    ['/embed/leaderboard.js', 'text/javascript; charset=utf-8', 'public, max-age=3600'],
  ])(
    'sends %s gzipped to a browser, the same bytes every time, and as is to a client that asks for nothing',
    async (path, type, cacheControl) => {
      const plain = await call(path);
      expect(plain.status).toBe(200);
      expect(plain.headers.get('Content-Encoding')).toBeNull();
      expect(plain.headers.get('Vary')).toBe('Accept-Encoding');
      expect(plain.headers.get('Content-Type')).toBe(type);
      const text = await plain.text();

      const sent: number[][] = [];
      for (let i = 0; i < 2; i++) {
        const res = await direct(path, { 'Accept-Encoding': 'gzip, deflate, br, zstd' });
        expect(res.status).toBe(200);
        expect(res.headers.get('Content-Encoding')).toBe('gzip');
        expect(res.headers.get('Vary')).toBe('Accept-Encoding');
        expect(res.headers.get('Content-Type')).toBe(type);
        expect(res.headers.get('Cache-Control')).toBe(cacheControl);
        expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*');
        expect(res.headers.get('Cross-Origin-Resource-Policy')).toBe('cross-origin');
        const bytes = await res.arrayBuffer();
        expect([...new Uint8Array(bytes, 0, 2)]).toEqual([0x1f, 0x8b]);
        expect(await gunzip(bytes)).toBe(text);
        sent.push([...new Uint8Array(bytes)]);
      }
      expect(sent[1]).toEqual(sent[0]); // compressed once, kept
    },
  );
});
