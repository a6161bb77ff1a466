/**
 * The verifier's budgets and fail-closed rules (issue 51), at the level of the pure functions:
 * did:key shape before decoding, identifier caps, JSON depth, status-list inflation (gzip bomb,
 * corrupt trailer), dates that do not parse.
 */
import { gzipSync } from 'fflate';
import { base64url } from 'jose';
import { describe, expect, it } from 'vitest';
import { bitstring, encodeStatusList } from '../certificates/status-list';
import { jsonTooDeep, MAX_JSON_DEPTH, valueTooDeep } from '../json-depth';
import { decodedList, readStatus } from './bitstring';
import { checkSchema, checkTimes, dateTimeSeconds, parseJwt } from './checks';
import {
  base58Decode,
  didKeyJwk,
  didWebUrl,
  isWellFormedDidKey,
  keyFromDidDocument,
  multikeyToJwk,
} from './did';

const ED_DID = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';

describe('did:key: the shape before any decoding', () => {
  it('a well-formed Ed25519 did:key decodes; any other length or alphabet is refused unread', () => {
    expect(isWellFormedDidKey(ED_DID)).toBe(true);
    expect(didKeyJwk(ED_DID)).toMatchObject({ kty: 'OKP', crv: 'Ed25519' });
    for (const did of [
      `${ED_DID}K`, // one character too many
      ED_DID.slice(0, -1), // one too few
      'did:key:z0MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK', // not base58btc
      'did:key:f6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK', // not multibase z
      `did:key:z${'2'.repeat(700_000)}`,
    ]) {
      expect(isWellFormedDidKey(did), did.slice(0, 60)).toBe(false);
      expect(didKeyJwk(did)).toBeNull();
    }
  });

  it('a 700,000-character did:key, publicKeyMultibase or did:web costs nothing (refused by shape)', () => {
    const huge = `z${'2'.repeat(700_000)}`;
    const started = Date.now();
    for (let i = 0; i < 20; i++) {
      expect(didKeyJwk(`did:key:${huge}`)).toBeNull();
      expect(multikeyToJwk(huge)).toBeNull();
      expect(base58Decode(huge.slice(1))).toBeNull();
      expect(didWebUrl(`did:web:${'a'.repeat(700_000)}`)).toBeNull();
    }
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('a right-length key with the wrong multicodec prefix (secp256k1 0xe701) is not read', () => {
    // 0xe7 0x01 + 33 bytes: a secp256k1 did:key has the P-256 length but another codec.
    const bytes = new Uint8Array([0xe7, 0x01, 0x02, ...new Uint8Array(32).fill(7)]);
    const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
    let value = 0n;
    for (const b of bytes) value = value * 256n + BigInt(b);
    let text = '';
    while (value > 0n) {
      text = alphabet[Number(value % 58n)] + text;
      value /= 58n;
    }
    expect(multikeyToJwk(`z${text}`)).toBeNull();
  });

  it('a DID document key must be controlled by the DID', () => {
    const did = 'did:web:issuer.example';
    const method = {
      id: `${did}#k`,
      type: 'Multikey',
      controller: 'did:web:other.example',
      publicKeyMultibase: ED_DID.slice(8),
    };
    const doc = { id: did, verificationMethod: [method], assertionMethod: [`${did}#k`] };
    expect(keyFromDidDocument(doc, did, `${did}#k`)).toBeNull();
    expect(
      keyFromDidDocument({ ...doc, verificationMethod: [{ ...method, controller: did }] }, did, `${did}#k`),
    ).toMatchObject({ kty: 'OKP' });
  });
});

describe('JSON depth, before parsing or validating', () => {
  const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
  it('counts nesting outside strings only', () => {
    expect(jsonTooDeep(deep(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonTooDeep(deep(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonTooDeep(JSON.stringify({ a: '[[[[['.repeat(100), b: '\\"{{{{' }))).toBe(false);
    expect(valueTooDeep(JSON.parse(deep(MAX_JSON_DEPTH + 1)))).toBe(true);
    expect(valueTooDeep({ a: [{ b: 1 }] })).toBe(false);
  });

  it('a JWT payload nested 5,000 levels is refused at parse, and the schema never sees it', () => {
    const payload = base64url.encode(`{"a":${'['.repeat(5000)}${']'.repeat(5000)}}`);
    const parsed = parseJwt(`${base64url.encode('{"alg":"ES256"}')}.${payload}.c2ln`);
    expect(parsed).toEqual({ ok: false, detail: expect.stringMatching(/deeper than 64/) });
  });

  it('the schema validator answers a credential 60 levels deep (under the cap) without overflowing', () => {
    let nested: unknown = 'x';
    for (let i = 0; i < 60; i++) nested = { n: nested };
    const check = checkSchema({ '@context': ['https://www.w3.org/ns/credentials/v2'], extra: nested });
    expect(check.outcome).toBe('failed');
  });
});

describe('status lists: streaming inflate, capped, trailer checked, kept', () => {
  it('a gzip bomb stops at the cap, fast', () => {
    const bomb = `u${base64url.encode(gzipSync(new Uint8Array(24 * 1024 * 1024), { level: 9 }))}`;
    const started = Date.now();
    expect(readStatus(bomb, 1)).toEqual({ ok: false, detail: expect.stringMatching(/inflates past/) });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('a wrong CRC-32 or ISIZE is refused; a good list is read and then kept', () => {
    const good = gzipSync(bitstring([3]), { level: 9, mtime: 0 });
    const badCrc = good.slice();
    badCrc[badCrc.length - 8]! ^= 0xff;
    const badSize = good.slice();
    badSize[badSize.length - 1]! ^= 0x01;
    for (const bytes of [badCrc, badSize])
      expect(readStatus(`u${base64url.encode(bytes)}`, 3)).toEqual({
        ok: false,
        detail: expect.stringMatching(/GZIP check/),
      });
    const encoded = encodeStatusList(bitstring([3]));
    expect(readStatus(encoded, 3)).toEqual({ ok: true, value: 1 });
    expect(decodedList(encoded)).toBe(decodedList(encoded)); // the same decoded bytes, not re-inflated
  });
});

describe('dates fail closed', () => {
  const now = new Date('2026-06-01T00:00:00Z');
  const base = { validFrom: '2026-01-01T00:00:00Z' };
  it('an expiry that does not parse is invalid, never "does not expire"', () => {
    for (const validUntil of [
      1767225600,
      ['2099-01-01T00:00:00Z'],
      'tomorrow',
      '2099-01-01',
      '2099-13-01T00:00:00Z',
      '2099-02-30T00:00:00Z',
      '2099-01-01T00:00:00',
      null,
    ]) {
      const check = checkTimes({ ...base, validUntil }, null, now);
      expect(check.outcome, JSON.stringify(validUntil)).toBe('failed');
      expect(check.expired, JSON.stringify(validUntil)).toBeUndefined();
      expect(check.detail).toMatch(/validUntil is not an RFC 3339 date-time/);
    }
    expect(checkTimes({ issuanceDate: base.validFrom, expirationDate: 12 }, null, now).detail).toMatch(
      /expirationDate/,
    );
    expect(checkTimes(base, { exp: Number.POSITIVE_INFINITY }, now).outcome).toBe('failed');
  });

  it('second 60 (a leap second) is the last instant of its minute', () => {
    expect(dateTimeSeconds('2016-12-31T23:59:60Z')).toBe(Date.parse('2017-01-01T00:00:00Z') / 1000);
    expect(dateTimeSeconds('2016-12-31T18:59:60-05:00')).toBe(Date.parse('2017-01-01T00:00:00Z') / 1000);
    expect(checkTimes({ ...base, validUntil: '2016-12-31T23:59:60Z' }, null, now)).toMatchObject({
      outcome: 'failed',
      expired: true,
    });
    expect(checkTimes({ ...base, validUntil: '2099-12-31T23:59:60Z' }, null, now).outcome).toBe('passed');
    expect(dateTimeSeconds('2016-12-31T23:59:61Z')).toBeNull();
  });
});
