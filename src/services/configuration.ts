/**
 * Required configuration, checked before anything is written: an operation that needs a setting
 * that is missing or invalid answers 503 `not-configured` and changes nothing, and
 * `GET /api/health` names what is missing (names only, never values).
 */
import { parsePreviousKeys, type SigningKey } from '../domain/certificates/credential';
import { ProblemError } from '../lib/problem';
import { signingKey } from './certificates';
import { shardedCorpusFromEnv } from './corpus';

/** The settings the service cannot work without, and what each is for. */
export const REQUIRED_SETTINGS = {
  CERT_SIGNING_KEY: 'signs certificates (a private P-256 JWK; see docs/certificates.md)',
  CERT_PREVIOUS_PUBLIC_KEYS:
    'the public keys of retired signing keys ("" for none; see docs/certificates.md)',
  ADMIN_EMAIL: 'the first admin account',
  ADMIN_PASSWORD: 'the first admin account',
  PUBLIC_BASE_URL: "the service's own origin, in links and signed credentials",
  FINGERPRINT_SHARDS:
    'the integrity corpus shards: a count from 0 to 64 with a D1 binding FINGERPRINTS_<n> for each ("0" or unset: the main database)',
} as const;

export type SettingName = keyof typeof REQUIRED_SETTINGS;

const present = (value: unknown) => typeof value === 'string' && value.trim() !== '';

function validBaseUrl(value: unknown): boolean {
  if (!present(value)) return false;
  try {
    const url = new URL(value as string);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** The names of required settings that are missing or unusable, in a stable order. */
export async function missingSettings(env: Partial<Record<SettingName, unknown>>): Promise<SettingName[]> {
  const missing: SettingName[] = [];
  if (!present(env.CERT_SIGNING_KEY)) missing.push('CERT_SIGNING_KEY');
  else {
    try {
      // An Ed25519 key (from before ES256) counts as unusable: it can no longer sign.
      await signingKey({
        CERT_SIGNING_KEY: env.CERT_SIGNING_KEY as string,
        PUBLIC_BASE_URL: validBaseUrl(env.PUBLIC_BASE_URL)
          ? (env.PUBLIC_BASE_URL as string)
          : 'http://invalid',
      });
    } catch {
      missing.push('CERT_SIGNING_KEY');
    }
  }
  try {
    const previous = env.CERT_PREVIOUS_PUBLIC_KEYS;
    parsePreviousKeys(typeof previous === 'string' ? previous : undefined);
  } catch {
    missing.push('CERT_PREVIOUS_PUBLIC_KEYS');
  }
  if (!present(env.ADMIN_EMAIL)) missing.push('ADMIN_EMAIL');
  if (!present(env.ADMIN_PASSWORD)) missing.push('ADMIN_PASSWORD');
  if (!validBaseUrl(env.PUBLIC_BASE_URL)) missing.push('PUBLIC_BASE_URL');
  const shards = typeof env.FINGERPRINT_SHARDS === 'string' ? env.FINGERPRINT_SHARDS.trim() : '';
  if (shards !== '' && shards !== '0' && !shardedCorpusFromEnv(env as Record<string, unknown>))
    missing.push('FINGERPRINT_SHARDS');
  return missing;
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

export const notConfigured = (name: SettingName) =>
  new ProblemError(
    'not-configured',
    `The server setting ${name} (${REQUIRED_SETTINGS[name]}) is missing or invalid, so certificates cannot be issued now. Nothing was changed; an operator can see this at GET /api/health.`,
  );
