/**
 * The two DID methods an Open Badges issuer commonly uses, without a resolver service:
 * `did:key` (the key is in the identifier: multibase base58btc of a multicodec public key,
 * Ed25519 or P-256) and `did:web` (the DID document is at a URL derived from the identifier).
 * Plain TypeScript; the fetch of a did:web document is the service's.
 */
import { base58 } from '@scure/base';
import { base64url } from 'jose';
import { isRecord } from './checks';

/**
 * The longest identifier (issuer id, kid, verification method id, DID) the verifier reads: a URL
 * or a DID of any sensible issuer is far shorter, and nothing longer is decoded, fetched or
 * compared (docs/security.md, "Verifier (third round)").
 */
export const MAX_IDENTIFIER_LENGTH = 2048;

/**
 * The only multibase keys read: `z` + base58btc of a multicodec public key, Ed25519
 * (0xed01 + 32 bytes: 47 characters, `z6Mk…`) or compressed P-256 (0x8024 + 33 bytes: 48
 * characters, `zDn…`). The shape is checked before any decoding, so a 700,000-character
 * "key" costs one regular-expression test, not a quadratic base conversion.
 */
const MULTIKEY = /^z(?:6Mk[1-9A-HJ-NP-Za-km-z]{44}|Dn[1-9A-HJ-NP-Za-km-z]{46})$/;

/** base58btc (Bitcoin alphabet) to bytes, or null: short, exact-length input only (@scure/base). */
export function base58Decode(text: string): Uint8Array | null {
  if (text.length > 64) return null;
  try {
    return base58.decode(text);
  } catch {
    return null;
  }
}

// P-256: y² = x³ − 3x + b over p; p ≡ 3 (mod 4), so a square root is a^((p+1)/4).
const P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
const B = 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn;

function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let b = base % modulus;
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % modulus;
    b = (b * b) % modulus;
    e >>= 1n;
  }
  return result;
}

const toBytes32 = (n: bigint) => {
  const out = new Uint8Array(32);
  let v = n;
  for (let i = 31; i >= 0; i--) {
    out[i] = Number(v & 255n);
    v >>= 8n;
  }
  return out;
};

/** A compressed P-256 point (33 bytes) as JWK `x`, `y`, or null when it is not on the curve. */
function decompressP256(point: Uint8Array): { x: string; y: string } | null {
  if (point.length !== 33 || (point[0] !== 2 && point[0] !== 3)) return null;
  let x = 0n;
  for (const byte of point.subarray(1)) x = (x << 8n) | BigInt(byte);
  if (x >= P) return null;
  const rhs = (((modPow(x, 3n, P) - 3n * x + B) % P) + P) % P;
  let y = modPow(rhs, (P + 1n) / 4n, P);
  if ((y * y) % P !== rhs) return null;
  if (Number(y & 1n) !== (point[0] & 1)) y = P - y;
  return { x: base64url.encode(toBytes32(x)), y: base64url.encode(toBytes32(y)) };
}

export type PublicJwk = Record<string, unknown> & { kty: string };

/** A multibase (`z…`) multicodec public key as a JWK: Ed25519 (0xed01) or P-256 (0x8024). */
export function multikeyToJwk(multibase: unknown): PublicJwk | null {
  if (typeof multibase !== 'string' || !MULTIKEY.test(multibase)) return null;
  const bytes = base58Decode(multibase.slice(1));
  if (!bytes) return null;
  if (bytes[0] === 0xed && bytes[1] === 0x01 && bytes.length === 34)
    return { kty: 'OKP', crv: 'Ed25519', x: base64url.encode(bytes.subarray(2)) };
  if (bytes[0] === 0x80 && bytes[1] === 0x24 && bytes.length === 35) {
    const point = decompressP256(bytes.subarray(2));
    return point ? { kty: 'EC', crv: 'P-256', ...point } : null;
  }
  return null;
}

/** The DID of a DID URL (`did:web:x#key-1` → `did:web:x`). */
export const didOf = (didUrl: string) => didUrl.split('#')[0]!.split('?')[0]!;

/**
 * Whether `did` is a well-formed `did:key` of a key this verifier reads (Ed25519 or P-256, the
 * exact length of one), checked by its shape alone: no decoding.
 */
export const isWellFormedDidKey = (did: string) =>
  did.length <= 8 + 49 && did.startsWith('did:key:') && MULTIKEY.test(did.slice(8));

/** The key of a `did:key` (its one verification method), or null; any other shape is not decoded. */
export function didKeyJwk(did: string): PublicJwk | null {
  if (did.length > MAX_IDENTIFIER_LENGTH) return null;
  const bare = didOf(did);
  return isWellFormedDidKey(bare) ? multikeyToJwk(bare.slice(8)) : null;
}

/**
 * Where a `did:web`'s document is: `did:web:example.com` → `https://example.com/.well-known/did.json`,
 * `did:web:example.com:users:alice` → `https://example.com/users/alice/did.json` (a port is `%3A`).
 */
export function didWebUrl(did: string): string | null {
  if (did.length > MAX_IDENTIFIER_LENGTH) return null;
  const match = /^did:web:([^#?]+)$/.exec(didOf(did));
  if (!match) return null;
  const [host, ...path] = match[1]!.split(':').map((part) => decodeURIComponent(part));
  if (!host || !/^[a-z0-9.-]+(:\d+)?$/i.test(host) || path.some((p) => p === '' || p.includes('/')))
    return null;
  return path.length ? `https://${host}/${path.join('/')}/did.json` : `https://${host}/.well-known/did.json`;
}

/**
 * The public key a DID document lists for `kid` (absolute `did:…#frag` or relative `#frag`;
 * without a kid, the only assertion key), as a JWK; null when it lists no such key, or when the
 * method's `controller` is not the DID itself.
 */
export function keyFromDidDocument(document: unknown, did: string, kid: string | null): PublicJwk | null {
  if (!isRecord(document) || document.id !== did) return null;
  const methods = Array.isArray(document.verificationMethod)
    ? document.verificationMethod.filter(isRecord)
    : [];
  const absolute = (id: unknown) => (typeof id === 'string' && id.startsWith('#') ? `${did}${id}` : id);
  const wanted = kid === null ? null : absolute(kid);
  const assertion = Array.isArray(document.assertionMethod) ? document.assertionMethod : [];
  const candidates =
    wanted === null
      ? methods.filter((m) => assertion.some((a) => absolute(isRecord(a) ? a.id : a) === absolute(m.id)))
      : methods.filter((m) => absolute(m.id) === wanted);
  if (candidates.length !== 1) return null;
  const method = candidates[0]!;
  // Key provenance: a method another DID controls is not this DID's key, even listed here.
  if (method.controller !== did) return null;
  if (isRecord(method.publicKeyJwk) && typeof method.publicKeyJwk.kty === 'string')
    return method.publicKeyJwk as PublicJwk;
  if (typeof method.publicKeyMultibase === 'string') return multikeyToJwk(method.publicKeyMultibase);
  return null;
}
