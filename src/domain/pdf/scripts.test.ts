import { describe, expect, it } from 'vitest';
import { itemize, scriptOf } from './scripts';

describe('itemize', () => {
  it('keeps a Devanagari name, with its space and a danda, in one run', () => {
    expect(itemize('अनन्या क्षत्रिय।')).toEqual([{ script: 'devanagari', text: 'अनन्या क्षत्रिय।' }]);
  });

  it('splits mixed Latin, Devanagari and Tamil text at script changes; shared characters go with the run before', () => {
    expect(itemize('Name: अनन्या (தமிழ்செல்வி) 2026')).toEqual([
      { script: 'latin', text: 'Name: ' },
      { script: 'devanagari', text: 'अनन्या (' },
      { script: 'tamil', text: 'தமிழ்செல்வி) 2026' },
    ]);
  });

  it('gives leading shared characters to the first script, and text of shared characters only to Latin', () => {
    expect(itemize('“அ')).toEqual([{ script: 'tamil', text: '“அ' }]);
    expect(itemize('2026-11-23')).toEqual([{ script: 'latin', text: '2026-11-23' }]);
    expect(itemize('')).toEqual([]);
  });

  it('classifies code points', () => {
    expect(scriptOf('क'.codePointAt(0)!)).toBe('devanagari');
    expect(scriptOf('்'.codePointAt(0)!)).toBe('tamil');
    expect(scriptOf('é'.codePointAt(0)!)).toBe('latin');
    expect(scriptOf(0x200d)).toBeNull(); // ZWJ
    expect(scriptOf(0x0964)).toBeNull(); // danda
  });
});
