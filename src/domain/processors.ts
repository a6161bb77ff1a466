/**
 * The Data Processors that process personal data on the platform's behalf (DPDP Act 2023
 * §8(2), §11(1)(b)). Listed in every access export (`recipients.json`). Keep in step with
 * wrangler.toml's bindings: a new binding to an outside service is a new row here.
 */
export const DATA_PROCESSORS = [
  {
    name: 'Cloudflare, Inc.',
    role: 'Data Processor',
    services:
      'Workers (hosting and running this service), D1 (database), KV (cache), Queues (deferred jobs), R2 (stored files)',
    data: 'Every record in this export: account, consents, sessions, submissions, evaluations, ratings, certificates.',
    since: 'From when your account was created.',
  },
  {
    name: 'Cloudflare, Inc. (Workers AI)',
    role: 'Data Processor',
    services: 'Workers AI (the model that evaluates submissions and estimates AI-written text)',
    data: 'The text and files of submissions you made while consenting to ai_evaluation, and the brief’s rubric.',
    since: 'For each submission evaluated, at its evaluation.',
  },
] as const;
