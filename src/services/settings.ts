/** The settings the service needs, and the problem an operation answers when one is missing or invalid. */
import { ProblemError } from '../lib/problem';

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

export const notConfigured = (name: SettingName) =>
  new ProblemError(
    'not-configured',
    `The server setting ${name} (${REQUIRED_SETTINGS[name]}) is missing or invalid, so certificates cannot be issued now. Nothing was changed; an operator can see this at GET /api/health.`,
  );
