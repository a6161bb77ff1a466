import { env, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { KvCoalescer } from '../src/durable/kv-coalescer';
import { leaderboardKey, PUBLIC_AGREEMENT_KEY } from '../src/services/cache-keys';

describe('KvCoalescer: at most one KV write per key per second', () => {
  it('lets the first change write at once, schedules one trailing write for a burst, and makes it with its alarm', async () => {
    const stub = env.KV_COALESCER.getByName(`kv:test-${crypto.randomUUID()}`);
    const t0 = Date.now();
    await env.CACHE.put(PUBLIC_AGREEMENT_KEY, 'stale', { metadata: { etag: 'W/"stale"' } });
    const decisions = await runInDurableObject(stub, async (instance: KvCoalescer) => {
      const out = [];
      for (let i = 0; i < 50; i++) out.push(await instance.request(PUBLIC_AGREEMENT_KEY, t0 + i * 10));
      return out;
    });
    expect(decisions[0]).toEqual({ action: 'write', at: t0 });
    expect(decisions[1]).toEqual({ action: 'schedule', at: t0 + 1000 });
    expect(decisions.slice(2).every((d) => d.action === 'joined' && d.at === t0 + 1000)).toBe(true);
    await runInDurableObject(stub, async (_i: KvCoalescer, state) => {
      expect(await state.storage.getAlarm()).toBe(t0 + 1000);
    });
    // The alarm makes the one trailing write: the payload is recomputed from D1.
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const stored = await env.CACHE.get(PUBLIC_AGREEMENT_KEY);
    expect(stored).not.toBe('stale');
    expect(JSON.parse(stored!)).toHaveProperty('total');
    // Nothing is pending any more: the alarm has nothing to do.
    expect(await runInDurableObject(stub, (instance: KvCoalescer) => instance.runDue())).toBe(false);
  });

  it('deletes a leaderboard key on its trailing write', async () => {
    const key = leaderboardKey('coalesce-test');
    const stub = env.KV_COALESCER.getByName(`kv:${key}`);
    const t0 = Date.now();
    await runInDurableObject(stub, async (instance: KvCoalescer) => {
      expect((await instance.request(key, t0)).action).toBe('write');
      expect((await instance.request(key, t0 + 5)).action).toBe('schedule');
    });
    await env.CACHE.put(key, '{"entries":[]}');
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await env.CACHE.get(key)).toBeNull();
  });

  it('does not throw from its alarm when the trailing write fails (the cron is the backstop), and writes nothing', async () => {
    const stub = env.KV_COALESCER.getByName(`kv:test-${crypto.randomUUID()}`);
    const t0 = Date.now();
    await env.CACHE.put(PUBLIC_AGREEMENT_KEY, 'stale');
    const outcome = await runInDurableObject(stub, async (instance: KvCoalescer) => {
      expect((await instance.request(PUBLIC_AGREEMENT_KEY, t0)).action).toBe('write');
      expect((await instance.request(PUBLIC_AGREEMENT_KEY, t0 + 5)).action).toBe('schedule');
      // D1 fails for this object: the recomputation throws inside the trailing write.
      const broken = {
        prepare: () => {
          throw new Error('D1 is down');
        },
      } as unknown as D1Database;
      const withEnv = instance as unknown as { env: Env };
      const real = withEnv.env;
      withEnv.env = { ...real, DB: broken };
      try {
        await expect(instance.runDue(t0 + 2000)).rejects.toThrow('D1 is down');
        // The alarm of the same failure resolves (an alarm that rejects is an unhandled error).
        await instance.request(PUBLIC_AGREEMENT_KEY, t0 + 2005);
        await instance.request(PUBLIC_AGREEMENT_KEY, t0 + 2010);
        const alarm = instance.alarm().then(() => 'resolved');
        return await alarm;
      } finally {
        withEnv.env = real;
      }
    });
    expect(outcome).toBe('resolved');
    // Nothing was written, and nothing is left due: the cron's rewrite is the backstop.
    expect(await env.CACHE.get(PUBLIC_AGREEMENT_KEY)).toBe('stale');
  });
});
