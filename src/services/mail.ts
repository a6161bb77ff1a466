/**
 * Outgoing email. Messages are written to the outbox as `email` jobs (src/services/jobs/kinds.ts,
 * one per notice and person) in the batch of the change that owes them, and this transport
 * delivers them:
 *
 * - with `MAIL_WEBHOOK_URL` set: an HTTP POST of `{ to, subject, text }` (JSON) to that URL, the
 *   shape most providers' send APIs (or a small relay Worker in front of them) accept; a
 *   non-2xx answer throws, so the job system retries with backoff and stalls it after a day.
 *   A provider needing a key gets it as a secret the relay holds (docs/data-rights.md → Email).
 * - without it (dev, tests): the log transport, which writes one log line without the address or
 *   the text, so no personal data reaches the logs. A message carrying a secret link (an email
 *   confirmation) has it logged only when `PUBLIC_BASE_URL` is a loopback address (`npm run dev`
 *   prints it, so a local signup can be confirmed); a deployment never logs a token.
 */
import { log } from '../lib/log';

export type MailMessage = { to: string; subject: string; text: string };

/** `PUBLIC_BASE_URL` on this machine only: localhost, 127.0.0.0/8 or [::1]. */
export function isLoopbackBase(base: string | undefined): boolean {
  try {
    const host = new URL(base ?? '').hostname;
    return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}

export async function sendMail(
  env: { MAIL_WEBHOOK_URL?: string; PUBLIC_BASE_URL?: string },
  message: MailMessage,
  /** A secret link in the text: shown by the log transport on a local base URL only. */
  secret: { link?: string } = {},
): Promise<'webhook' | 'log'> {
  const url = env.MAIL_WEBHOOK_URL?.trim();
  if (!url) {
    const local = secret.link !== undefined && isLoopbackBase(env.PUBLIC_BASE_URL);
    // At info, the level `npm run dev` logs at: where a local developer reads the link.
    log('info', 'mail (log transport)', {
      subject: message.subject,
      ...(local ? { link: secret.link } : {}),
    });
    return 'log';
  }
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(message),
  });
  if (!res.ok) throw new Error(`mail webhook answered ${res.status}`);
  return 'webhook';
}
