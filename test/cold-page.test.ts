/**
 * The certificate page a cold isolate's entry answers from memory or KV before the app is
 * imported (src/routes/pages/pages.cold.ts, decision 0325) is the app's page: the same status,
 * headers (request id aside) and bytes, for every state a verification payload can hold, in both
 * languages (`?lang=`, `Accept-Language`), on a revalidation (304) and with the server-wide
 * DigiLocker setting. What it cannot answer exactly (a KV miss, a stale entry, a typo, another
 * query, another method) is left to the app.
 */
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { app } from '../src/app';
import { encodeQr, packModules, type QrCode } from '../src/domain/pages/qr';
import { answerFromKv } from '../src/http/cold-reads';
import { answerColdPage, type DrawnPageMeta, storeDrawnPage } from '../src/routes/pages/pages.drawn';
import {
  type ShareQr,
  VERIFY_CHANGES_KEY,
  verificationKey,
  verificationPageKey,
} from '../src/services/cache-keys';
import type { VerificationPayload } from '../src/services/certificates';
import { resetVerificationMemory } from '../src/services/verification-memory';
import { candidateWithCertificate, loginAdmin } from './harness';
import { as, BASE, call, eventually, jsonInit } from './helpers';

type TestEnv = typeof env;

/** The app's own answer (router, middleware, handler), its verification memory forgotten first. */
async function fromApp(path: string, headers: Record<string, string>, workerEnv: TestEnv = env) {
  resetVerificationMemory();
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(`${BASE}${path}`, { headers }), workerEnv, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/**
 * The cold path's answer as a fresh isolate gives it (nothing in memory), or null (the app's); what
 * it keeps in KV (a page it drew: decision 0339) is written before this returns.
 */
async function fromCold(path: string, headers: Record<string, string> = {}, method = 'GET', workerEnv = env) {
  resetVerificationMemory();
  const ctx = createExecutionContext();
  const answer = await answerColdPage(
    new Request(`${BASE}${path}`, { headers, method }),
    workerEnv,
    (p) => ctx.waitUntil(p),
    path,
  );
  await waitOnExecutionContext(ctx);
  return answer;
}

/** Every header but the request id (each response has its own), by lower-case name. */
function headersOf(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (name !== 'x-request-id') out[name] = value;
  });
  return out;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Asserts the cold path answers `path` with `headers` exactly as the app does; returns the app's answer. */
async function sameAsApp(path: string, headers: Record<string, string>, workerEnv: TestEnv = env) {
  const cold = await fromCold(path, headers, 'GET', workerEnv);
  const full = await fromApp(path, headers, workerEnv);
  const what = `${path} ${JSON.stringify(headers)}`;
  expect(cold, what).not.toBeNull();
  const answer = cold as Response;
  expect(answer.status, what).toBe(full.status);
  expect(headersOf(answer), what).toEqual(headersOf(full));
  expect(answer.headers.get('X-Request-Id')).toMatch(UUID);
  const [a, b] = [await answer.text(), await full.text()];
  // Compared as text first (a readable diff), then as bytes.
  expect(a, what).toBe(b);
  expect(new TextEncoder().encode(a)).toEqual(new TextEncoder().encode(b));
  return full;
}

/** The share link's QR code the app wrote in KV's metadata (decisions 0327, 0328), once read. */
let shareQr: ShareQr | undefined;

/**
 * Puts `payload` in KV as the app's verification would have left it (a fresh entry), after the
 * pages drawn from the one before it are deleted, as every change deletes them
 * (`forgetVerifications`).
 */
async function putPayload(payload: VerificationPayload, etag: string) {
  for (const lang of ['en', 'hi']) await env.CACHE.delete(verificationPageKey(payload.certificateNo, lang));
  await env.CACHE.put(verificationKey(payload.certificateNo), JSON.stringify(payload), {
    metadata: { etag, builtAt: Date.now(), ...(shareQr ? { qr: shareQr } : {}) },
  });
}

describe('the certificate page answered before the app is imported (a cold isolate)', {
  timeout: 120_000,
}, () => {
  let certificateNo = '';
  let base: VerificationPayload;

  beforeAll(async () => {
    ({ certificateNo } = await candidateWithCertificate('Cold Page Reader'));
    // The app's first answer writes the payload to KV, as any verification anywhere would.
    expect((await call(`/api/verify/${certificateNo}`)).status).toBe(200);
    const stored = await env.CACHE.getWithMetadata<{ qr?: ShareQr }>(verificationKey(certificateNo));
    expect(stored.value).not.toBeNull();
    base = JSON.parse(stored.value as string) as VerificationPayload;
    // With the page's share-link QR code, which the cold page then draws without encoding it
    // (decision 0328): the code the page would encode, packed, and its mask.
    shareQr = stored.metadata?.qr;
    const origin = (env as TestEnv).PUBLIC_BASE_URL.replace(/\/$/, '');
    expect(shareQr?.base).toBe(origin);
    encodeQr('something else');
    const code = encodeQr(`${origin}/verify/${certificateNo}`);
    expect(code).not.toBeNull();
    expect(shareQr).toEqual({ base: origin, ...packModules(code as QrCode) });
  });

  /** Each state the payload can hold, as the verification builds it. */
  function states(): Record<string, VerificationPayload> {
    const day = 86_400_000;
    const past = new Date(Date.now() - 30 * day).toISOString();
    const unverified = base.organisation ? { ...base.organisation, verification: 'unverified' } : null;
    return {
      active: base,
      revoked: { ...base, status: 'revoked', valid: false, revokedAt: past },
      suspended: { ...base, status: 'suspended', valid: false },
      expired: { ...base, status: 'expired', valid: false, validUntil: past },
      'pending issuer': { ...base, status: 'pending_issuer', valid: false, organisation: unverified },
      'pending issuer, rejected': {
        ...base,
        status: 'pending_issuer',
        valid: false,
        organisation: base.organisation ? { ...base.organisation, verification: 'rejected' } : null,
      },
      'holder hidden': { ...base, holder: null },
      'no organisation': { ...base, organisation: null },
      'not signed': { ...base, credential: null },
      'valid until later': { ...base, validUntil: new Date(Date.now() + 300 * day).toISOString() },
    };
  }

  const REQUESTS: Record<string, string>[] = [
    {},
    { 'Accept-Language': 'hi-IN,hi;q=0.9,en;q=0.8' },
    { 'Accept-Language': 'en-GB,en;q=0.9,hi;q=0.5' },
    { 'Accept-Language': 'fr' },
    { Accept: 'text/html', 'Accept-Encoding': 'gzip, br', 'X-Request-Id': 'client-trace-7' },
  ];

  it('answers each state of the payload as the app does, in English and Hindi, 304 included', async () => {
    let n = 0;
    for (const [name, payload] of Object.entries(states())) {
      n += 1;
      await putPayload(payload, `W/"${n}-${name.replace(/\W/g, '')}"`);
      for (const query of ['', '?lang=hi', '?lang=en']) {
        const path = `/verify/${certificateNo}${query}`;
        for (const headers of REQUESTS) {
          const full = await sameAsApp(path, headers);
          expect(full.status, `${name} ${path}`).toBe(200);
        }
        // The browser's revalidation of the page it holds: a 304 from both, with the same headers.
        const page = await fromApp(path, {});
        const etag = page.headers.get('ETag') as string;
        expect(etag).toMatch(/-(en|hi)-\w+-html"$/);
        const revalidated = await sameAsApp(path, { 'If-None-Match': etag });
        expect(revalidated.status).toBe(304);
      }
    }
    // The two languages differ (the comparison above is not of two English pages).
    await putPayload(base, 'W/"lang-check"');
    const [en, hi] = await Promise.all([
      fromCold(`/verify/${certificateNo}?lang=en`),
      fromCold(`/verify/${certificateNo}`, { 'Accept-Language': 'hi' }),
    ]);
    expect(en?.headers.get('Content-Language')).toBe('en');
    expect(hi?.headers.get('Content-Language')).toBe('hi');
    expect(await hi?.text()).toContain('lang="hi"');
  });

  it('answers as the app with the DigiLocker setting on (in the page and its ETag)', async () => {
    await putPayload(base, 'W/"digilocker"');
    const withDigiLocker = {
      ...env,
      DIGILOCKER_ORG_ID: 'org.example',
      DIGILOCKER_DOC_TYPE: 'VPCRT',
      DIGILOCKER_API_KEY: 'key-for-tests',
    } as TestEnv;
    const full = await sameAsApp(`/verify/${certificateNo}`, {}, withDigiLocker);
    expect(full.headers.get('ETag')).toMatch(/-dl-html"$/);
  });

  it('leaves to the app a KV miss, a stale entry, a typo, another query or method', async () => {
    await putPayload(base, 'W/"fall-through"');
    const page = `/verify/${certificateNo}`;
    expect(await fromCold('/verify/VP-DEM0-CERT-1FY3')).toBeNull();
    expect(await fromCold(page, {}, 'HEAD')).toBeNull();
    expect(await fromCold(`${page}?lang=fr`)).toBeNull();
    expect(await fromCold(`${page}?lang=hi&x=1`)).toBeNull();
    expect(await fromCold(`${page}?`)).toBeNull();
    expect(await fromCold(`/verify/${certificateNo.toLowerCase()}`)).toBeNull();
    expect(await fromCold(`${page}/`)).toBeNull();
    expect(await fromCold(`/verify/${'A'.repeat(600)}`)).toBeNull();
    const typo = `${certificateNo.slice(0, -1)}${certificateNo.endsWith('0') ? '1' : '0'}`;
    expect(await fromCold(`/verify/${typo}`)).toBeNull();
    expect(await fromCold('/verify')).toBeNull();
    expect(await fromCold(`/api/verify/${certificateNo}`)).toBeNull();
    // A visitor with a session cookie may be signed in (their header, the holder's controls,
    // private caching): the app's page. Another cookie changes nothing.
    expect(await fromCold(page, { Cookie: 'session=abc' })).toBeNull();
    expect(await fromCold(page, { Cookie: 'theme=dark; session=abc' })).toBeNull();
    await sameAsApp(page, { Cookie: 'theme=dark' });
    // Each of those the app answers itself: a lower-case number is found, a typo is a 400, another
    // language a 400.
    expect((await fromApp(`/verify/${certificateNo.toLowerCase()}`, {})).status).toBe(200);
    expect((await fromApp(`/verify/${typo}`, { Accept: 'text/html' })).status).toBe(400);
    expect((await fromApp(`${page}?lang=fr`, { Accept: 'text/html' })).status).toBe(400);
    expect((await fromApp('/verify/VP-DEM0-CERT-1FY3', { Accept: 'text/html' })).status).toBe(404);
    // A KV entry built before a change this isolate knows of (a revocation) is never served: the
    // app rebuilds the page from the database.
    const { certificateNo: revoked } = await candidateWithCertificate('Cold Page Revoked');
    expect((await call(`/api/verify/${revoked}`)).status).toBe(200);
    const stale = await env.CACHE.getWithMetadata<{ etag: string; builtAt: number }>(
      verificationKey(revoked),
    );
    expect(stale.value).not.toBeNull();
    expect((await fromCold(`/verify/${revoked}`))?.status).toBe(200);
    // The page drawn then is kept (decision 0339), and the revocation deletes it with the payload.
    expect(await env.CACHE.get(verificationPageKey(revoked, 'en'))).not.toBeNull();
    const admin = await loginAdmin();
    const res = await call(
      `/api/certificates/${revoked}/revoke`,
      jsonInit('POST', { reason: 'Work found to be plagiarised' }, as(admin)),
    );
    expect(res.status).toBe(200);
    expect(await env.CACHE.get(verificationPageKey(revoked, 'en'))).toBeNull();
    await env.CACHE.put(verificationKey(revoked), stale.value as string, { metadata: stale.metadata });
    // This isolate knows of it at once; a fresh one from the change feed, once the coalescer has
    // published it (at most once per its window).
    expect(
      await answerColdPage(new Request(`${BASE}/verify/${revoked}`), env, () => {}, `/verify/${revoked}`),
    ).toBeNull();
    await eventually(async () => {
      const feed = await env.CACHE.get<{ changes: [string, number][] }>(VERIFY_CHANGES_KEY, 'json');
      return feed?.changes.some(([no]) => no === revoked) ? true : undefined;
    });
    expect(await fromCold(`/verify/${revoked}`)).toBeNull();
    const rebuilt = await fromApp(`/verify/${revoked}`, { 'Accept-Language': 'en' });
    expect(rebuilt.status).toBe(200);
    expect(rebuilt.headers.get('ETag')).not.toContain(stale.metadata?.etag.slice(2, -1) as string);
  });
  /** The page kept in KV for `lang`, with its metadata. */
  const kept = (lang: string) =>
    env.CACHE.getWithMetadata<DrawnPageMeta>(verificationPageKey(certificateNo, lang));

  it('keeps the page it draws in KV, and a fresh isolate replays it as the app answers', async () => {
    await putPayload(base, 'W/"drawn-once"');
    const page = `/verify/${certificateNo}`;
    await env.CACHE.delete(verificationPageKey(certificateNo, 'en'));
    await env.CACHE.delete(verificationPageKey(certificateNo, 'hi'));
    // The first cold answer draws the page and keeps it, for its language only.
    const drawn = await fromCold(page);
    const body = await (drawn as Response).text();
    const first = await kept('en');
    expect(first.value).toBe(body);
    expect(first.metadata?.of).toBe('W/"drawn-once"');
    expect(first.metadata?.headers.ETag).toBe(drawn?.headers.get('ETag'));
    expect(first.metadata?.headers['Content-Language']).toBe('en');
    expect((await kept('hi')).value).toBeNull();
    // The next fresh isolate replays it: what it sends is what KV keeps (a marker proves it is
    // not drawn again), and the real page it replays is the app's, header for header.
    await env.CACHE.put(verificationPageKey(certificateNo, 'en'), 'kept page', { metadata: first.metadata });
    expect(await (await fromCold(page))?.text()).toBe('kept page');
    await env.CACHE.put(verificationPageKey(certificateNo, 'en'), body, { metadata: first.metadata });
    await sameAsApp(page, {});
    await sameAsApp(page, { 'Accept-Language': 'en-GB', 'X-Request-Id': 'client-trace-8' });
    // Hindi is drawn and kept under its own key, then replayed the same way.
    await sameAsApp(`${page}?lang=hi`, {});
    expect((await kept('hi')).metadata?.headers['Content-Language']).toBe('hi');
    await sameAsApp(`${page}?lang=hi`, {});
    await sameAsApp(page, { 'Accept-Language': 'hi-IN' });
  });

  it('replays a kept page only while its payload may be served, under the same settings', async () => {
    await putPayload(base, 'W/"settings-1"');
    const page = `/verify/${certificateNo}`;
    await fromCold(page);
    const { value, metadata } = await kept('en');
    expect(metadata?.of).toBe('W/"settings-1"');
    const marker = (meta: DrawnPageMeta | null) =>
      env.CACHE.put(verificationPageKey(certificateNo, 'en'), 'kept page', { metadata: meta });
    // Built before a change the change feed tells of (a revocation, a rename elsewhere): neither
    // the page nor its payload is served; the app rebuilds both.
    await marker(metadata as DrawnPageMeta);
    const changedAt = Date.now() + 1_000;
    await env.CACHE.put(
      VERIFY_CHANGES_KEY,
      JSON.stringify({ writtenAt: changedAt, from: 0, clearedAt: 0, changes: [[certificateNo, changedAt]] }),
    );
    expect(await fromCold(page)).toBeNull();
    await env.CACHE.delete(VERIFY_CHANGES_KEY);
    // A page of a number memory already holds is drawn from memory's payload.
    await marker(metadata as DrawnPageMeta);
    resetVerificationMemory();
    const ctx = createExecutionContext();
    const request = (p: string) => new Request(`${BASE}${p}`);
    expect(
      (await answerFromKv(request(`/api/verify/${certificateNo}`), env, ctx, `/api/verify/${certificateNo}`))
        ?.status,
    ).toBe(200);
    expect(await (await answerColdPage(request(page), env, (p) => ctx.waitUntil(p), page))?.text()).not.toBe(
      'kept page',
    );
    await waitOnExecutionContext(ctx);
    // Drawn by another deployment's markup, origin or DigiLocker setting.
    for (const v of ['p00 http://localhost:8787 ', 'other', '']) {
      await marker({ ...(metadata as DrawnPageMeta), v });
      expect(await (await fromCold(page))?.text(), v).not.toBe('kept page');
    }
    await marker(metadata as DrawnPageMeta);
    expect(await (await fromCold(page))?.text()).toBe('kept page');
    const withDigiLocker = {
      ...env,
      DIGILOCKER_ORG_ID: 'org.example',
      DIGILOCKER_DOC_TYPE: 'VPCRT',
      DIGILOCKER_API_KEY: 'key-for-tests',
    } as TestEnv;
    expect(await (await fromCold(page, {}, 'GET', withDigiLocker))?.text()).not.toBe('kept page');
    const elsewhere = { ...env, PUBLIC_BASE_URL: 'https://verify.example.org' } as TestEnv;
    await marker(metadata as DrawnPageMeta);
    expect(await (await fromCold(page, {}, 'GET', elsewhere))?.text()).not.toBe('kept page');
    // A revalidation is judged by the page's builder: a 304 for the page the browser holds.
    await env.CACHE.put(verificationPageKey(certificateNo, 'en'), value as string, { metadata });
    const revalidated = await sameAsApp(page, { 'If-None-Match': metadata?.headers.ETag as string });
    expect(revalidated.status).toBe(304);
    // The page is deleted with its payload (and expires with it): then nothing to serve, the app's.
    await env.CACHE.delete(verificationKey(certificateNo));
    await env.CACHE.delete(verificationPageKey(certificateNo, 'en'));
    expect(await fromCold(page)).toBeNull();
  });

  it("keeps the app's page for visitors without a session, once per isolate and payload", async () => {
    const { certificateNo: fresh } = await candidateWithCertificate('Drawn By The App');
    const key = verificationPageKey(fresh, 'en');
    expect(await env.CACHE.get(key)).toBeNull();
    const first = await fromApp(`/verify/${fresh}`, { Accept: 'text/html' });
    expect(first.status).toBe(200);
    const stored = await env.CACHE.getWithMetadata<DrawnPageMeta>(key);
    expect(stored.value).toBe(await first.text());
    expect(stored.metadata?.headers.ETag).toBe(first.headers.get('ETag'));
    // Kept no longer than its payload: an hour after the payload was built at most.
    const [listed] = (await env.CACHE.list({ prefix: key })).keys;
    expect(listed?.expiration).toBeLessThanOrEqual(Math.floor((stored.metadata?.at ?? 0) / 1000) + 3600);
    expect(listed?.expiration).toBeGreaterThan(Date.now() / 1000 + 3000);
    // And a cold isolate replays it.
    expect((await fromCold(`/verify/${fresh}`))?.headers.get('ETag')).toBe(first.headers.get('ETag'));
    // Checked once per isolate and payload: a page deleted since is not written again by this
    // isolate (another isolate, or a new payload, writes it).
    await env.CACHE.delete(key);
    expect((await fromApp(`/verify/${fresh}`, { Accept: 'text/html' })).status).toBe(200);
    expect(await env.CACHE.get(key)).toBeNull();
  });
  it('takes back a page it kept when its payload changed while it was drawn (a revocation meanwhile)', async () => {
    await putPayload(base, 'W/"before-change"');
    const drawnFrom = { json: JSON.stringify(base), etag: 'W/"before-change"', builtAt: Date.now() };
    const page = { headers: { 'Content-Language': 'en' }, body: '<p>drawn</p>' };
    const key = verificationPageKey(certificateNo, 'en');
    await storeDrawnPage(env, certificateNo, 'en', drawnFrom, page);
    expect(await env.CACHE.get(key)).toBe('<p>drawn</p>');
    // The payload was rebuilt (or deleted) by a change before the page's write landed.
    await putPayload(base, 'W/"after-change"');
    await storeDrawnPage(env, certificateNo, 'en', drawnFrom, page);
    expect(await env.CACHE.get(key)).toBeNull();
    await env.CACHE.delete(verificationKey(certificateNo));
    await storeDrawnPage(env, certificateNo, 'en', drawnFrom, page);
    expect(await env.CACHE.get(key)).toBeNull();
  });
});
