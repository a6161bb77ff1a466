import { describe, expect, it } from 'vitest';
import { hiddenCharacterReason, mixedScriptReason, normaliseAlias } from './alias';

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

describe('mixedScriptReason (UTS #39, per word)', () => {
  it('refuses a Latin word with Cyrillic, Greek or Armenian letters in it', () => {
    for (const spoof of ['Асme Hiring', 'Gοogle', 'Demo Hіring Co', 'Tata Consսltancy']) {
      expect(mixedScriptReason(spoof), spoof).toMatch(/^The word ".+" mixes .+ letters/);
    }
    expect(mixedScriptReason('Асme Hiring')).toContain('"Асme" mixes Cyrillic and Latin');
    expect(normaliseAlias('рaypal').ok).toBe(false);
  });

  it('accepts names in one script per word, side by side, and the combinations people write', () => {
    for (const fine of [
      'Ravi Kumar',
      'रवि कुमार',
      'Ravi रवि',
      'Ελένη Παπαδοπούλου',
      'Анна Иванова',
      'Zoë Ångström',
      '山田Taro',
      'スズキ株式会社',
      '서울Tech',
      'O’Brien-Smith & Co.',
      'Acme 2.0',
      'राज्य',
      'ਪੰਜਾਬ Jobs',
    ])
      expect(mixedScriptReason(fine), fine).toBeNull();
  });

  it('refuses two scripts in one word that are not written together', () => {
    expect(mixedScriptReason('रविকুমার')).toMatch(/mixes Devanagari and Bengali letters/);
    expect(mixedScriptReason('АнναМария')).toMatch(/Cyrillic and Greek/);
  });
});

describe('replacement and non-characters in shown names (issue 41)', () => {
  it.each(['Bad \uFFFD\uFFFD Name', 'Org \uFDD0', 'Org \uFFFE', 'Org \u{10FFFF}', 'Org \uD800'])(
    'refuses %j as a shown name and as an alias',
    (text) => {
      expect(hiddenCharacterReason(text)).toMatch(/replacement character, non-character or lone surrogate/);
      expect(normaliseAlias(text).ok).toBe(false);
    },
  );

  it('accepts ordinary names', () => {
    expect(hiddenCharacterReason('Ravi Kumar रवि 😀')).toBeNull();
  });
});
