import { describe, expect, it } from 'vitest';
import { issuerScriptReason } from './issuer-names';
import { organisationNameKey, publishedWebsite } from './organisations';

describe('organisationNameKey: names a reader cannot tell apart are one name', () => {
  it('folds compatibility forms, case, spacing and punctuation', () => {
    const key = organisationNameKey('Demo Hiring Co.');
    for (const same of ['demo  hiring-co', 'ＤＥＭＯ ＨＩＲＩＮＧ ＣＯ', 'Demo Hiring Co'])
      expect(organisationNameKey(same), same).toBe(key);
  });

  it('reads Cyrillic, Greek and Armenian look-alikes as the Latin letters they imitate', () => {
    const key = organisationNameKey('Acme Corp');
    // Wholly Cyrillic capitals А С М Е (passes the per-word script check), a Greek Ο, Ρ, an Armenian օ.
    for (const spoof of ['Асме Согр', 'АСМЕ Corp', 'AСME CΟRΡ', 'Acme Cօrp'])
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
    expect(organisationNameKey('Асе Согр')).toBe(organisationNameKey('Ace Corp'));
    expect(organisationNameKey('राज्य')).not.toBe(organisationNameKey('राज'));
  });
});

describe('organisationNameKey: the UTS #39 confusable skeleton', () => {
  // The look-alikes of a verified "Demo Hiring Co" a second review got through (issue 41).
  it.each([
    ['Demo Hiring Cⲟ', 'a Coptic ⲟ'],
    ['Demo Hiring ꓚo', 'a Lisu ꓚ'],
    ['Demo Hiring Cᴏ', 'a small capital ᴏ'],
    ['Démo Hiring Co', 'an accent'],
    ['Demo Hırıng Co', 'dotless ı'],
    ['Demo Hiring Có', 'an accent on the last letter'],
    ['Demo Hiring Coǃ', 'a retroflex click letter drawn as "!"'],
    ['Demo Hiring Co\u0301', 'a combining acute accent'],
  ])('%s (%s) is the same name', (spoof) => {
    expect(organisationNameKey(spoof)).toBe(organisationNameKey('Demo Hiring Co'));
  });

  it('still refuses the variants refused before', () => {
    const key = organisationNameKey('Demo Hiring Co');
    for (const spoof of [
      'DEMO HIRING CO',
      'demo-hiring.co',
      'Dem0 Hiring Co',
      'Demo HIring Co',
      'Dem\u00a0o Hiring Co',
      'Ｄｅｍｏ Ｈｉｒｉｎｇ Ｃｏ',
      'Dеmo Hiring Co',
      'Demo Hiring Cο',
      'Demo Hiring Ꮯo',
    ])
      expect(organisationNameKey(spoof), spoof).toBe(key);
    expect(organisationNameKey('Modern Labs')).toBe(organisationNameKey('Modem Labs'));
  });
});

describe('organisationNameKey: small capitals (issue 51)', () => {
  it.each([
    ['ᴅemo Hiring Co', 'a small capital ᴅ'],
    ['Demo Hirinɢ Co', 'a small capital ɢ'],
    ['Demo ʜiring Co', 'a small capital ʜ'],
    ['ᴅᴇᴍᴏ ʜɪʀɪɴɢ ᴄᴏ', 'all in small capitals'],
    ['Demo ʜɪʀɪɴɢ Cᴏ', 'some words in small capitals'],
    ['ᴅᴇᴍᴏ ʜɪʀɪɴɢ ᴄᴏ'.normalize('NFKD'), 'decomposed'],
  ])('%s (%s) is the same name as Demo Hiring Co', (spoof) => {
    expect(organisationNameKey(spoof)).toBe(organisationNameKey('Demo Hiring Co'));
  });

  it('folds every Latin small capital letter to its Latin base', () => {
    const all = 'ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘꞯʀꜱᴛᴜᴠᴡʏᴢ';
    expect(organisationNameKey(all)).toBe(organisationNameKey('abcdefghijklmnopqrstuvwyz'));
    expect(issuerScriptReason(all)).toBeNull();
  });
});

describe('issuerScriptReason: Latin mixed with another script is a look-alike', () => {
  it.each(['Demo Hiring Cⲟ', 'Demo Hiring ꓚo', 'Acme Асме', 'Tata टाटा', 'Sony ソニー'])(
    'refuses %s',
    (name) => {
      expect(issuerScriptReason(name)).toMatch(/mixes Latin letters/);
    },
  );

  it.each([
    'Demo Hiring Co',
    'Démo Hiring Cᴏ',
    'टाटा कंसल्टेंसी',
    'Асме Согр',
    'ソニー株式会社',
    'Acme 2.0 (India)',
  ])('accepts %s, one script', (name) => {
    expect(issuerScriptReason(name)).toBeNull();
  });
});

describe('publishedWebsite: only an address on the domain proved by DNS (issue 41)', () => {
  const at = (websiteUrl: string, o: Partial<Parameters<typeof publishedWebsite>[0]> = {}) =>
    publishedWebsite({
      websiteUrl,
      verification: 'verified',
      verificationMethod: 'dns',
      verifiedDomain: 'acme.example',
      ...o,
    });

  it.each(['https://acme.example/', 'https://careers.acme.example/jobs', 'https://ACME.example./about'])(
    'publishes %s',
    (url) => {
      expect(at(url)).toBe(url);
    },
  );

  it.each([
    'https://www.google.com',
    'https://acme.example.evil.example/',
    'https://notacme.example/',
    'https://acme.example@evil.example/',
    'https://evil.example/?https://acme.example/',
    'not a url',
  ])('keeps %s private', (url) => {
    expect(at(url)).toBeNull();
  });

  it('publishes nothing for an organisation verified by an admin, pending, or suspended', () => {
    expect(at('https://acme.example/', { verificationMethod: 'admin' })).toBeNull();
    expect(at('https://acme.example/', { verification: 'pending' })).toBeNull();
    expect(at('https://acme.example/', { verification: 'suspended' })).toBeNull();
    expect(at('https://acme.example/', { verifiedDomain: null })).toBeNull();
  });
});
