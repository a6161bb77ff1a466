import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '../src/db/client';
import { IsolateCache } from '../src/lib/isolate-cache';
import { publicAgreement } from '../src/services/agreement-rate';
import {
  ISOLATE_CACHE_TTL_MS,
  leaderboardKey,
  leaderboardMemory,
  PUBLIC_AGREEMENT_KEY,
  payloadMemory,
  purgeLeaderboards,
} from '../src/services/cache-keys';
import { cachedLeaderboard, leaderboardBody } from '../src/services/leaderboard';
import { call } from './helpers';

describe('IsolateCache', () => {
  it('serves a fresh entry without loading again, and loads again once it expires', async () => {
    const cache = new IsolateCache<string>(1000, 10);
    let loads = 0;
    const load = async () => `value ${++loads}`;
    expect(await cache.get('k', load, 0)).toBe('value 1');
    expect(await cache.get('k', load, 999)).toBe('value 1');
    expect(await cache.get('k', load, 1000)).toBe('value 2');
    expect(loads).toBe(2);
  });

  it('fresh() answers like peek() but leaves an expired entry for lastValue(), which peek() forgets', () => {
    const cache = new IsolateCache<string>(1000, 10);
    cache.set('k', 'v', 0);
    expect(cache.fresh('k', 999)).toBe('v');
    expect(cache.fresh('k', 1000)).toBeUndefined();
    expect(cache.lastValue('k')).toBe('v');
    expect(cache.peek('k', 1000)).toBeUndefined();
    expect(cache.lastValue('k')).toBeUndefined();
  });

  it('spreads the expiry of entries stored together over the jitter, never past the TTL', () => {
    const randoms = [0, 0.5, 0.999];
    let turn = 0;
    const cache = new IsolateCache<string>(1000, 10, 0.25, () => randoms[turn++] ?? 0);
    for (const key of ['a', 'b', 'c']) cache.set(key, key, 0);
    // Kept 1000, 875 and 750.25 ms.
    expect(cache.peek('c', 750)).toBe('c');
    expect(cache.peek('c', 751)).toBeUndefined();
    expect(cache.peek('b', 874)).toBe('b');
    expect(cache.peek('b', 875)).toBeUndefined();
    expect(cache.peek('a', 999)).toBe('a');
    expect(cache.peek('a', 1000)).toBeUndefined();
    // Without jitter every entry is kept the whole TTL.
    const plain = new IsolateCache<string>(1000, 10);
    plain.set('k', 'v', 0);
    expect(plain.peek('k', 999)).toBe('v');
  });

  it('takes a wide jitter for a first load and a narrow one for a reload over the previous entry', () => {
    const cache = new IsolateCache<string>(1000, 10, { first: 0.5, renewal: 0.25 }, () => 1);
    cache.set('k', 'v', 0);
    // First load: 1000 × (1 − 0.5).
    expect(cache.expiresAt('k')).toBe(500);
    // Stored again over it (a reload): 1000 × (1 − 0.25).
    cache.set('k', 'w', 100);
    expect(cache.expiresAt('k')).toBe(850);
    // Forgotten, then loaded again: a first load once more.
    cache.delete('k');
    cache.set('k', 'x', 1000);
    expect(cache.expiresAt('k')).toBe(1500);
  });

  it("never hands one caller's load in flight to another: each loads, the first settled value is kept", async () => {
    // A load is the caller's own I/O; a request must not await another request's I/O (Workers
    // fail the waiting request when the loading one is cancelled).
    const cache = new IsolateCache<string>(1000, 10);
    const releases: ((v: string) => void)[] = [];
    const load = () => new Promise<string>((resolve) => releases.push(resolve));
    const first = cache.get('k', load, 0);
    const second = cache.get('k', load, 1);
    expect(releases).toHaveLength(2);
    releases[0]?.('first');
    releases[1]?.('second');
    expect(await first).toBe('first');
    expect(await second).toBe('second');
    // Once a value has settled it is shared: no third load.
    expect(await cache.get('k', load, 2)).toBe('second');
    expect(releases).toHaveLength(2);
  });

  it('keeps neither a null nor a failed load', async () => {
    const cache = new IsolateCache<string>(1000, 10);
    expect(await cache.get('missing', async () => null, 0)).toBeNull();
    expect(await cache.get('missing', async () => 'found', 1)).toBe('found');
    await expect(cache.get('broken', () => Promise.reject(new Error('KV down')), 0)).rejects.toThrow(
      'KV down',
    );
    expect(await cache.get('broken', async () => 'recovered', 1)).toBe('recovered');
  });

  it('forgets a key, a prefix, and an in-flight load that was forgotten meanwhile', async () => {
    const cache = new IsolateCache<string>(1000, 10);
    await cache.get('board:web', async () => 'web', 0);
    await cache.get('board:data', async () => 'data', 0);
    await cache.get('other', async () => 'other', 0);
    cache.deletePrefix('board:');
    expect(await cache.get('board:web', async () => 'web 2', 1)).toBe('web 2');
    expect(await cache.get('other', async () => 'other 2', 1)).toBe('other');

    let release!: (v: string) => void;
    const stale = cache.get('k', () => new Promise<string>((r) => (release = r)), 2);
    cache.delete('k');
    release('computed before the change');
    await stale;
    expect(await cache.get('k', async () => 'after the change', 3)).toBe('after the change');
  });

  it('peeks at a fresh value without loading, and at nothing while loading or once it expires', async () => {
    const cache = new IsolateCache<string>(1000, 10);
    expect(cache.peek('k', 0)).toBeUndefined();
    const loading = cache.get('k', async () => 'v', 0);
    expect(cache.peek('k', 0)).toBeUndefined();
    await loading;
    expect(cache.peek('k', 999)).toBe('v');
    expect(cache.size).toBe(1);
    expect(cache.peek('k', 1000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('holds at most maxEntries, dropping the oldest write first', async () => {
    const cache = new IsolateCache<number>(1000, 3);
    for (const n of [1, 2, 3, 4]) cache.set(`k${n}`, n, 0);
    expect(cache.size).toBe(3);
    expect(await cache.get('k1', async () => -1, 1)).toBe(-1);
    expect(await cache.get('k4', async () => -1, 1)).toBe(4);
  });
});

describe('the hot paths behind the isolate cache', () => {
  beforeEach(() => {
    payloadMemory.clear();
    leaderboardMemory.clear();
  });

  it('keeps entries for a few seconds only, far inside the responses own max-age', () => {
    expect(ISOLATE_CACHE_TTL_MS).toBeLessThanOrEqual(5_000);
  });

  it('answers the agreement rate from memory without reading KV again', async () => {
    const first = await call('/api/public/agreement-rate');
    expect(first.status).toBe(200);
    const etag = first.headers.get('ETag');
    // Another isolate's write to KV is not seen here until the memory entry expires.
    await env.CACHE.put(PUBLIC_AGREEMENT_KEY, '{"changed":true}', { metadata: { etag: 'W/"other"' } });
    const second = await call('/api/public/agreement-rate');
    expect(second.headers.get('ETag')).toBe(etag);
    expect(await second.json()).toMatchObject({ windowDays: 90 });
    await env.CACHE.delete(PUBLIC_AGREEMENT_KEY);
  });

  it('answers a leaderboard from memory, and a purge in this isolate drops it at once', async () => {
    const first = await call('/api/leaderboard');
    expect(first.status).toBe(200);
    await env.CACHE.put(
      leaderboardKey('*'),
      JSON.stringify({ domain: null, generatedAt: new Date(0).toISOString(), entries: [] }),
    );
    const second = await call('/api/leaderboard');
    expect(second.headers.get('ETag')).toBe(first.headers.get('ETag'));
    await purgeLeaderboards(env.CACHE, []);
    expect(await env.CACHE.get(leaderboardKey('*'))).toBeNull();
    const third = await call('/api/leaderboard');
    expect(third.status).toBe(200);
    expect(third.headers.get('ETag')).not.toBe(`W/"0-10"`);
    expect(leaderboardMemory.size).toBe(1);
  });

  it('answers a board and the agreement rate computed on a miss even when KV refuses to store them', async () => {
    // KV refuses a second write to one key within a second: concurrent misses can meet that.
    const refusing = {
      get: env.CACHE.get.bind(env.CACHE),
      getWithMetadata: async () => ({ value: null, metadata: null, cacheStatus: null }),
      put: async () => {
        throw new Error('KV PUT failed: 429 Too Many Requests');
      },
    } as unknown as KVNamespace;
    await env.CACHE.delete(leaderboardKey('*'));
    const board = await cachedLeaderboard(getDb(env.DB), { CACHE: refusing }, null);
    expect(board.domain).toBeNull();
    expect(Array.isArray(board.entries)).toBe(true);
    const rate = await publicAgreement(getDb(env.DB), { CACHE: refusing });
    expect(JSON.parse(rate.json)).toMatchObject({ windowDays: 90 });
    expect(rate.etag).toMatch(/^W\//);
    // Nothing was stored, and the values were still kept in memory for this isolate.
    expect(await env.CACHE.get(leaderboardKey('*'))).toBeNull();
    expect(leaderboardMemory.peek(leaderboardKey('*'))).toBe(board);
  });
});

describe('leaderboards re-read from KV (issue 43)', () => {
  it('keep the object already served while the board is unchanged, so its bodies are not built again; a recomputed board replaces it', {
    timeout: 30_000,
  }, async () => {
    const db = getDb(env.DB);
    const cacheEnv = env as unknown as Pick<Env, 'CACHE'>;
    const key = leaderboardKey('*');
    await purgeLeaderboards(env.CACHE, []);
    // The local KV takes one write per key per second: this test's write must not be refused.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const first = await cachedLeaderboard(db, cacheEnv, null); // computed from D1, stored in KV
    const body = leaderboardBody(first, 10);

    // Its 5 seconds in this isolate's memory are up: the next request reads KV again.
    leaderboardMemory.delete(key);
    const again = await cachedLeaderboard(db, cacheEnv, null);
    expect(await env.CACHE.get(key, 'json')).toMatchObject({ generatedAt: first.generatedAt });
    expect(again).toBe(first);
    expect(leaderboardBody(again, 10)).toBe(body);

    // After a purge (a rating changed the board) it is computed again: a new board, a new body.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await purgeLeaderboards(env.CACHE, []);
    const recomputed = await cachedLeaderboard(db, cacheEnv, null);
    expect(recomputed).not.toBe(first);
    expect(recomputed.generatedAt).not.toBe(first.generatedAt);
    expect(leaderboardBody(recomputed, 10).etag).not.toBe(body.etag);
  });
});

describe('the public agreement rate re-read from KV (issue 43)', () => {
  it('keeps the payload already served (and its gzipped body) while KV holds the same one', {
    timeout: 30_000,
  }, async () => {
    const db = getDb(env.DB);
    const cacheEnv = env as unknown as Pick<Env, 'CACHE'>;
    // The local KV takes one write per key per second (429 otherwise): wait a second between writes.
    const put = async (json: string, etag: string) => {
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      await env.CACHE.put(PUBLIC_AGREEMENT_KEY, json, { metadata: { etag } });
    };
    await put(JSON.stringify({ windowDays: 90, stored: true }), 'W/"stored"');
    payloadMemory.delete(PUBLIC_AGREEMENT_KEY);
    const first = await publicAgreement(db, cacheEnv);
    expect(first.etag).toBe('W/"stored"');
    first.gzip = new Uint8Array([1, 2, 3]); // as `gzipBody` leaves it after a first gzipped answer
    payloadMemory.delete(PUBLIC_AGREEMENT_KEY); // its 5 seconds in memory are up
    const again = await publicAgreement(db, cacheEnv);
    expect(again).toBe(first);
    expect(again.gzip).toEqual(new Uint8Array([1, 2, 3]));

    // Another payload in KV (another isolate refreshed it): that one is served.
    await put(JSON.stringify({ windowDays: 90, changed: true }), 'W/"changed"');
    payloadMemory.delete(PUBLIC_AGREEMENT_KEY);
    const changed = await publicAgreement(db, cacheEnv);
    expect(changed).not.toBe(first);
    expect(changed.etag).toBe('W/"changed"');
    expect(changed.gzip).toBeUndefined();
  });
});
