import { getDb } from './db/client';
import { refreshPublicAgreement } from './services/agreement-rate';
import { sweepExpiredSessions } from './services/sessions';

/** Cron trigger (every 15 minutes): keep the agreement window rolling and drop expired sessions. */
export async function runScheduled(env: Env, now = new Date()): Promise<void> {
  await Promise.all([refreshPublicAgreement(env, now), sweepExpiredSessions(getDb(env.DB), now)]);
}
