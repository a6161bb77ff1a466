/**
 * The certificate signing key, in one place: imported once per isolate from the
 * `CERT_SIGNING_KEY` secret, required (503 `not-configured` when missing or invalid) before
 * anything is signed, and published with the retired keys (`CERT_PREVIOUS_PUBLIC_KEYS`).
 */
import {
  importSigningKey,
  type Jwks,
  jwksFrom,
  parsePreviousKeys,
  type SigningKey,
} from '../domain/certificates/credential';
import type { CompressiblePayload } from '../lib/content-coding';
import { notConfigured } from './settings';

const present = (value: unknown) => typeof value === 'string' && value.trim() !== '';

let cachedKey: { secret: string; base: string; key: Promise<SigningKey> } | undefined;

/**
 * The signing key from the `CERT_SIGNING_KEY` secret, imported once per isolate; its `kid` is a
 * URL under `PUBLIC_BASE_URL`.
 */
export function signingKey(env: Pick<Env, 'CERT_SIGNING_KEY' | 'PUBLIC_BASE_URL'>): Promise<SigningKey> {
  if (cachedKey?.secret !== env.CERT_SIGNING_KEY || cachedKey.base !== env.PUBLIC_BASE_URL) {
    cachedKey = {
      secret: env.CERT_SIGNING_KEY,
      base: env.PUBLIC_BASE_URL,
      key: importSigningKey(env.CERT_SIGNING_KEY, env.PUBLIC_BASE_URL),
    };
  }
  return cachedKey.key;
}

/** The signing key, or a 503 `not-configured` problem when it is missing or invalid. */
export async function requireSigningKey(
  env: Pick<Env, 'CERT_SIGNING_KEY' | 'PUBLIC_BASE_URL'>,
): Promise<SigningKey> {
  if (!present(env.CERT_SIGNING_KEY)) throw notConfigured('CERT_SIGNING_KEY');
  try {
    return await signingKey(env);
  } catch {
    throw notConfigured('CERT_SIGNING_KEY');
  }
}

/** The retired public keys, or a 503 `not-configured` problem when the variable is malformed. */
export function requirePreviousKeys(env: Pick<Env, 'CERT_PREVIOUS_PUBLIC_KEYS'>) {
  try {
    return parsePreviousKeys(env.CERT_PREVIOUS_PUBLIC_KEYS);
  } catch {
    throw notConfigured('CERT_PREVIOUS_PUBLIC_KEYS');
  }
}

/**
 * The current public key plus retired ones (`CERT_PREVIOUS_PUBLIC_KEYS`), for
 * `/.well-known/jwks.json` and `/ob/keys/{thumbprint}`; 503 `not-configured` when either is unusable.
 */
export async function publishedKeys(
  env: Pick<Env, 'CERT_SIGNING_KEY' | 'CERT_PREVIOUS_PUBLIC_KEYS' | 'PUBLIC_BASE_URL'>,
): Promise<Jwks> {
  const current = await requireSigningKey(env);
  return jwksFrom([current.publicJwk, ...requirePreviousKeys(env)]);
}

/**
 * The JWK set as served: it changes only with a deployment (its secrets and vars), so each isolate
 * serialises it once per configuration and answers from memory (issue 43), its gzip bytes kept on
 * the payload (src/lib/content-coding.ts).
 */
let jwksMemo: { config: string; payload: CompressiblePayload } | null = null;

const jwksConfig = (env: Pick<Env, 'CERT_SIGNING_KEY' | 'CERT_PREVIOUS_PUBLIC_KEYS' | 'PUBLIC_BASE_URL'>) =>
  `${env.CERT_SIGNING_KEY}\n${env.CERT_PREVIOUS_PUBLIC_KEYS}\n${env.PUBLIC_BASE_URL}`;

/** `publishedKeys` serialised, once per configuration; 503 `not-configured` as it. */
export async function publishedKeysPayload(
  env: Pick<Env, 'CERT_SIGNING_KEY' | 'CERT_PREVIOUS_PUBLIC_KEYS' | 'PUBLIC_BASE_URL'>,
): Promise<CompressiblePayload> {
  const config = jwksConfig(env);
  if (jwksMemo?.config !== config) {
    jwksMemo = { config, payload: { json: JSON.stringify(await publishedKeys(env)), etag: '' } };
  }
  return jwksMemo.payload;
}

/** The serialised JWK set when this isolate already holds it for this configuration, else undefined. */
export function publishedKeysFromMemory(
  env: Pick<Env, 'CERT_SIGNING_KEY' | 'CERT_PREVIOUS_PUBLIC_KEYS' | 'PUBLIC_BASE_URL'>,
): CompressiblePayload | undefined {
  return jwksMemo !== null && jwksMemo.config === jwksConfig(env) ? jwksMemo.payload : undefined;
}

/** How long a client may keep the JWK set (seconds). */
export const JWKS_MAX_AGE = 300;
