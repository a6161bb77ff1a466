/**
 * Each issuer's Ed25519 key of its Data Integrity proofs (docs/decisions/0350): derived, never
 * stored. The 32-byte seed is HKDF-SHA256 of the `CERT_SIGNING_KEY` secret with info
 * `data-integrity-ed25519-v1:{organisationId}` (`platform` for credentials without an
 * organisation), so every issuer has its own key, the same in every isolate and after every
 * deployment, and rotating `CERT_SIGNING_KEY` rotates them all (re-sign afterwards:
 * docs/certificates.md, "Rotating the signing key"). Imported once per isolate per issuer.
 *
 * Also the issuer's DID document (both keys) and the signer the issuance path hands to the
 * Data Integrity module, which is itself loaded lazily (`await import()`) only when signing.
 */
import { jwkThumbprint } from '../domain/certificates/credential';
import {
  ed25519VerificationMethod,
  type IssuerKeys,
  issuerDid,
  issuerDidDocument,
} from '../domain/certificates/did-web';
import { issuerUrl, PLATFORM_ISSUER } from '../domain/certificates/urls';
import { publishedKeys } from './signing-key';

const encoder = new TextEncoder();

/** PKCS #8 prefix of an Ed25519 private key (RFC 8410): the 32-byte seed follows. */
const PKCS8_ED25519 = Uint8Array.from([
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
]);

export type IssuerEd25519Key = { privateKey: CryptoKey; publicKey: Uint8Array };

const cache = new Map<string, Promise<IssuerEd25519Key>>();

function fromBase64Url(text: string): Uint8Array {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

async function derive(secret: string, issuer: string): Promise<IssuerEd25519Key> {
  const base = await crypto.subtle.importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveBits']);
  const seed = new Uint8Array(
    await crypto.subtle.deriveBits(
      {
        name: 'HKDF',
        hash: 'SHA-256',
        salt: new Uint8Array(0),
        info: encoder.encode(`data-integrity-ed25519-v1:${issuer}`),
      },
      base,
      256,
    ),
  );
  const pkcs8 = new Uint8Array(PKCS8_ED25519.length + 32);
  pkcs8.set(PKCS8_ED25519);
  pkcs8.set(seed, PKCS8_ED25519.length);
  // Extractable only to read the public half (`x`) once; the signing key below is not.
  const exportable = await crypto.subtle.importKey('pkcs8', pkcs8, 'Ed25519', true, ['sign']);
  const jwk = (await crypto.subtle.exportKey('jwk', exportable)) as JsonWebKey;
  const privateKey = await crypto.subtle.importKey('pkcs8', pkcs8, 'Ed25519', false, ['sign']);
  seed.fill(0);
  pkcs8.fill(0);
  if (typeof jwk.x !== 'string') throw new Error('Ed25519 public key could not be derived');
  return { privateKey, publicKey: fromBase64Url(jwk.x) };
}

/** The issuer's (organisation's, or the platform's for `null`) Ed25519 key. */
export function issuerEd25519Key(
  env: Pick<Env, 'CERT_SIGNING_KEY'>,
  organisationId: string | null,
): Promise<IssuerEd25519Key> {
  const issuer = organisationId || PLATFORM_ISSUER;
  const cacheKey = `${env.CERT_SIGNING_KEY}\n${issuer}`;
  let key = cache.get(cacheKey);
  if (!key) {
    if (cache.size > 256) cache.clear();
    key = derive(env.CERT_SIGNING_KEY, issuer);
    key.catch(() => cache.delete(cacheKey));
    cache.set(cacheKey, key);
  }
  return key;
}

/** The signer of an issuer's Data Integrity proofs: its verification method id and private key. */
export async function issuerSigner(
  env: Pick<Env, 'CERT_SIGNING_KEY' | 'PUBLIC_BASE_URL'>,
  organisationId: string | null,
) {
  const key = await issuerEd25519Key(env, organisationId);
  const method = ed25519VerificationMethod(
    issuerDid(env.PUBLIC_BASE_URL, organisationId || null),
    key.publicKey,
  );
  return { id: method.id, privateKey: key.privateKey, method };
}

/**
 * The DID document of an issuer: its Ed25519 key and the platform's ES256 keys (current and
 * retired), all controlled by its `did:web`. 503 `not-configured` when the keys are unusable.
 */
export async function issuerDidDocumentFor(
  env: Pick<Env, 'CERT_SIGNING_KEY' | 'CERT_PREVIOUS_PUBLIC_KEYS' | 'PUBLIC_BASE_URL'>,
  organisationId: string | null,
) {
  const jwks = await publishedKeys(env);
  const es256: IssuerKeys['es256'] = [];
  for (const key of jwks.keys) {
    if (key.kty !== 'EC') continue;
    es256.push({
      thumbprint: await jwkThumbprint(key),
      jwk: { kty: 'EC', crv: 'P-256', x: key.x, y: key.y },
    });
  }
  const { publicKey } = await issuerEd25519Key(env, organisationId);
  return issuerDidDocument(
    issuerDid(env.PUBLIC_BASE_URL, organisationId),
    issuerUrl(env.PUBLIC_BASE_URL, organisationId),
    { ed25519PublicKey: publicKey, es256 },
  );
}
