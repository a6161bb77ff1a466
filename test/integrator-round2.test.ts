/**
 * Black-box round 2 as a new partner integrating from the published docs alone (README,
 * docs/partners.md, docs/webhooks.md, openapi.yaml, the typed client): what a careful integrator
 * reads in the rate-limit headers, and a webhook signature checked by an implementation of the
 * Standard Webhooks rule written from the spec, not the one the code signs with.
 */
import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { generateSecret, webhookHeaders } from '../src/domain/webhooks/signing';
import type { RateLimiter } from '../src/durable/rate-limiter';
import { issueKey, loginAdmin } from './harness';
import { call } from './helpers';

/** `"apikey";r=599;t=60` → { r: 599, t: 60 }. */
function parseRateLimit(value: string | null): { policy: string; r: number; t: number } {
  const m = /^"([^"]+)";r=(\d+);t=(\d+)$/.exec(value ?? '');
  if (!m) throw new Error(`not a RateLimit field: ${value}`);
  return { policy: m[1] as string, r: Number(m[2]), t: Number(m[3]) };
}

describe('RateLimit `t`: seconds until more quota is made available (draft-11), not 0 while quota remains', () => {
  it('a key that made one request is told its next unit comes back when that request leaves the window', async () => {
    const admin = await loginAdmin();
    const { key } = await issueKey(admin, ['rubrics:generate'], 'integrator rate-limit t');
    const first = await call('/api/v1/keys/self', { headers: { 'X-Service-Key': key } });
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-policy')).toBe('"apikey";q=600;w=60');
    // Before: `"apikey";r=599;t=0`, which says the quota is being made available right now (the
    // draft's meaning of t=0); in fact the 600th unit only returns 60 s after this request.
    expect(parseRateLimit(first.headers.get('ratelimit'))).toEqual({ policy: 'apikey', r: 599, t: 60 });

    const second = await call('/api/v1/keys/self', { headers: { 'X-Service-Key': key } });
    const { r, t } = parseRateLimit(second.headers.get('ratelimit'));
    expect(r).toBe(598);
    expect(t).toBeGreaterThanOrEqual(59); // still the first request's, which leaves first
    expect(t).toBeLessThanOrEqual(60);
  });

  it('in the Durable Object: t follows the oldest counted hit, 0 only for an empty window, Retry-After unchanged', async () => {
    const limiter = env.RATE_LIMITER.getByName(`test:integrator-t:${crypto.randomUUID()}`);
    const t0 = Date.now() - 10 * 60_000;
    await runInDurableObject(limiter, async (instance: RateLimiter) => {
      expect(await instance.hit(3, 60, t0)).toEqual({
        allowed: true,
        limit: 3,
        remaining: 2,
        resetSeconds: 60,
        retryAfterMs: 0,
      });
      expect(await instance.hit(3, 60, t0 + 20_000)).toMatchObject({
        remaining: 1,
        resetSeconds: 40,
        retryAfterMs: 0,
      });
      // Full: t and Retry-After agree, as before.
      expect(await instance.hit(3, 60, t0 + 30_000)).toEqual({
        allowed: true,
        limit: 3,
        remaining: 0,
        resetSeconds: 30,
        retryAfterMs: 30_000,
      });
      expect(await instance.hit(3, 60, t0 + 50_000)).toMatchObject({
        allowed: false,
        resetSeconds: 10,
        retryAfterMs: 10_000,
      });
      // Long after, everything has left: the next hit starts a new window.
      expect(await instance.hit(3, 60, t0 + 300_000)).toMatchObject({ remaining: 2, resetSeconds: 60 });
    });
    const shard = env.RATE_LIMITER.getByName(`ip-shard:test-integrator-${crypto.randomUUID()}`);
    await runInDurableObject(shard, async (instance: RateLimiter) => {
      expect(await instance.hitKey('a', 3, 60, t0)).toMatchObject({
        remaining: 2,
        resetSeconds: 60,
        retryAfterMs: 0,
      });
      expect(await instance.hitKey('a', 3, 60, t0 + 45_000)).toMatchObject({
        remaining: 1,
        resetSeconds: 15,
      });
    });
  });
});

/** The Standard Webhooks check written from the spec: base64 HMAC-SHA256 of `id.timestamp.body`. */
async function specSignature(secret: string, id: string, timestamp: string, body: string): Promise<string> {
  const raw = Uint8Array.from(atob(secret.replace(/^whsec_/, '')), (c) => c.charCodeAt(0));
  const key = await crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(
    await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${id}.${timestamp}.${body}`)),
  );
  return btoa(String.fromCharCode(...mac));
}

describe('webhook signatures, as docs/webhooks.md describes them to a receiver', () => {
  it('during a rotation both secrets verify, each against its own `v1,` entry, with a non-ASCII body', async () => {
    const [current, previous] = [generateSecret(), generateSecret()];
    const body = JSON.stringify({
      type: 'webhook.ping',
      timestamp: '2026-11-26T00:00:00.000Z',
      data: { note: 'नमस्ते ✓' },
    });
    const headers = await webhookHeaders(
      [current, previous],
      'msg_test',
      new Date('2026-11-26T00:00:00Z'),
      body,
    );
    expect(headers['webhook-timestamp']).toBe(String(Date.parse('2026-11-26T00:00:00Z') / 1000));
    expect(headers['content-type']).toBe('application/json');
    const entries = headers['webhook-signature']!.split(' ');
    expect(entries).toEqual([
      `v1,${await specSignature(current, 'msg_test', headers['webhook-timestamp']!, body)}`,
      `v1,${await specSignature(previous, 'msg_test', headers['webhook-timestamp']!, body)}`,
    ]);
  });
});
