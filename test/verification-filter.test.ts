/**
 * The membership filter in front of verification (issue 18): never-issued numbers answer 404
 * from memory, with no D1 or KV read; new certificates verify at once where issued and after
 * the recent-set refresh elsewhere; a missing or broken filter falls back to the normal path.
 */
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { app } from '../src/app';
import { generateCertificateNumber } from '../src/domain/certificates/certificate-number';
import { BloomFilter } from '../src/domain/membership-filter';
import { runScheduled } from '../src/scheduled';
import { VERIFY_FILTER_KEY, VERIFY_RECENT_KEY } from '../src/services/cache-keys';
import {
  announceIssued,
  FILTER_REFRESH_MS,
  IN_FLIGHT_MARGIN_MS,
  mayBeIssued,
  RECENT_REFRESH_MS,
  RECENT_WINDOW_MS,
  rebuildVerificationFilter,
  rememberIssued,
  resetVerificationFilterMemory,
  writeRecentNumbers,
} from '../src/services/verification-filter';
import { resetVerificationMemory } from '../src/services/verification-memory';
import { candidateWithCertificate, db, seedBrief, signup } from './harness';
import { BASE, call, eventually, expectProblem } from './helpers';
import { assertDocumentedResponse } from './response-validation';

/** Certificate rows straight into D1 (as issuance leaves them), `issued_at` = `issuedAt`. */
async function insertCertificates(count: number, issuedAt = Date.now()): Promise<string[]> {
  const employer = await signup('employer', 'Recruiter');
  const holder = await signup('candidate', 'Holder');
  const brief = await seedBrief(employer.id);
  const numbers = Array.from({ length: count }, () => generateCertificateNumber());
  const insert = env.DB.prepare(
    `INSERT INTO certificates (id, certificate_no, holder_id, brief_id, employer_id, domain, status, issued_at)
     VALUES (?, ?, ?, ?, ?, 'web', ?, ?)`,
  );
  const statuses = ['active', 'revoked', 'pending_issuer'];
  for (let i = 0; i < numbers.length; i += 50)
    await env.DB.batch(
      numbers
        .slice(i, i + 50)
        .map((no, j) =>
          insert.bind(
            crypto.randomUUID(),
            no,
            holder.id,
            brief.briefId,
            employer.id,
            statuses[(i + j) % 3],
            issuedAt,
          ),
        ),
    );
  return numbers;
}

/** A fresh isolate: nothing loaded, nothing issued here, no payloads in memory. */
function otherIsolate() {
  resetVerificationFilterMemory();
  resetVerificationMemory();
}

const neverIssued = () => generateCertificateNumber();

/** Every call made on a binding (any method: prepare, batch, withSession, get, getWithMetadata …). */
function counted<T extends object>(binding: T, calls: string[], name: string): T {
  return new Proxy(binding, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(`${name}.${String(prop)}`);
        return value.apply(target, args);
      };
    },
  });
}

/** A GET through the app with D1 and KV counted (and the response checked against the OpenAPI document). */
async function countedGet(path: string) {
  const calls: string[] = [];
  const ctx = createExecutionContext();
  const countedEnv = { ...env, DB: counted(env.DB, calls, 'D1'), CACHE: counted(env.CACHE, calls, 'KV') };
  const res = await app.fetch(new Request(`${BASE}${path}`), countedEnv, ctx);
  await waitOnExecutionContext(ctx);
  await assertDocumentedResponse('GET', `${BASE}${path}`, res.clone());
  return { res, calls };
}

/** What a verifier's 404 says, without the per-request fields. */
async function notFoundBody(res: Response) {
  const { instance: _i, requestId: _r, ...rest } = await expectProblem(res, 404, 'not-found');
  return rest;
}

beforeEach(async () => {
  otherIsolate();
  await env.CACHE.delete(VERIFY_FILTER_KEY);
  await env.CACHE.delete(VERIFY_RECENT_KEY);
});

afterEach(() => {
  vi.restoreAllMocks();
  otherIsolate();
});

describe('the cron rebuild', () => {
  it('puts every issued number in the filter, whatever its status (no false negatives)', async () => {
    const numbers = await insertCertificates(300, Date.now() - 2 * RECENT_WINDOW_MS);
    await runScheduled(env);
    const { value, metadata } = await env.CACHE.getWithMetadata<{ builtAt: number; count: number }>(
      VERIFY_FILTER_KEY,
      'arrayBuffer',
    );
    expect(value).not.toBeNull();
    const filter = BloomFilter.fromBytes(value!);
    expect(numbers.filter((no) => !filter.has(no))).toEqual([]);
    expect(metadata!.count).toBeGreaterThanOrEqual(300);
    // And the isolate sees them as "may exist", every one, while unknown ones are mostly "no".
    const now = Date.now();
    for (const no of numbers) expect(await mayBeIssued(env, no, now)).toBe(true);
    const unknown = Array.from({ length: 200 }, neverIssued);
    const maybes = (await Promise.all(unknown.map((no) => mayBeIssued(env, no, now)))).filter(Boolean);
    expect(maybes.length).toBeLessThan(10);
  });

  it('reads the numbers page by page and sizes the filter from their count', async () => {
    await insertCertificates(120);
    const built = await rebuildVerificationFilter(db(), env);
    const [{ n }] = (await env.DB.prepare('SELECT count(*) AS n FROM certificates').all<{ n: number }>())
      .results as [{ n: number }];
    expect(built.count).toBe(n);
    // At least 1,000 numbers of capacity at 0.1 %: ~14.4 bits each, plus the 16-byte header.
    expect(built.bytes).toBeGreaterThanOrEqual(16 + Math.ceil((1_000 * 14.37) / 8));
  });
});

describe('a never-issued number', () => {
  it('answers 404 with no D1 and no KV read, and the same body as without the filter', async () => {
    await insertCertificates(20);
    const unknown = neverIssued();
    // Without a filter: the normal path (a KV miss and a D1 read).
    const plain = await countedGet(`/api/verify/${unknown}`);
    const plainBody = await notFoundBody(plain.res);
    expect(plain.calls).toContain('KV.getWithMetadata');
    expect(plain.calls.filter((c) => c.startsWith('D1.'))).not.toEqual([]);

    await rebuildVerificationFilter(db(), env);
    // This isolate read "no filter" a moment ago and keeps that for FILTER_REFRESH_MS; a fresh
    // isolate loads the filter and the recent set on its first lookup.
    otherIsolate();
    await call(`/api/verify/${neverIssued()}`);
    // Rarely (0.1 %) a fresh number is a false positive; pick ones the filter rules out.
    const ruledOut: string[] = [];
    for (let tries = 0; ruledOut.length < 5 && tries < 100; tries++) {
      const no = neverIssued();
      if (!(await mayBeIssued(env, no))) ruledOut.push(no);
    }
    expect(ruledOut).toHaveLength(5);
    for (const no of ruledOut) {
      const api = await countedGet(`/api/verify/${no}`);
      expect(await notFoundBody(api.res)).toEqual(plainBody);
      expect(api.calls).toEqual([]);
      const page = await countedGet(`/verify/${no}`);
      expect(page.res.status).toBe(404);
      expect(page.calls).toEqual([]);
    }
  });
});

describe('freshness of new certificates', () => {
  it('verifies at once on the issuing instance, and elsewhere after the recent-set refresh', async () => {
    await insertCertificates(5, Date.now() - 2 * RECENT_WINDOW_MS);
    await rebuildVerificationFilter(db(), env);
    await call(`/api/verify/${neverIssued()}`); // filter and recent set loaded here
    const { certificateNo } = await candidateWithCertificate('Fresh Holder');
    // Issued through the API after the build: this instance verifies it at once.
    expect((await call(`/api/verify/${certificateNo}`)).status).toBe(200);
    expect((await call(`/verify/${certificateNo}`)).status).toBe(200);

    // The coalesced rewrite of the recent set (what `KvCoalescer` runs after the issue).
    const published = await writeRecentNumbers(db(), env);
    expect(published.numbers).toContain(certificateNo);
    // Another isolate, which read the recent set just before that rewrite (moved clock): 404 …
    const t0 = Date.now();
    otherIsolate();
    const stale = { from: t0 - RECENT_WINDOW_MS, computedAt: t0 - 1, numbers: [] };
    await env.CACHE.put(VERIFY_RECENT_KEY, JSON.stringify(stale));
    expect(await mayBeIssued(env, certificateNo, t0)).toBe(false);
    await env.CACHE.put(VERIFY_RECENT_KEY, JSON.stringify(published));
    expect(await mayBeIssued(env, certificateNo, t0 + RECENT_REFRESH_MS - 1)).toBe(false);
    // … and verifies once its copy is RECENT_REFRESH_MS old and re-read.
    expect(await mayBeIssued(env, certificateNo, t0 + RECENT_REFRESH_MS)).toBe(true);
    otherIsolate();
    expect((await call(`/api/verify/${certificateNo}`)).status).toBe(200);
    expect(RECENT_REFRESH_MS + 1_000).toBeLessThanOrEqual(5_000); // + one coalescing interval: the README's 5 s
  });

  it('the issuing isolate remembers its own numbers whatever the recent set in KV says', async () => {
    await rebuildVerificationFilter(db(), env);
    otherIsolate();
    const [issued] = await insertCertificates(1);
    const now = Date.now();
    const stale = { from: now - RECENT_WINDOW_MS, computedAt: now - 1, numbers: [] };
    await env.CACHE.put(VERIFY_RECENT_KEY, JSON.stringify(stale));
    expect(await mayBeIssued(env, issued!, now)).toBe(false); // as another isolate would see it
    rememberIssued([issued!], now);
    expect(await mayBeIssued(env, issued!, now)).toBe(true);
    expect((await call(`/api/verify/${issued}`)).status).toBe(200);
  });

  it('announcing an issue rewrites the recent set from D1 (through the coalescer) for other isolates', async () => {
    await rebuildVerificationFilter(db(), env);
    const [issued] = await insertCertificates(1);
    await announceIssued(db(), env, [issued!]);
    // Written now, or by the object's trailing write a second after the previous one.
    await eventually(async () => {
      const recent = await env.CACHE.get<{ numbers: string[] }>(VERIFY_RECENT_KEY, 'json');
      return recent?.numbers.includes(issued!) ? true : undefined;
    });
    otherIsolate();
    expect(await mayBeIssued(env, issued!)).toBe(true);
    expect((await call(`/api/verify/${issued}`)).status).toBe(200);
  });
});

describe('falling back to the normal path', () => {
  it('without a filter in KV: unknown numbers read D1, known ones verify', async () => {
    const [known] = await insertCertificates(1, Date.now() - 2 * RECENT_WINDOW_MS);
    expect(await mayBeIssued(env, neverIssued())).toBe(true);
    expect((await call(`/api/verify/${known}`)).status).toBe(200);
    const unknown = await countedGet(`/api/verify/${neverIssued()}`);
    await notFoundBody(unknown.res);
    expect(unknown.calls).toContain('KV.getWithMetadata');
    expect(unknown.calls.filter((c) => c.startsWith('D1.'))).not.toEqual([]);
  });

  it('with an unreadable filter: never a wrong 404', async () => {
    const [known] = await insertCertificates(1, Date.now() - 2 * RECENT_WINDOW_MS);
    await rebuildVerificationFilter(db(), env);
    otherIsolate();
    await env.CACHE.put(
      VERIFY_FILTER_KEY,
      new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]),
      {
        metadata: { builtAt: Date.now(), count: 1 },
      },
    );
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(await mayBeIssued(env, neverIssued())).toBe(true);
    expect((await call(`/api/verify/${known}`)).status).toBe(200);
  });

  it('keeps a loaded filter when a reload fails, and reloads after FILTER_REFRESH_MS', async () => {
    await rebuildVerificationFilter(db(), env);
    const now = Date.now();
    const unknown = neverIssued();
    const ruledOut = await mayBeIssued(env, unknown, now);
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(env.CACHE, 'getWithMetadata').mockRejectedValue(new Error('KV down'));
    expect(await mayBeIssued(env, unknown, now + FILTER_REFRESH_MS)).toBe(ruledOut);
  });

  it('without a recent set, or with one that does not cover the filter: the normal path', async () => {
    await rebuildVerificationFilter(db(), env);
    const unknown = neverIssued();
    const now = Date.now();
    if (await mayBeIssued(env, unknown, now)) return expect.fail('a false positive; rerun');
    otherIsolate();
    await env.CACHE.delete(VERIFY_RECENT_KEY);
    expect(await mayBeIssued(env, unknown, now)).toBe(true);
    // A recent set that starts after the filter's build (minus the in-flight margin) leaves a gap.
    const { metadata } = await env.CACHE.getWithMetadata<{ builtAt: number }>(VERIFY_FILTER_KEY);
    otherIsolate();
    await env.CACHE.put(
      VERIFY_RECENT_KEY,
      JSON.stringify({ from: metadata!.builtAt - IN_FLIGHT_MARGIN_MS + 1, computedAt: now, numbers: [] }),
    );
    expect(await mayBeIssued(env, unknown, now)).toBe(true);
    otherIsolate();
    await env.CACHE.put(
      VERIFY_RECENT_KEY,
      JSON.stringify({ from: metadata!.builtAt - IN_FLIGHT_MARGIN_MS, computedAt: now, numbers: [] }),
    );
    expect(await mayBeIssued(env, unknown, now)).toBe(false);
  });
});
