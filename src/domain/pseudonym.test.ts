import { describe, expect, it } from 'vitest';
import { pseudonym, pseudonymKey } from './pseudonym';

describe('pseudonym', () => {
  it('is stable for one key, differs across keys and ids, and does not contain the id', async () => {
    const a = await pseudonymKey('secret-a');
    const b = await pseudonymKey('secret-b');
    const id = '8c1f0d7e-0000-4000-8000-000000000001';
    const p = await pseudonym(a, id);
    expect(p).toMatch(/^psn_[0-9a-f]{32}$/);
    expect(await pseudonym(a, id)).toBe(p);
    expect(await pseudonym(b, id)).not.toBe(p);
    expect(await pseudonym(a, `${id}x`)).not.toBe(p);
    expect(p).not.toContain(id.slice(0, 8));
  });
});
