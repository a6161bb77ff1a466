import { gunzipSync } from 'fflate';
import { base64url } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  bitstring,
  encodeStatusList,
  STATUS_LIST_SIZE,
  statusEntry,
  statusListCredential,
  statusPosition,
} from './status-list';

describe('bitstring', () => {
  it('puts index 0 in the left-most (most significant) bit of the first byte', () => {
    const bits = bitstring([0, 7, 8, 131_071]);
    expect(bits.length).toBe(16_384);
    expect(bits[0]).toBe(0b1000_0001);
    expect(bits[1]).toBe(0b1000_0000);
    expect(bits[16_383]).toBe(0b0000_0001);
    expect(bits.slice(2, 16_383).every((b) => b === 0)).toBe(true);
  });

  it('refuses bits outside the list and sizes that are not whole bytes', () => {
    expect(() => bitstring([STATUS_LIST_SIZE])).toThrow(RangeError);
    expect(() => bitstring([-1])).toThrow(RangeError);
    expect(() => bitstring([], 12)).toThrow(RangeError);
  });
});

describe('encodeStatusList', () => {
  it('is multibase base64url (u, no padding) of GZIP, deterministic, and decodes back', () => {
    const bits = bitstring([3, 42, 99_999]);
    const encoded = encodeStatusList(bits);
    expect(encoded).toMatch(/^u[A-Za-z0-9_-]+$/);
    expect(encodeStatusList(bits)).toBe(encoded);
    const raw = base64url.decode(encoded.slice(1));
    expect([raw[0], raw[1]]).toEqual([0x1f, 0x8b]); // the GZIP magic number
    expect(gunzipSync(raw)).toEqual(bits);
  });
});

describe('status positions and entries', () => {
  it('maps a global index to its list and bit, and writes the entry with a string index', () => {
    expect(statusPosition(0)).toEqual({ list: 0, bit: 0 });
    expect(statusPosition(131_073)).toEqual({ list: 1, bit: 1 });
    expect(() => statusPosition(-1)).toThrow(RangeError);
    const entry = statusEntry(
      (n) => `https://x.example/ob/status-lists/revocation/${n}`,
      'revocation',
      262_150,
    );
    expect(entry).toEqual({
      id: 'https://x.example/ob/status-lists/revocation/2#6',
      type: 'BitstringStatusListEntry',
      statusPurpose: 'revocation',
      statusListIndex: '6',
      statusListCredential: 'https://x.example/ob/status-lists/revocation/2',
    });
  });

  it('builds the status list credential the spec describes', () => {
    const credential = statusListCredential({
      url: 'https://x.example/ob/status-lists/revocation/0',
      issuerId: 'https://x.example/ob/issuers/platform',
      purpose: 'revocation',
      encodedList: 'uH4sI',
      validFrom: '2026-01-01T00:00:00Z',
      maxAgeSeconds: 300,
    });
    expect(credential).toMatchObject({
      '@context': ['https://www.w3.org/ns/credentials/v2'],
      type: ['VerifiableCredential', 'BitstringStatusListCredential'],
      credentialSubject: {
        id: 'https://x.example/ob/status-lists/revocation/0#list',
        type: 'BitstringStatusList',
        statusPurpose: 'revocation',
        encodedList: 'uH4sI',
        ttl: 300_000,
      },
    });
  });
});
