import { describe, expect, it } from 'vitest';
import { decodeJwtPayload } from '../src/routes/pages/verify.templates';

/** base64url without padding, as a JWS segment carries it. */
const segment = (value: unknown) => {
  let binary = '';
  for (const byte of new TextEncoder().encode(JSON.stringify(value))) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

describe('the certificate page reads its credential', () => {
  it('decodes UTF-8 claims from a base64url segment of every length (no padding, - and _)', () => {
    for (const name of ['a', 'ab', 'abc', 'वेब विकास प्रमाणपत्र', '?>?>?>~~~ ÿþ', 'x'.repeat(6000)]) {
      const claims = { vc: { credentialSubject: { achievement: { name } } }, n: name.length };
      expect(decodeJwtPayload(`e30.${segment(claims)}.sig`)).toEqual(claims);
    }
    // ('?>?>' and 'ÿþ' give '-' and '_' in base64url.)
    expect(segment({ s: '?>?>?>~~~ ÿþ' })).toMatch(/[-_]/);
  });

  it('is null for what is not a JSON object in a base64url segment', () => {
    expect(decodeJwtPayload('only-one-part')).toBeNull();
    expect(decodeJwtPayload(`e30.${segment([1, 2])}.sig`)).toBeNull();
    expect(decodeJwtPayload('e30.!!!not-base64!!!.sig')).toBeNull();
    expect(decodeJwtPayload(`e30.${btoa('{"a":')}.sig`)).toBeNull();
  });
});
