/**
 * @verification-platform/client: a typed client for the Verification Platform Core API.
 *
 * - Types are generated from `openapi.yaml` by openapi-typescript (`src/schema.d.ts`; regenerate with
 *   `npm run client:generate` at the repository root, CI fails when it drifts: `npm run client:check`).
 * - Requests go through openapi-fetch: every path, parameter, body and response is typed.
 * - Auth: a partner API key (`X-Service-Key`) or a session cookie (with the `Origin` the CSRF
 *   defence wants on cookie-authenticated writes).
 * - Every POST carries an `Idempotency-Key` (a random UUID unless the call sets its own), so a
 *   retry after a network error never runs the work twice.
 * - `verifyWebhook` checks a Standard Webhooks signature with the official `standardwebhooks` package
 *   and returns the event, typed `WebhookEvent` (a union on `type`, from the document's schemas).
 */
import createFetchClient, { type Client, type Middleware } from 'openapi-fetch';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { components, paths } from './schema';

export type { components, paths };
export type Schemas = components['schemas'];

/**
 * The body of a webhook delivery: `{type, timestamp, data}`, one member per event type. Switch on
 * `type` and `data` narrows to that event's (openapi.yaml: `WebhookEvent` and `x-webhooks`).
 */
export type WebhookEvent = Schemas['WebhookEvent'];
/** Every `type` a delivery can have: the subscribable event types and `webhook.ping`. */
export type WebhookEventName = WebhookEvent['type'];
/** The event of one type, e.g. `WebhookEventOf<'certificate.revoked'>`. */
export type WebhookEventOf<T extends WebhookEventName> = Extract<WebhookEvent, { type: T }>;
export type EvaluationCompletedEvent = Schemas['EvaluationCompletedEvent'];
export type SubmissionRatedEvent = Schemas['SubmissionRatedEvent'];
export type CertificateIssuedEvent = Schemas['CertificateIssuedEvent'];
export type CertificateRevokedEvent = Schemas['CertificateRevokedEvent'];
export type ErasureCompletedEvent = Schemas['ErasureCompletedEvent'];
export type WebhookPingEvent = Schemas['WebhookPingEvent'];

export type ClientOptions = {
  /** Where the API is, e.g. `https://api.example.com` (no trailing `/api`). */
  baseUrl: string;
  /** A partner API key (`vpk_…`), sent as `X-Service-Key`. */
  apiKey?: string;
  /** A session token (the `session` cookie's value), for employer, candidate and admin calls. */
  sessionCookie?: string;
  /** The `Origin` sent with cookie-authenticated requests; defaults to the origin of `baseUrl`. */
  origin?: string;
  /** A `fetch` of your own (tests, proxies, retries); the global one by default. */
  fetch?: (request: Request) => Promise<Response>;
  /** Makes the `Idempotency-Key` of a POST that did not set one; a random UUID by default. */
  idempotencyKey?: () => string;
};

export type VerificationPlatformClient = Client<paths>;

/** A client with auth and idempotency keys built in. */
export function createClient(options: ClientOptions): VerificationPlatformClient {
  const { baseUrl, apiKey, sessionCookie } = options;
  const origin = options.origin ?? new URL(baseUrl).origin;
  const newKey = options.idempotencyKey ?? (() => crypto.randomUUID());
  const client = createFetchClient<paths>({
    baseUrl,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const auth: Middleware = {
    onRequest({ request }) {
      if (apiKey) request.headers.set('X-Service-Key', apiKey);
      if (sessionCookie) {
        request.headers.set('Cookie', `session=${sessionCookie}`);
        request.headers.set('Origin', origin);
      }
      if (request.method === 'POST' && !request.headers.has('Idempotency-Key'))
        request.headers.set('Idempotency-Key', newKey());
      return request;
    },
  };
  client.use(auth);
  return client;
}

/** Whether a response is the stored response of an earlier request with the same idempotency key. */
export const wasReplayed = (response: Response) => response.headers.get('Idempotent-Replayed') === 'true';

/**
 * The request's headers: a fetch `Headers`, or a plain object such as Node's and Express's
 * `req.headers` (whose values may be arrays or undefined; the first value of an array is used).
 */
export type WebhookHeaders = Headers | Record<string, string | readonly string[] | undefined>;

/**
 * Verifies a Standard Webhooks delivery (`webhook-id`, `webhook-timestamp`, `webhook-signature`)
 * against the endpoint's `whsec_…` secret, and returns the parsed payload, typed as a
 * `WebhookEvent` (the body is not validated beyond its signature: a server newer than this client
 * may send a `type` it does not know, so keep a default branch). During a secret rotation pass
 * both secrets: either may have signed it. Throws `WebhookVerificationError` when no secret
 * matches or the timestamp is more than five minutes off.
 *
 * `payload` must be the raw request body, exactly as received (not re-serialised JSON).
 */
export function verifyWebhook<T = WebhookEvent>(
  secrets: string | readonly string[],
  payload: string,
  headers: WebhookHeaders,
): T {
  const plain: Record<string, string> = {};
  const entries = headers instanceof Headers ? headers.entries() : Object.entries(headers);
  for (const [name, value] of entries) {
    const first = typeof value === 'string' ? value : value?.[0];
    if (first !== undefined) plain[name.toLowerCase()] = first;
  }
  let last: unknown = new WebhookVerificationError('No secret given');
  for (const secret of typeof secrets === 'string' ? [secrets] : secrets) {
    try {
      return new Webhook(secret).verify(payload, plain) as T;
    } catch (err) {
      last = err;
    }
  }
  throw last;
}

export { WebhookVerificationError };
