import { refreshPublicAgreement } from './services/agreement-rate';

/** Cron trigger (every 15 minutes): keep the public agreement rate's window rolling. */
export async function runScheduled(env: Env, now = new Date()): Promise<void> {
  await refreshPublicAgreement(env, now);
}
