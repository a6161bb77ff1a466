import { describe, expect, it } from 'vitest';
import { normaliseAlias } from './alias';

describe('normaliseAlias', () => {
  it('NFKC-normalises compatibility forms and trims', () => {
    expect(normaliseAlias('  ｒａｖｉ．ｂｕｉｌｄｓ ')).toEqual({ ok: true, alias: 'ravi.builds' });
    expect(normaliseAlias('ﬁnn²')).toEqual({ ok: true, alias: 'finn2' });
    expect(normaliseAlias('Zoë Ångström')).toEqual({ ok: true, alias: 'Zoë Ångström' });
  });

  it('refuses bidirectional overrides, zero-width and control characters, naming the code point', () => {
    const cases: [string, string][] = [
      ['admin\u202Egnp.exe', '202E'],
      ['top\u2066one\u2069', '2066'],
      ['ravi\u200Bkumar', '200B'],
      ['ravi\u200Dkumar', '200D'],
      ['\uFEFFravi', 'FEFF'],
      ['ravi\u0007', '0007'],
      ['ravi\u0085x', '0085'],
      ['line\u2028break', '2028'],
      ['soft\u00ADhyphen', '00AD'],
      ['priv\uE000ate', 'E000'],
    ];
    for (const [alias, code] of cases) {
      const verdict = normaliseAlias(alias);
      expect(verdict.ok).toBe(false);
      if (!verdict.ok) expect(verdict.reason).toContain(`U+${code}`);
    }
  });

  it('checks the length after normalisation', () => {
    expect(normaliseAlias('ｘ').ok).toBe(false);
    expect(normaliseAlias('a'.repeat(41)).ok).toBe(false);
    expect(normaliseAlias('a'.repeat(40)).ok).toBe(true);
  });
});
