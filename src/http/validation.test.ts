import { z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { memoiseParse } from './validation';

describe('memoiseParse', () => {
  const schema = () => {
    let parses = 0;
    const s = z.object({ limit: z.coerce.number().int().min(1).max(100).default(10) }).superRefine(() => {
      parses += 1;
    });
    return { s: memoiseParse(s, 3), count: () => parses };
  };

  it('parses an input once and answers the same frozen result after', async () => {
    const { s, count } = schema();
    const first = await s.safeParseAsync({ limit: '5' });
    const again = await s.safeParseAsync({ limit: '5' });
    expect(first).toEqual({ success: true, data: { limit: 5 } });
    expect(again).toBe(first);
    expect(Object.isFrozen(first.data)).toBe(true);
    expect(count()).toBe(1);
    expect((await s.safeParseAsync({})).data).toEqual({ limit: 10 });
    expect(count()).toBe(2);
  });

  it('parses a refused input each time (its problem is explained again) and keeps no failure', async () => {
    const { s, count } = schema();
    const bad = await s.safeParseAsync({ limit: '0' });
    expect(bad.success).toBe(false);
    expect((await s.safeParseAsync({ limit: '0' })).success).toBe(false);
    expect(count()).toBe(2); // parsed both times: a refusal is never answered from memory
    const { s: other } = schema();
    expect((await other.safeParseAsync({ limit: 'x' })).success).toBe(false);
  });

  it('remembers at most its bound of inputs (emptied when full), and answers alike after', async () => {
    const { s, count } = schema();
    for (const limit of ['1', '2', '3', '4']) await s.safeParseAsync({ limit });
    expect(count()).toBe(4);
    const fourth = await s.safeParseAsync({ limit: '4' });
    expect(count()).toBe(4); // kept after the emptying
    expect(fourth.data).toEqual({ limit: 4 });
    await s.safeParseAsync({ limit: '1' });
    expect(count()).toBe(5); // forgotten when the bound was reached
  });
});
