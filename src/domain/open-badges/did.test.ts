import { base64url, exportJWK, generateKeyPair } from 'jose';
import { describe, expect, it } from 'vitest';
import { bitstring, encodeStatusList } from '../certificates/status-list';
import { readStatus } from './bitstring';
import { parseJwt } from './checks';
import { base58Decode, didKeyJwk, didWebUrl, keyFromDidDocument, multikeyToJwk } from './did';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
function base58(bytes: Uint8Array): string {
  let value = 0n;
  for (const b of bytes) value = value * 256n + BigInt(b);
  let out = '';
  while (value > 0n) {
    out = ALPHABET[Number(value % 58n)] + out;
    value /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = `1${out}`;
  }
  return out;
}

describe('did:key and did:web', () => {
  it('decodes base58btc, keeping leading zero bytes', () => {
    expect([...(base58Decode(base58(new Uint8Array([0, 0, 1, 2, 255]))) ?? [])]).toEqual([0, 0, 1, 2, 255]);
    expect(base58Decode('0OIl')).toBeNull();
  });

  it('reads an Ed25519 did:key and a P-256 one (the compressed point decompressed to x and y)', async () => {
    const ed = await exportJWK(
      (await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true })).publicKey,
    );
    const edDid = `did:key:z${base58(new Uint8Array([0xed, 0x01, ...base64url.decode(ed.x!)]))}`;
    expect(didKeyJwk(`${edDid}#frag`)).toEqual({ kty: 'OKP', crv: 'Ed25519', x: ed.x });

    for (let i = 0; i < 5; i++) {
      const p = await exportJWK((await generateKeyPair('ES256', { extractable: true })).publicKey);
      const y = base64url.decode(p.y!);
      const compressed = new Uint8Array([0x80, 0x24, 2 + (y[31]! & 1), ...base64url.decode(p.x!)]);
      expect(multikeyToJwk(`z${base58(compressed)}`)).toEqual({ kty: 'EC', crv: 'P-256', x: p.x, y: p.y });
    }
    expect(didKeyJwk('did:key:zNotAKey')).toBeNull();
  });

  it('maps did:web to its document URL and picks the key by kid', () => {
    expect(didWebUrl('did:web:example.com')).toBe('https://example.com/.well-known/did.json');
    expect(didWebUrl('did:web:example.com%3A8443:users:alice#k')).toBe(
      'https://example.com:8443/users/alice/did.json',
    );
    expect(didWebUrl('did:web:exa/mple.com')).toBeNull();
    const did = 'did:web:example.com';
    const jwk = { kty: 'EC', crv: 'P-256', x: 'x', y: 'y' };
    const doc = {
      id: did,
      verificationMethod: [{ id: '#k1', controller: did, publicKeyJwk: jwk }],
      assertionMethod: ['#k1'],
    };
    // DID Core requires a method's controller: without it (or with another) it is not this DID's key.
    expect(
      keyFromDidDocument({ ...doc, verificationMethod: [{ id: '#k1', publicKeyJwk: jwk }] }, did, '#k1'),
    ).toBeNull();
    expect(keyFromDidDocument(doc, did, `${did}#k1`)).toEqual(jwk);
    expect(keyFromDidDocument(doc, did, null)).toEqual(jwk);
    expect(keyFromDidDocument(doc, did, `${did}#k2`)).toBeNull();
    expect(keyFromDidDocument({ ...doc, id: 'did:web:other.example' }, did, '#k1')).toBeNull();
  });
});

describe('status bits and the header policy', () => {
  it('reads a bit of a Bitstring Status List; refuses a short list and an index outside it', () => {
    const encoded = encodeStatusList(bitstring([0, 9, 131_071]));
    expect(readStatus(encoded, 0)).toEqual({ ok: true, value: 1 });
    expect(readStatus(encoded, 1)).toEqual({ ok: true, value: 0 });
    expect(readStatus(encoded, 9)).toEqual({ ok: true, value: 1 });
    expect(readStatus(encoded, 131_071)).toEqual({ ok: true, value: 1 });
    expect(readStatus(encoded, 131_072).ok).toBe(false);
    expect(readStatus(encodeStatusList(bitstring([], 1024)), 0).ok).toBe(false);
    expect(readStatus('zabc', 0).ok).toBe(false);
  });

  it('refuses none, HMAC, other algorithms and headers that name or carry a key', () => {
    const jwt = (header: object) =>
      `${base64url.encode(JSON.stringify(header))}.${base64url.encode(JSON.stringify({ a: 1 }))}.c2ln`;
    for (const header of [
      { alg: 'none' },
      { alg: 'NONE' },
      { alg: 'HS256', kid: 'k' },
      { alg: 'PS256', kid: 'k' },
      { alg: 'ES256', kid: 'k', jwk: {} },
      { alg: 'ES256', kid: 'k', jku: 'https://x' },
      { alg: 'ES256', kid: 'k', x5u: 'https://x' },
      { alg: 'ES256', kid: 'k', x5c: [] },
      { alg: 'ES256', kid: 'k', crit: ['b64'] },
    ])
      expect(parseJwt(jwt(header)).ok, JSON.stringify(header)).toBe(false);
    for (const alg of ['ES256', 'RS256', 'EdDSA']) expect(parseJwt(jwt({ alg, kid: 'k' })).ok).toBe(true);
  });
});
