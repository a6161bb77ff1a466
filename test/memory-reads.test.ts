/**
 * The public reads answered from the isolate's memory before the router (src/http/memory-reads.ts):
 * once the full path has put an answer in memory, the fast path replays it with exactly the
 * headers and bytes the app gives (request id aside: each response has its own), and it never
 * answers what memory does not hold or a request it does not recognise exactly: those take the
 * full path. A revocation reaches verifiers at once, through the same memory.
 */
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { app } from '../src/app';
import { answerFromKv } from '../src/http/cold-reads';
import { answerFromMemory } from '../src/http/memory-reads';
import { VERIFY_CHANGES_KEY, verificationKey } from '../src/services/cache-keys';
import { resetVerificationMemory } from '../src/services/verification-memory';
import { candidateWithCertificate, loginAdmin } from './harness';
import { as, BASE, call, eventually, jsonInit } from './helpers';

/** The app's own answer (the full path: router, middleware, handler). */
async function fullPath(path: string, headers: Record<string, string>): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(`${BASE}${path}`, { headers }), env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/** The fast path's answer, or null when it leaves the request to the app. */
async function fromMemory(path: string, headers: Record<string, string> = {}, method = 'GET') {
  const url = `${BASE}${path}`;
  const ctx = createExecutionContext();
  const res = await (answerFromMemory(new Request(url, { headers, method }), env, ctx, path) ?? null);
  await waitOnExecutionContext(ctx);
  return res;
}

/**
 * The cold path's answer (src/http/cold-reads.ts: before the app is imported, memory or KV), or
 * null when it leaves the request to the app. With `cold`, the isolate's verification memory is
 * forgotten first, as in a fresh isolate: the answer then comes from KV.
 */
async function fromKv(path: string, headers: Record<string, string> = {}, method = 'GET', cold = true) {
  if (cold) resetVerificationMemory();
  const url = `${BASE}${path}`;
  const ctx = createExecutionContext();
  const res = await (answerFromKv(new Request(url, { headers, method }), env, ctx, path) ?? null);
  await waitOnExecutionContext(ctx);
  return res;
}

/** Waits until the change feed in KV names `certificateNo` (the coalescer's write may be scheduled). */
async function publishedChange(certificateNo: string): Promise<void> {
  await eventually(async () => {
    const feed = await env.CACHE.get<{ changes: [string, number][] }>(VERIFY_CHANGES_KEY, 'json');
    return feed?.changes.some(([no]) => no === certificateNo) ? true : undefined;
  });
}

/**
 * Every header but those each response has its own of, by lower-case name: the request id, the
 * limiter's timing, and the limit's remaining count (one less per request).
 */
function headersOf(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (name === 'x-request-id' || name === 'server-timing') return;
    out[name] = name === 'ratelimit' ? value.replace(/;r=\d+/, ';r=?') : value;
  });
  return out;
}

const BROWSER = { 'Accept-Encoding': 'gzip, deflate, br, zstd' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Asserts the fast path (by default the memory's) answers `path` as the app does, for each kind of client. */
async function sameAsApp(path: string, extra: Record<string, string> = {}, fastPath = fromMemory) {
  const plain = await fullPath(path, extra);
  expect(plain.status).toBe(200);
  const etag = plain.headers.get('ETag');
  const cases: Record<string, string>[] = [
    {},
    BROWSER,
    { 'Accept-Encoding': 'gzip;q=0' },
    { 'X-Request-Id': 'client-trace-42' },
    ...(etag ? [{ 'If-None-Match': etag }, { ...BROWSER, 'If-None-Match': etag }] : []),
  ];
  for (const own of cases) {
    const headers = { ...extra, ...own };
    const app = await fullPath(path, headers);
    const fast = await fastPath(path, headers);
    expect(fast, `${path} ${JSON.stringify(headers)}`).not.toBeNull();
    expect(fast?.status).toBe(app.status);
    expect(headersOf(fast as Response)).toEqual(headersOf(app));
    expect(fast?.headers.get('X-Request-Id')).toMatch(UUID);
    expect(fast?.headers.get('X-Request-Id')).not.toBe(app.headers.get('X-Request-Id'));
    expect(new Uint8Array(await (fast as Response).arrayBuffer())).toEqual(
      new Uint8Array(await app.arrayBuffer()),
    );
  }
}

describe('public reads answered from memory', { timeout: 60_000 }, () => {
  let certificateNo = '';

  beforeAll(async () => {
    ({ certificateNo } = await candidateWithCertificate('Memory Reader'));
  });

  it('answers a verification the app put in memory with its headers and bytes, 304s and gzip included', async () => {
    expect(await fromMemory(`/api/verify/${certificateNo}`)).toBeNull();
    expect((await call(`/api/verify/${certificateNo}`)).status).toBe(200);
    await sameAsApp(`/api/verify/${certificateNo}`);
  });

  it('answers the public agreement rate and the JWKS the same way once the app has served them', async () => {
    for (const path of ['/api/public/agreement-rate', '/.well-known/jwks.json']) {
      expect((await call(path)).status).toBe(200);
      await sameAsApp(path);
    }
  });

  it('answers a leaderboard query the app has validated, counted by the per-IP limit like the app', async () => {
    const path = '/api/leaderboard?domain=web-development&limit=5';
    const ip = { 'CF-Connecting-IP': '203.0.113.77' };
    expect(await fromMemory(path, ip)).toBeNull();
    expect((await call(path, { headers: ip })).status).toBe(200);
    await sameAsApp(path, ip);
    // Each answer counts: the remaining figure falls by one per request, whichever path answers.
    const remaining = (res: Response | null) =>
      Number(/;r=(\d+)/.exec(res?.headers.get('RateLimit') ?? '')?.[1]);
    const first = remaining(await fromMemory(path, ip));
    const second = remaining(await fullPath(path, ip));
    const third = remaining(await fromMemory(path, ip));
    expect([second, third]).toEqual([first - 1, first - 2]);
    expect((await fromMemory(path, ip))?.headers.get('Server-Timing')).toMatch(
      /^ratelimit;dur=\d+\.\d{2};desc="admitted in isolate"$/,
    );
    // Another query string, even one that means the same, is the app's to validate first.
    expect(await fromMemory('/api/leaderboard?limit=5&domain=web-development', ip)).toBeNull();
    expect(await fromMemory('/api/leaderboard?domain=web-development&limit=0', ip)).toBeNull();
    expect((await call('/api/leaderboard?domain=web-development&limit=0', { headers: ip })).status).toBe(400);
    expect(await fromMemory('/api/leaderboard?domain=web-development&limit=0', ip)).toBeNull();
  });

  it('answers an embed page the app has validated, in each language, counted by the per-IP limit like the app', async () => {
    const path = '/embed/leaderboard?domain=web-development&limit=5&theme=dark';
    const ip = { 'CF-Connecting-IP': '203.0.113.80' };
    expect(await fromMemory(path, ip)).toBeNull();
    const first = await call(path, { headers: ip });
    expect(first.status).toBe(200);
    expect(first.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
    await sameAsApp(path, ip);
    await sameAsApp(path, { ...ip, 'Accept-Language': 'hi-IN,hi;q=0.9,en;q=0.5' });
    const hindi = await fromMemory(path, { ...ip, 'Accept-Language': 'hi' });
    expect(hindi?.headers.get('Content-Language')).toBe('hi');
    expect(hindi?.headers.get('Content-Security-Policy')).toContain('frame-ancestors *');
    expect(await hindi?.text()).toContain('lang="hi"');
    // Each answer counts, whichever path answers.
    const remaining = (res: Response | null) =>
      Number(/;r=(\d+)/.exec(res?.headers.get('RateLimit') ?? '')?.[1]);
    const a = remaining(await fromMemory(path, ip));
    const b = remaining(await fullPath(path, ip));
    const c = remaining(await fromMemory(path, ip));
    expect([b, c]).toEqual([a - 1, a - 2]);
    // A visitor who may be signed in, another query string, or one never validated: the app's.
    expect(await fromMemory(path, { ...ip, Cookie: 'session=abc' })).toBeNull();
    expect(await fromMemory('/embed/leaderboard?limit=5&domain=web-development&theme=dark', ip)).toBeNull();
    expect(await fromMemory('/embed/leaderboard?domain=web-development&limit=500', ip)).toBeNull();
    expect((await call('/embed/leaderboard?domain=web-development&limit=500', { headers: ip })).status).toBe(
      400,
    );
    expect(await fromMemory('/embed/leaderboard?domain=web-development&limit=500', ip)).toBeNull();
    expect(await fromMemory('/embed/leaderboard.js', ip)).toBeNull();
  });

  it('leaves a visitor at the limit to the app, which refuses the 61st request of a minute', async () => {
    const path = '/api/leaderboard?domain=web-development&limit=3';
    const ip = { 'CF-Connecting-IP': '203.0.113.78' };
    const statuses: number[] = [];
    let answeredHere = 0;
    for (let i = 0; i < 61; i++) {
      const fast = await fromMemory(path, ip);
      if (fast) answeredHere++;
      statuses.push((fast ?? (await call(path, { headers: ip }))).status);
    }
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    expect(statuses[60]).toBe(429);
    // Far from the limit the isolate answered; near it, the app asked the shard.
    expect(answeredHere).toBeGreaterThan(0);
    expect(answeredHere).toBeLessThan(60);
    expect(await fromMemory(path, ip)).toBeNull();
    expect(await fromMemory(path, { 'CF-Connecting-IP': '203.0.113.79' })).not.toBeNull();
  });

  it('leaves to the app what it does not recognise exactly: other methods, queries, unnormalised numbers, other paths', async () => {
    expect((await call(`/api/verify/${certificateNo}`)).status).toBe(200);
    expect(await fromMemory(`/api/verify/${certificateNo}`, {}, 'HEAD')).toBeNull();
    expect(await fromMemory(`/api/verify/${certificateNo}?x=1`)).toBeNull();
    expect(await fromMemory(`/api/verify/${certificateNo.toLowerCase()}`)).toBeNull();
    expect(await fromMemory(`/api/verify/${certificateNo}/`)).toBeNull();
    expect(await fromMemory('/api/verify/')).toBeNull();
    expect(await fromMemory('/api/public/agreement-rate?window=7')).toBeNull();
    expect(await fromMemory('/api/leaderboard?never=validated')).toBeNull();
    expect(await fromMemory('/embed/leaderboard')).toBeNull();
    // The app still judges those itself: a lower-case number is found, a typo is a 400.
    expect((await call(`/api/verify/${certificateNo.toLowerCase()}`)).status).toBe(200);
    const typo = `${certificateNo.slice(0, -1)}${certificateNo.endsWith('0') ? '1' : '0'}`;
    expect((await call(`/api/verify/${typo}`)).status).toBe(400);
  });

  it('stops answering a revoked certificate from memory at once: verifiers see the revocation', async () => {
    const { certificateNo: revoked } = await candidateWithCertificate('Memory Revoked');
    const before = await call(`/api/verify/${revoked}`);
    expect(((await before.json()) as { status: string }).status).toBe('active');
    expect(await fromMemory(`/api/verify/${revoked}`)).not.toBeNull();
    const admin = await loginAdmin();
    const res = await call(
      `/api/certificates/${revoked}/revoke`,
      jsonInit('POST', { reason: 'Work found to be plagiarised' }, as(admin)),
    );
    expect(res.status).toBe(200);
    expect(await fromMemory(`/api/verify/${revoked}`)).toBeNull();
    const after = await call(`/api/verify/${revoked}`);
    expect(((await after.json()) as { status: string }).status).toBe('revoked');
    // And the revoked answer, once in memory, is what the fast path replays.
    const replay = await fromMemory(`/api/verify/${revoked}`);
    expect(((await (replay as Response).json()) as { status: string }).status).toBe('revoked');
  });
});

describe('a verification answered from KV before the app is imported (a cold isolate)', {
  timeout: 60_000,
}, () => {
  let certificateNo = '';

  beforeAll(async () => {
    ({ certificateNo } = await candidateWithCertificate('Cold Reader'));
    // The app's first answer writes the payload to KV, as any verification of it anywhere would.
    expect((await call(`/api/verify/${certificateNo}`)).status).toBe(200);
  });

  it('answers with the app’s headers and bytes from KV, 304s and gzip included, and keeps it in memory', async () => {
    await sameAsApp(`/api/verify/${certificateNo}`, {}, fromKv);
    // Loaded into memory as the app would load it: the memory reads answer it next.
    resetVerificationMemory();
    expect(await fromKv(`/api/verify/${certificateNo}`)).not.toBeNull();
    expect(await fromMemory(`/api/verify/${certificateNo}`)).not.toBeNull();
    // And the cold path answers a memory hit itself, with no KV read (KV emptied meanwhile).
    await env.CACHE.delete(verificationKey(certificateNo));
    expect((await fromKv(`/api/verify/${certificateNo}`, {}, 'GET', false))?.status).toBe(200);
    expect((await call(`/api/verify/${certificateNo}`)).status).toBe(200);
  });

  it('leaves to the app a KV miss and what it does not recognise exactly', async () => {
    // Well formed, never issued: KV has nothing, so the app answers (a 404 after its checks).
    expect(await fromKv('/api/verify/VP-DEM0-CERT-1FY3')).toBeNull();
    expect((await call('/api/verify/VP-DEM0-CERT-1FY3')).status).toBe(404);
    expect(await fromKv(`/api/verify/${certificateNo}`, {}, 'HEAD')).toBeNull();
    expect(await fromKv(`/api/verify/${certificateNo}?x=1`)).toBeNull();
    expect(await fromKv(`/api/verify/${certificateNo.toLowerCase()}`)).toBeNull();
    expect(await fromKv(`/api/verify/${certificateNo}/`)).toBeNull();
    expect(await fromKv(`/api/verify/${'A'.repeat(600)}`)).toBeNull();
    expect(await fromKv('/api/verify/')).toBeNull();
    expect(await fromKv(`/verify/${certificateNo}`)).toBeNull();
    expect(await fromKv('/api/public/agreement-rate')).toBeNull();
  });

  it('never serves a KV entry built before a revocation it knows of: the app rebuilds it', async () => {
    const { certificateNo: revoked } = await candidateWithCertificate('Cold Revoked');
    expect((await call(`/api/verify/${revoked}`)).status).toBe(200);
    const stale = await env.CACHE.getWithMetadata<{ etag: string; builtAt: number }>(
      verificationKey(revoked),
    );
    expect(stale.value).not.toBeNull();
    expect((await fromKv(`/api/verify/${revoked}`))?.status).toBe(200);
    const admin = await loginAdmin();
    const res = await call(
      `/api/certificates/${revoked}/revoke`,
      jsonInit('POST', { reason: 'Work found to be plagiarised' }, as(admin)),
    );
    expect(res.status).toBe(200);
    // The revocation deleted the entry; a location whose KV still holds the old one (KV
    // propagates deletes within a minute) must not serve it.
    await env.CACHE.put(verificationKey(revoked), stale.value as string, { metadata: stale.metadata });
    // A fresh isolate learns of it from the published change feed, which the coalescer writes at
    // most once per its window (the previous test's revocation may have just been written).
    await publishedChange(revoked);
    expect(await fromKv(`/api/verify/${revoked}`)).toBeNull();
    const after = await call(`/api/verify/${revoked}`);
    expect(((await after.json()) as { status: string }).status).toBe('revoked');
  });
});
