/**
 * The partner flow through the typed client. Run against a local server (`npm run dev`) with a key
 * that has the scopes `playbooks:generate` and `rubrics:generate` (README → "A partner's API key"):
 *   VP_BASE_URL=http://localhost:8787 VP_API_KEY=vpk_… npm run client:example
 * (Node 22.6 or later runs it directly: `node --experimental-strip-types clients/typescript/example.ts`.)
 */
import { createClient, verifyWebhook, type WebhookEvent, wasReplayed } from './src/index.ts';

declare const process: { env: Record<string, string | undefined> };

export async function main(baseUrl: string, apiKey: string): Promise<void> {
  const api = createClient({ baseUrl, apiKey });

  // Every POST gets an Idempotency-Key; set your own to retry safely after a network error.
  const retryKey = crypto.randomUUID();
  const brief = {
    title: 'Build a REST API for a task tracker',
    deliverables: ['A deployed REST API', 'A test suite'],
    successCriteria: ['All endpoints return RFC 9457 errors'],
    durationDays: 14,
    domain: 'web-development',
  };
  const first = await api.POST('/api/v1/playbooks/generate', {
    params: { header: { 'Idempotency-Key': retryKey } },
    body: brief,
  });
  if (first.error) throw new Error(`${first.error.title}: ${first.error.detail}`);
  console.log(`${first.data.milestones.length} milestones (engine: ${first.data.engine})`);
  const retry = await api.POST('/api/v1/playbooks/generate', {
    params: { header: { 'Idempotency-Key': retryKey } },
    body: brief,
  });
  console.log('retry replayed:', wasReplayed(retry.response));

  const rubric = await api.POST('/api/v1/rubrics/generate', {
    body: {
      brief: 'We need a REST API. It must return RFC 9457 errors. We expect tests for every endpoint.',
    },
  });
  if (rubric.data)
    console.log(`${rubric.data.criteria.length} criteria, pass at ${rubric.data.passThreshold}`);

  const usage = await api.GET('/api/v1/keys/self/usage');
  if (usage.data) console.log('usage over 90 days:', usage.data.totals);
}

/** A webhook receiver (any fetch-style server): verify, then act on the event by its type. */
export async function receive(request: Request, secrets: string[]): Promise<Response> {
  const payload = await request.text(); // the raw body: verification needs it byte for byte
  let event: WebhookEvent;
  try {
    event = verifyWebhook(secrets, payload, request.headers);
  } catch {
    return new Response('invalid signature', { status: 400 });
  }
  // Deduplicate on the `webhook-id` header in production: a retry carries the same one.
  switch (event.type) {
    case 'evaluation.completed':
      console.log(
        `evaluation ${event.data.evaluationId} of submission ${event.data.submissionId}: ${event.data.state}`,
      );
      break;
    case 'submission.rated':
      console.log(
        `submission ${event.data.submissionId} rated ${event.data.verdict} (${event.data.score}/5)`,
      );
      break;
    case 'certificate.issued':
    case 'certificate.revoked':
      console.log(`certificate ${event.data.certificateNo}: ${event.data.status} at ${event.data.at}`);
      break;
    case 'dsr.erasure.completed':
      // Erase these on your side: the person asked for their data to be erased.
      console.log(
        'erase',
        event.data.submissionIds,
        event.data.certificateIds,
        event.data.certificateNumbers,
      );
      break;
    case 'webhook.ping':
      console.log(`ping for endpoint ${event.data.endpointId}`);
      break;
    default:
      // A type newer than this client: acknowledge it, so it is not retried.
      break;
  }
  return new Response(null, { status: 204 }); // answer fast (within 10 s); do slow work after
}

const { VP_BASE_URL, VP_API_KEY } = process.env;
if (VP_BASE_URL && VP_API_KEY) await main(VP_BASE_URL, VP_API_KEY);
