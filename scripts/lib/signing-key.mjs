// Generates the key that signs certificate credentials (the Worker secret CERT_SIGNING_KEY), in
// the format src/domain/certificates/credential.ts imports: a private P-256 JWK (ES256).
import { createHash, generateKeyPairSync } from 'node:crypto';

/**
 * RFC 7638 JWK thumbprint of a public key (EC or OKP): SHA-256 over the required members in
 * lexicographic order, base64url. Matches `jwkThumbprint` in credential.ts.
 * @param {{ kty: string, crv: string, x: string, y?: string }} jwk
 * @returns {string}
 */
export function jwkThumbprint(jwk) {
  const canonical =
    jwk.kty === 'EC'
      ? JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y })
      : JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x });
  return createHash('sha256').update(canonical).digest('base64url');
}

/**
 * A new private P-256 JWK as a JSON string: `{"kty":"EC","crv":"P-256","x":…,"y":…,"d":…}`.
 * Suitable for `.dev.vars` or `wrangler secret put CERT_SIGNING_KEY`. No `kid`: the Worker names
 * the key by the URL that serves it (`{PUBLIC_BASE_URL}/ob/keys/{thumbprint}`). The string
 * contains no single quotes, so it can be written as a single-quoted dotenv value.
 * @returns {string}
 */
export function generateSigningKeySecret() {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { kty, crv, x, y, d } = privateKey.export({ format: 'jwk' });
  if (kty !== 'EC' || crv !== 'P-256' || !x || !y || !d) {
    throw new Error('node:crypto did not export a P-256 JWK');
  }
  return JSON.stringify({ kty, crv, x, y, d });
}

/**
 * A private Ed25519 JWK as the secret looked before ES256 (with its thumbprint as `kid`), and its
 * public half as `CERT_PREVIOUS_PUBLIC_KEYS` would list it. Tests use it for credentials issued
 * before the switch; `npm run dev` uses `isEd25519Secret` to retire an old local key.
 * @returns {{ secret: string, publicJwk: { kty: string, crv: string, x: string, kid: string } }}
 */
export function generateLegacyEd25519Key() {
  const { privateKey } = generateKeyPairSync('ed25519');
  const { kty, crv, x, d } = privateKey.export({ format: 'jwk' });
  if (kty !== 'OKP' || crv !== 'Ed25519' || !x || !d)
    throw new Error('node:crypto did not export an Ed25519 JWK');
  const kid = jwkThumbprint({ kty, crv, x });
  return { secret: JSON.stringify({ kty, crv, x, d, kid }), publicJwk: { kty, crv, x, kid } };
}

/**
 * The public JWK (as `CERT_PREVIOUS_PUBLIC_KEYS` lists it) of an Ed25519 CERT_SIGNING_KEY from
 * before ES256, or null when the secret is something else.
 * @param {string} secret
 * @returns {{ kty: string, crv: string, x: string, kid: string } | null}
 */
export function retiredPublicKey(secret) {
  try {
    const jwk = JSON.parse(secret);
    if (jwk?.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') return null;
    const kid = typeof jwk.kid === 'string' && jwk.kid ? jwk.kid : jwkThumbprint(jwk);
    return { kty: 'OKP', crv: 'Ed25519', x: jwk.x, kid };
  } catch {
    return null;
  }
}
