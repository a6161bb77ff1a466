/**
 * Verification payloads kept in the isolate's memory (a minute past the last read of the change
 * feed, ten minutes at most), forgotten within seconds of
 * a change made anywhere (issue 18): the change feed (`verify-changes:v1`, written through the
 * `KvCoalescer`), and KV entries that predate a known change rebuilt from D1.
 */
import { env, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_CHANGES, type PublishedChanges } from '../src/domain/verification-changes';
import type { KvCoalescer } from '../src/durable/kv-coalescer';
import { answerFromMemory } from '../src/http/memory-reads';
import { type CachedPayload, VERIFY_CHANGES_KEY, verificationKey } from '../src/services/cache-keys';
import {
  CHANGES_REFRESH_MS,
  forgetVerifications,
  resetVerificationMemory,
  syncVerificationChanges,
  trustedPayload,
  VERIFICATION_MEMORY_FIRST_JITTER,
  VERIFICATION_MEMORY_JITTER,
  VERIFICATION_MEMORY_MAX_MS,
  VERIFICATION_MEMORY_TTL_MS,
  VERIFICATION_REFRESH_AHEAD_MS,
  verificationMemory,
} from '../src/services/verification-memory';
import { candidateWithCertificate } from './harness';
import { as, call, eventually, jsonInit } from './helpers';

const feedObject = () => env.KV_COALESCER.getByName(`kv:${VERIFY_CHANGES_KEY}`);
/** The published log, after the trailing write of any change still waiting for it (its alarm). */
async function published() {
  await runDurableObjectAlarm(feedObject());
  return env.CACHE.get<PublishedChanges>(VERIFY_CHANGES_KEY, 'json');
}

async function status(certificateNo: string): Promise<string> {
  const res = await call(`/api/verify/${certificateNo}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { status: string }).status;
}

/** What another isolate's revocation leaves: D1 changed, this location's KV entry not yet gone. */
async function revokeElsewhere(certificateNo: string) {
  await env.DB.prepare(
    `UPDATE certificates SET status = 'revoked', revoked_at = ?, revoked_reason = 'Issued in error',
       version = version + 1 WHERE certificate_no = ?`,
  )
    .bind(Date.now(), certificateNo)
    .run();
}

describe('verification payloads in memory, and the change feed', () => {
  beforeEach(() => resetVerificationMemory());

  it('keeps a payload for a minute, far longer than the feed refresh', () => {
    expect(VERIFICATION_MEMORY_TTL_MS).toBe(60_000);
    // At least 45 s of it: payloads loaded in one burst do not all come due at once.
    expect(VERIFICATION_MEMORY_JITTER).toBe(0.25);
    expect(VERIFICATION_MEMORY_FIRST_JITTER).toBe(0.8);
    expect(CHANGES_REFRESH_MS).toBeLessThanOrEqual(5_000);
  });

  it('forgets a payload another isolate changed once the feed is read, and rebuilds the stale KV entry from D1', async () => {
    const { certificateNo } = await candidateWithCertificate('Asha Verma');
    expect(await status(certificateNo)).toBe('active');
    const entry = await env.CACHE.getWithMetadata<{ etag: string; builtAt: number }>(
      verificationKey(certificateNo),
    );
    expect(typeof entry.metadata?.builtAt).toBe('number');

    await revokeElsewhere(certificateNo);
    await feedObject().verificationsChanged([certificateNo]);
    const feed = await published();
    expect(feed?.changes.map(([no]) => no)).toContain(certificateNo);
    // This location's KV still holds the old entry, as it may for up to a minute after a delete.
    expect(await env.CACHE.get(verificationKey(certificateNo))).toContain('"active"');

    // Until this isolate reads the feed again, its memory answers.
    expect(await status(certificateNo)).toBe('active');
    await syncVerificationChanges(env, Date.now() + CHANGES_REFRESH_MS);
    expect(verificationMemory.peek(verificationKey(certificateNo))).toBeUndefined();
    // The KV entry predates the change: rebuilt from D1 (and replaced in KV), not trusted.
    expect(await status(certificateNo)).toBe('revoked');
    expect(await env.CACHE.get(verificationKey(certificateNo))).toContain('"revoked"');
  });

  it('publishes a revocation made here in the feed, and serves it here at once', async () => {
    const { employer, certificateNo } = await candidateWithCertificate('Ravi Kumar');
    expect(await status(certificateNo)).toBe('active');
    const res = await call(
      `/api/certificates/${certificateNo}/revoke`,
      jsonInit('POST', { reason: 'Issued in error' }, as(employer)),
    );
    expect(res.status).toBe(200);
    expect(await status(certificateNo)).toBe('revoked');
    // The feed is written after the response (the request's waitUntil): wait for that write.
    const numbers = await eventually(async () => {
      const changed = (await published())?.changes.map(([no]) => no) ?? [];
      return changed.includes(certificateNo) ? changed : undefined;
    }).catch(async () => (await published())?.changes.map(([no]) => no));
    expect(numbers).toContain(certificateNo);
  });

  it('forgets every payload when a change is too large to list, and distrusts KV entries built before it', async () => {
    const { certificateNo } = await candidateWithCertificate('Meera Iyer');
    expect(await status(certificateNo)).toBe('active');
    await syncVerificationChanges(env, Date.now() + CHANGES_REFRESH_MS); // this isolate has read the feed
    await revokeElsewhere(certificateNo);
    const many = Array.from({ length: MAX_CHANGES + 1 }, (_, i) => `VP-TEST-${i}`);
    await feedObject().verificationsChanged(many);
    const feed = await published();
    expect(feed?.changes).toEqual([]);
    expect(feed?.clearedAt).toBeGreaterThan(0);
    await syncVerificationChanges(env, Date.now() + 2 * CHANGES_REFRESH_MS);
    expect(verificationMemory.size).toBe(0);
    expect(await status(certificateNo)).toBe('revoked');
  });

  it('publishes at most once a second: a burst is written by one trailing write', async () => {
    // An object of its own: no write of the other tests to wait behind.
    const stub = env.KV_COALESCER.getByName(`kv:${VERIFY_CHANGES_KEY}:burst-test`);
    const t0 = Date.now() + 10_000;
    const current = () => env.CACHE.get<PublishedChanges>(VERIFY_CHANGES_KEY, 'json');
    await runInDurableObject(stub, async (instance: KvCoalescer) => {
      await instance.verificationsChanged(['VP-BURST-0'], t0);
      for (let i = 1; i < 20; i++) await instance.verificationsChanged([`VP-BURST-${i}`], t0 + i * 10);
    });
    // The first change was written at once; the other nineteen wait for one trailing write.
    expect((await current())?.changes.map(([no]) => no)).toEqual(['VP-BURST-0']);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const after = await current();
    expect(after?.changes.filter(([no]) => no.startsWith('VP-BURST-'))).toHaveLength(20);
  });

  it('spreads a burst of first loads over 2–10 minutes, so their reloads never arrive in one wave (issue 54)', () => {
    const t = 1_000_000;
    const keys = Array.from({ length: 1_000 }, (_, i) => verificationKey(`VP-SPREAD-${i}`));
    const payload = (i: number) => ({ json: `{"n":${i}}`, etag: `"${i}"` }) as unknown as CachedPayload;
    // A cache fill: every payload loaded in the same instant.
    keys.forEach((key, i) => {
      verificationMemory.set(key, payload(i), t);
    });
    const ends = keys.map((key) => (verificationMemory.expiresAt(key) ?? 0) - t).sort((a, b) => a - b);
    expect(ends[0]).toBeGreaterThanOrEqual(
      VERIFICATION_MEMORY_MAX_MS * (1 - VERIFICATION_MEMORY_FIRST_JITTER),
    );
    expect(ends.at(-1)).toBeLessThanOrEqual(VERIFICATION_MEMORY_MAX_MS);
    // Spread over the whole span: the middle 80 % of ends cover more than five of its eight minutes,
    // and no minute (the refresh-ahead window) holds more than a quarter of them (an eighth, evenly).
    expect(ends[899]! - ends[99]!).toBeGreaterThan(300_000);
    for (let start = 0; start < VERIFICATION_MEMORY_MAX_MS; start += 10_000) {
      const inMinute = ends.filter(
        (end) => end >= start && end < start + VERIFICATION_REFRESH_AHEAD_MS,
      ).length;
      expect(inMinute, `ends in [${start}, ${start + 60_000}) ms`).toBeLessThan(250);
    }
    // Reloaded (stored over what memory held), each is kept 75–100 % of the ten minutes again.
    const later = t + 700_000;
    keys.forEach((key, i) => {
      verificationMemory.set(key, payload(i), later);
    });
    // (Past its end the entry was still held, so this is a renewal, not a first load.)
    for (const key of keys) {
      const left = (verificationMemory.expiresAt(key) ?? 0) - later;
      expect(left).toBeGreaterThanOrEqual(VERIFICATION_MEMORY_MAX_MS * (1 - VERIFICATION_MEMORY_JITTER));
      expect(left).toBeLessThanOrEqual(VERIFICATION_MEMORY_MAX_MS);
    }
  });

  it('serves a payload past a minute only while the change feed is read; at most ten minutes in all', async () => {
    const { certificateNo } = await candidateWithCertificate('Nisha Pillai');
    const t = Date.now();
    expect(await status(certificateNo)).toBe('active'); // loaded now, after a read of the feed
    const key = verificationKey(certificateNo);
    const loaded = trustedPayload(key, t);
    expect(loaded?.loadedAt).toBeGreaterThanOrEqual(t);
    // No read of the feed since: a minute after its load it is no longer served.
    expect(trustedPayload(key, t + VERIFICATION_MEMORY_TTL_MS + 1_000)).toBeUndefined();
    // A read that fails confirms nothing.
    const down = {
      get: () => Promise.reject(new Error('KV unavailable')),
    } as unknown as KVNamespace;
    await syncVerificationChanges({ CACHE: down }, t + 50_000);
    expect(trustedPayload(key, t + VERIFICATION_MEMORY_TTL_MS + 1_000)).toBeUndefined();
    // A successful read with no change of it confirms the payload for another minute: same object, no KV read.
    await syncVerificationChanges(env, t + 55_000);
    expect(trustedPayload(key, t + 100_000)).toBe(loaded);
    expect(trustedPayload(key, t + 55_000 + VERIFICATION_MEMORY_TTL_MS + 1)).toBeUndefined();
    // Confirmed or not, nothing stays longer than VERIFICATION_MEMORY_MAX_MS; after a first load,
    // at least 20 % of it (VERIFICATION_MEMORY_FIRST_JITTER).
    const kept = VERIFICATION_MEMORY_MAX_MS * (1 - VERIFICATION_MEMORY_FIRST_JITTER);
    await syncVerificationChanges(env, t + kept - 10_000);
    expect(trustedPayload(key, t + kept - 1_000)).toBe(loaded);
    expect(trustedPayload(key, t + VERIFICATION_MEMORY_MAX_MS + 1_000)).toBeUndefined();
  });

  it('keeps the payload already served, with its gzip bytes, when it comes due and is reloaded unchanged', async () => {
    const { certificateNo } = await candidateWithCertificate('Tara Menon');
    const gzipped = { headers: { 'Accept-Encoding': 'gzip' } };
    expect((await call(`/api/verify/${certificateNo}`, gzipped)).headers.get('content-encoding')).toBe(
      'gzip',
    );
    const key = verificationKey(certificateNo);
    const served = verificationMemory.lastValue(key);
    expect(served?.gzip).toBeInstanceOf(Uint8Array);
    const bytes = served?.gzip;
    // Its ten minutes are up: the next request reloads it from KV, finds it unchanged, keeps it.
    verificationMemory.set(key, served!, Date.now() - 2 * VERIFICATION_MEMORY_MAX_MS);
    expect(trustedPayload(key)).toBeUndefined();
    verificationMemory.set(key, served!, Date.now() - 2 * VERIFICATION_MEMORY_MAX_MS);
    const again = await call(`/api/verify/${certificateNo}`, gzipped);
    expect(again.status).toBe(200);
    expect(verificationMemory.lastValue(key)).toBe(served);
    expect(served?.gzip).toBe(bytes);
    expect(trustedPayload(key)).toBe(served); // fresh again: its load time moved on
    // A changed certificate is a new payload: nothing of the old one is kept.
    await revokeElsewhere(certificateNo);
    await forgetVerifications(env, [certificateNo]);
    expect(await status(certificateNo)).toBe('revoked');
    expect(verificationMemory.lastValue(key)).not.toBe(served);
  });

  it('reloads a payload in its last minute in the background, so no request waits for KV when it comes due', async () => {
    const { certificateNo } = await candidateWithCertificate('Ira Sethi');
    const path = `/api/verify/${certificateNo}`;
    const gzipped = { headers: { 'Accept-Encoding': 'gzip' } };
    expect((await call(path, gzipped)).status).toBe(200);
    const key = verificationKey(certificateNo);
    const served = verificationMemory.lastValue(key);
    expect(served?.gzip).toBeInstanceOf(Uint8Array);
    const fromMemory = () =>
      answerFromMemory(new Request(`http://localhost:8787${path}`), env, { waitUntil() {} }, path);
    // Far from its end: the fast path answers, nothing is reloaded.
    expect(fromMemory()).not.toBeNull();
    // In its last minute: the fast path leaves it to the app, which answers from memory at once
    // and reloads it off the request's path.
    // Stored as if loaded ten minutes less half a minute ago; its jittered end (75-100 % of the ten
    // minutes, at random) lands in the last minute one time in five: store until it does.
    const inLastMinute = () => {
      const left = (verificationMemory.expiresAt(key) ?? 0) - Date.now();
      return left > 1000 && left <= VERIFICATION_REFRESH_AHEAD_MS;
    };
    for (let i = 0; i < 200 && !inLastMinute(); i++) {
      verificationMemory.set(
        key,
        served!,
        Date.now() - VERIFICATION_MEMORY_MAX_MS + VERIFICATION_REFRESH_AHEAD_MS / 2,
      );
    }
    const before = verificationMemory.expiresAt(key) ?? 0;
    expect(before - Date.now()).toBeLessThanOrEqual(VERIFICATION_REFRESH_AHEAD_MS);
    expect(before).toBeGreaterThan(Date.now());
    expect(fromMemory()).toBeNull();
    const res = await call(path, gzipped);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Encoding')).toBe('gzip');
    // The reload has run (waitUntil): a later end, the same payload object kept with its gzip bytes.
    await eventually(async () => ((verificationMemory.expiresAt(key) ?? 0) > before ? true : undefined));
    expect(verificationMemory.lastValue(key)).toBe(served);
    expect(served?.gzip).toBeInstanceOf(Uint8Array);
    expect(fromMemory()).not.toBeNull();
  });

  it('forgetVerifications without the feed binding still forgets here and in KV', async () => {
    const { certificateNo } = await candidateWithCertificate('Kiran Rao');
    expect(await status(certificateNo)).toBe('active');
    await forgetVerifications({ CACHE: env.CACHE }, [certificateNo]);
    expect(verificationMemory.peek(verificationKey(certificateNo))).toBeUndefined();
    expect(await env.CACHE.get(verificationKey(certificateNo))).toBeNull();
  });
});
