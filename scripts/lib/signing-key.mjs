// Generates the Ed25519 key that signs certificate credentials (the Worker secret
// CERT_SIGNING_KEY), in the format src/domain/certificates/credential.ts imports.
import { createHash, generateKeyPairSync } from 'node:crypto';

/**
 * RFC 7638 JWK thumbprint of an OKP public key: SHA-256 over the required members in
 * lexicographic order, base64url. Matches `jwkThumbprint` in credential.ts, so the kid written
 * here is the kid the Worker would derive itself.
 * @param {{ crv: string, kty: string, x: string }} jwk
 * @returns {string}
 */
export function jwkThumbprint(jwk) {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x });
  return createHash('sha256').update(canonical).digest('base64url');
}

/**
 * A new private Ed25519 JWK as a JSON string: `{"kty":"OKP","crv":"Ed25519","x":…,"d":…,"kid":…}`,
 * with kid the RFC 7638 thumbprint. Suitable for `.dev.vars` or `wrangler secret put CERT_SIGNING_KEY`.
 * The string contains no single quotes, so it can be written as a single-quoted dotenv value.
 * @returns {string}
 */
export function generateSigningKeySecret() {
  const { privateKey } = generateKeyPairSync('ed25519');
  const { kty, crv, x, d } = privateKey.export({ format: 'jwk' });
  if (kty !== 'OKP' || crv !== 'Ed25519' || !x || !d) {
    throw new Error('node:crypto did not export an Ed25519 JWK');
  }
  return JSON.stringify({ kty, crv, x, d, kid: jwkThumbprint({ kty, crv, x }) });
}
