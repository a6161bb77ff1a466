/**
 * Required configuration, checked before anything is written: an operation that needs a setting
 * that is missing or invalid answers 503 `not-configured` and changes nothing, and
 * `GET /api/health` names what is missing (names only, never values).
 */
import { parsePreviousKeys } from '../domain/certificates/credential';
import { shardedCorpusFromEnv } from './corpus';
import type { SettingName } from './settings';
import { signingKey } from './signing-key';

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
