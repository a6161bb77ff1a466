/**
 * The issuers' own identifiers a wallet can resolve (docs/decisions/0350): each issuer
 * organisation (and the platform, for credentials without one) is a `did:web` under
 * `PUBLIC_BASE_URL`, `did:web:{host}[:{path}]:issuers:{orgId}`, whose DID document is served at
 * `{base}/issuers/{orgId}/did.json` and lists both keys the issuer signs with: the ES256 key of
 * the VC-JWT (a `JsonWebKey`) and its own Ed25519 key of the Data Integrity proof (a `Multikey`).
 * Both verification methods' controller is the DID, the credential's `issuer.id`.
 *
 * Light on purpose (no JSON-LD, no signature library): the DID document route is public and the
 * heavy Data Integrity code is loaded only where something is signed or verified.
 */
import { PLATFORM_ISSUER } from './urls';

const trim = (base: string) => base.replace(/\/+$/, '');

/** `did:web` of an issuer: the host (port percent-encoded), any base path, then `issuers:{id}`. */
export function issuerDid(base: string, organisationId: string | null): string {
  const url = new URL(trim(base));
  const path = url.pathname
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => encodeURIComponent(decodeURIComponent(segment)));
  return [
    'did:web',
    encodeURIComponent(url.host),
    ...path,
    'issuers',
    organisationId ?? PLATFORM_ISSUER,
  ].join(':');
}

/** Where {@link issuerDid}'s DID document is served (what a did:web resolver fetches). */
export const issuerDidDocumentUrl = (base: string, organisationId: string | null) =>
  `${trim(base)}/issuers/${organisationId ?? PLATFORM_ISSUER}/did.json`;

/** The organisation id an own issuer DID names, or null when `did` is not one of ours. */
export function issuerOfDid(base: string, did: string): string | null {
  const prefix = issuerDid(base, '').replace(/:$/, ':');
  if (!did.startsWith(prefix)) return null;
  const id = did.slice(prefix.length);
  return /^[A-Za-z0-9_-]{1,64}$/.test(id) ? id : null;
}

/** Verification method ids inside the DID document. */
export const ED25519_FRAGMENT = 'ed25519-key-1';
export const es256Fragment = (thumbprint: string) => `es256-${thumbprint}`;

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** base58btc (Bitcoin alphabet) of bytes. */
export function base58Encode(bytes: Uint8Array): string {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) + BigInt(byte);
  let out = '';
  while (value > 0n) {
    out = BASE58[Number(value % 58n)] + out;
    value /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    out = `1${out}`;
  }
  return out;
}

/** Multikey `publicKeyMultibase` of an Ed25519 public key: `z` + base58btc(0xed 0x01 ‖ key). */
export function ed25519Multibase(publicKey: Uint8Array): string {
  const bytes = new Uint8Array(2 + publicKey.length);
  bytes.set([0xed, 0x01]);
  bytes.set(publicKey, 2);
  return `z${base58Encode(bytes)}`;
}

export type IssuerKeys = {
  /** The issuer's Ed25519 public key (32 bytes) of its Data Integrity proofs. */
  ed25519PublicKey: Uint8Array;
  /** The platform's ES256 keys (current first, then retired), each with its thumbprint. */
  es256: { thumbprint: string; jwk: { kty: 'EC'; crv: 'P-256'; x: string; y: string } }[];
};

/** The Ed25519 verification method of an issuer (as the proof's `verificationMethod` names it). */
export function ed25519VerificationMethod(did: string, publicKey: Uint8Array) {
  return {
    id: `${did}#${ED25519_FRAGMENT}`,
    type: 'Multikey',
    controller: did,
    publicKeyMultibase: ed25519Multibase(publicKey),
  };
}

/**
 * The DID document of an issuer: both keys as verification methods controlled by the DID, both
 * allowed to assert (`assertionMethod`) and authenticate; `alsoKnownAs` names the issuer's Open
 * Badges Profile (`/ob/issuers/{id}`), the `issuer.id` of credentials issued before the DID.
 */
export function issuerDidDocument(did: string, profileUrl: string, keys: IssuerKeys) {
  const ed25519 = ed25519VerificationMethod(did, keys.ed25519PublicKey);
  const es256 = keys.es256.map(({ thumbprint, jwk }) => ({
    id: `${did}#${es256Fragment(thumbprint)}`,
    type: 'JsonWebKey',
    controller: did,
    publicKeyJwk: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y },
  }));
  const ids = [ed25519.id, ...es256.map((m) => m.id)];
  return {
    '@context': [
      'https://www.w3.org/ns/did/v1',
      'https://w3id.org/security/multikey/v1',
      'https://w3id.org/security/jwk/v1',
    ],
    id: did,
    alsoKnownAs: [profileUrl],
    verificationMethod: [ed25519, ...es256],
    assertionMethod: ids,
    authentication: ids,
  };
}
