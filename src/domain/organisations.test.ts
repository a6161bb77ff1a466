import { describe, expect, it } from 'vitest';
import { organisationNameKey } from './organisations';

describe('organisationNameKey: names a reader cannot tell apart are one name', () => {
  it('folds compatibility forms, case, spacing and punctuation', () => {
    const key = organisationNameKey('Demo Hiring Co.');
    for (const same of ['demo  hiring-co', 'ＤＥＭＯ ＨＩＲＩＮＧ ＣＯ', 'Demo Hiring Co'])
      expect(organisationNameKey(same), same).toBe(key);
  });

  it('reads Cyrillic, Greek and Armenian look-alikes as the Latin letters they imitate', () => {
    const key = organisationNameKey('Acme Corp');
    // Wholly Cyrillic А с м е (passes the per-word script check) and a Greek Ο, Ρ.
    for (const spoof of ['Асме Согр', 'AСME CΟRΡ', 'Acme Cօrp'])
      expect(organisationNameKey(spoof), spoof).toBe(key);
  });

  it('merges the letters fonts draw alike: 1, i and l; 0 and o; rn and m; vv and w', () => {
    expect(organisationNameKey('Infosys')).toBe(organisationNameKey('lnfosys'));
    expect(organisationNameKey('Infosys')).toBe(organisationNameKey('1nfosys'));
    expect(organisationNameKey('Bolt Works')).toBe(organisationNameKey('B0lt VVorks'));
    expect(organisationNameKey('Modern Labs')).toBe(organisationNameKey('Modem Labs'));
    expect(organisationNameKey('Mint Labs')).toBe(organisationNameKey('rnint Labs'));
  });

  it('keeps different names apart', () => {
    expect(organisationNameKey('Acme Corp')).not.toBe(organisationNameKey('Acme Group'));
    expect(organisationNameKey('Анна')).not.toBe(organisationNameKey('Anna Corp'));
    expect(organisationNameKey('राज्य')).not.toBe(organisationNameKey('राज'));
  });
});
