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
 *   the text, so no personal data reaches the logs.
 */
export type MailMessage = { to: string; subject: string; text: string };

export async function sendMail(
  env: { MAIL_WEBHOOK_URL?: string },
  message: MailMessage,
): Promise<'webhook' | 'log'> {
  const url = env.MAIL_WEBHOOK_URL?.trim();
  if (!url) {
    console.log(JSON.stringify({ level: 'info', msg: 'mail (log transport)', subject: message.subject }));
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
