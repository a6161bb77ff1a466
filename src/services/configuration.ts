/**
 * Required configuration, checked before anything is written: an operation that needs a setting
 * that is missing or invalid answers 503 `not-configured` and changes nothing, and
 * `GET /api/health` names what is missing (names only, never values).
 */
import type { SigningKey } from '../domain/certificates/credential';
import { ProblemError } from '../lib/problem';
import { signingKey } from './certificates';
import { shardedCorpusFromEnv } from './corpus';

/** The settings the service cannot work without, and what each is for. */
export const REQUIRED_SETTINGS = {
  CERT_SIGNING_KEY: 'signs certificates (a private JWK; see docs/certificates.md)',
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
      await signingKey({ CERT_SIGNING_KEY: env.CERT_SIGNING_KEY as string });
    } catch {
      missing.push('CERT_SIGNING_KEY');
    }
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
export async function requireSigningKey(env: Pick<Env, 'CERT_SIGNING_KEY'>): Promise<SigningKey> {
  if (!present(env.CERT_SIGNING_KEY)) throw notConfigured('CERT_SIGNING_KEY');
  try {
    return await signingKey(env);
  } catch {
    throw notConfigured('CERT_SIGNING_KEY');
  }
}

const notConfigured = (name: SettingName) =>
  new ProblemError(
    'not-configured',
    `The server setting ${name} (${REQUIRED_SETTINGS[name]}) is missing or invalid, so certificates cannot be issued now. Nothing was changed; an operator can see this at GET /api/health.`,
  );
