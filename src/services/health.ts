/**
 * `GET /api/health`: named checks, each `ok` or `degraded` with a one-line detail, and the
 * overall status the worst of them. To add a check (missing configuration, a base URL that does
 * not match the request), compute it here, add it to `checks` and to `HealthSchema`.
 */
import type { Database } from '../db/client';
import { missingSettings } from './configuration';
import { checkBaseUrl } from './deployment-checks';
import { digilockerConfig } from './digilocker/config';
import { stalledCounts } from './jobs/jobs';
import { registeredKinds } from './jobs/registry';
import { isLoopbackBase } from './mail';
import type { SettingName } from './settings';

export type CheckStatus = 'ok' | 'degraded';
export type Check = { status: CheckStatus; detail: string };

export async function serviceHealth(
  db: Database,
  deployment: {
    publicBaseUrl: string;
    requestUrl: string;
    env: Partial<Record<SettingName, unknown>> &
      Partial<Pick<Env, 'DIGILOCKER_ORG_ID' | 'DIGILOCKER_DOC_TYPE' | 'DIGILOCKER_API_KEY'>>;
    /** `WEBHOOKS_ALLOW_HTTP_LOCALHOST`, the development switch for outbound fetches to loopback. */
    allowHttpLocalhost?: string | undefined;
  },
  now = new Date(),
) {
  const stalled = await stalledCounts(db, registeredKinds());
  const total = Object.values(stalled).reduce((a, b) => a + b, 0);
  const jobs: Check = total
    ? { status: 'degraded', detail: `${total} stalled job(s) wait for an administrator.` }
    : { status: 'ok', detail: 'No stalled jobs.' };
  const mismatch = checkBaseUrl(deployment.publicBaseUrl, deployment.requestUrl);
  const baseUrl = {
    status: (mismatch ? 'degraded' : 'ok') as CheckStatus,
    detail: mismatch
      ? `Requests arrive at ${mismatch.observed}, not at PUBLIC_BASE_URL: every self-URL and signed issuer is wrong.`
      : 'PUBLIC_BASE_URL is where requests arrive.',
    ok: !mismatch,
    configured: deployment.publicBaseUrl,
    observed: mismatch?.observed ?? null,
  };
  const missing = await missingSettings(deployment.env);
  const configuration = {
    status: (missing.length > 0 ? 'degraded' : 'ok') as CheckStatus,
    detail:
      missing.length > 0
        ? `Missing or invalid settings: ${missing.join(', ')}. Operations that need them answer 503 not-configured.`
        : 'Every required setting is present and usable.',
    missing,
  };
  const switchOn = deployment.allowHttpLocalhost === 'true';
  const honoured = switchOn && isLoopbackBase(deployment.publicBaseUrl);
  const outboundLoopback = {
    status: (switchOn && !honoured ? 'degraded' : 'ok') as CheckStatus,
    detail: !switchOn
      ? 'Outbound fetches (webhooks, send-to-host, verification) never reach a loopback address.'
      : honoured
        ? 'WEBHOOKS_ALLOW_HTTP_LOCALHOST is on and PUBLIC_BASE_URL is a loopback address: outbound fetches may reach http://localhost (local development).'
        : 'WEBHOOKS_ALLOW_HTTP_LOCALHOST is on, but PUBLIC_BASE_URL is not a loopback address, so it is ignored: remove it from this deployment.',
    switchOn,
    honoured,
  };
  // Optional: a server that is not a DigiLocker issuer is not degraded (its endpoints answer 503).
  const digilockerConfigured = digilockerConfig(deployment.env) !== null;
  const digilocker = {
    status: 'ok' as CheckStatus,
    detail: digilockerConfigured
      ? 'A DigiLocker issuer: Pull URI and Pull Doc answer DigiLocker.'
      : 'Not a DigiLocker issuer: DIGILOCKER_ORG_ID, DIGILOCKER_DOC_TYPE or DIGILOCKER_API_KEY is not set.',
    configured: digilockerConfigured,
  };
  const checks = { jobs, baseUrl, configuration, outboundLoopback, digilocker };
  const status: CheckStatus = Object.values(checks).some((c) => c.status === 'degraded') ? 'degraded' : 'ok';
  return { status, checkedAt: now.toISOString(), jobs: { stalled }, checks };
}
