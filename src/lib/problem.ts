/**
 * RFC 9457 problem details: the one error shape of this API. Every non-2xx response is
 * `application/problem+json` built here, and every operation documents its errors with
 * `errorResponses(...)` so the OpenAPI document lists them against one `ProblemDetails` schema.
 */
import { z } from '@hono/zod-openapi';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** The catalogue of problem types. `type` URIs are relative to the API base and documented at `/problems/{slug}`. */
export const PROBLEM_TYPES = {
  'malformed-json': {
    status: 400,
    title: 'Malformed JSON',
    description: 'The request body is not valid JSON.',
  },
  'empty-body': {
    status: 400,
    title: 'Empty body',
    description: 'The route needs a request body (e.g. the bytes of an image) and none was sent.',
  },
  'invalid-encoding': {
    status: 400,
    title: 'Invalid encoding',
    description:
      'The request body is not valid UTF-8 (RFC 8259 §8.1: JSON exchanged between systems is UTF-8). Bytes that do not decode are refused, never replaced by U+FFFD; send the text encoded as UTF-8.',
  },
  'malformed-xml': {
    status: 400,
    title: 'Malformed XML',
    description:
      "The body is not the XML message the route takes (DigiLocker's issuer API): not well-formed, a DOCTYPE or entity declaration, over the size or nesting limits, or a required element or attribute missing.",
  },
  'invalid-parameters': {
    status: 400,
    title: 'Invalid parameters',
    description: 'A path, query or header parameter is missing or out of range; `errors` points at each.',
  },
  unauthenticated: {
    status: 401,
    title: 'Authentication required',
    description:
      'No valid session cookie or API key was presented (missing, unknown, revoked, expired, or an old secret past its grace period).',
  },
  forbidden: {
    status: 403,
    title: 'Forbidden',
    description: 'The caller is authenticated but not allowed to do this (role, scope or origin).',
  },
  'guardian-consent-required': {
    status: 403,
    title: 'Guardian consent required',
    description:
      "The account is a child's (under 18, DPDP Act 2023 §9) and this needs the verifiable consent of their parent or lawful guardian, which has not been given: until a guardian approves the request (`GET /api/me/guardian`), the account can only read its profile and guardian status, name another guardian, log out or ask for its erasure. After approval, a child's consents are given by the guardian.",
  },
  'recent-sign-in-required': {
    status: 403,
    title: 'Recent sign-in required',
    description:
      'This cannot be undone (erasing the account, changing its email address), so it needs a session signed in within the last 15 minutes: sign in again (`POST /api/auth/login`) and repeat the request. A stolen or forgotten session cannot erase or take over an account.',
  },
  'guardian-not-eligible': {
    status: 403,
    title: 'Not eligible as a guardian',
    description:
      'Only an adult whose own account records a date of birth at least 18 years ago can give consent for a child (DPDP Rules 2025, Rule 10(1)(a)).',
  },
  'email-unconfirmed': {
    status: 403,
    title: 'Email address not confirmed',
    description:
      "The account's email address has not been confirmed, and this acts for someone else or changes who the account is (approving a guardian request, joining an organisation, proving a domain, changing the email address). Open the link sent at signup, or ask for a new one with `POST /api/me/email-confirmation`.",
  },
  'organisation-suspended': {
    status: 403,
    title: 'Organisation suspended',
    description:
      'The platform has suspended this organisation: it cannot rename itself or register or change webhooks until an admin reviews it again. Contact the platform.',
  },
  'not-found': {
    status: 404,
    title: 'Not found',
    description: 'No such resource, or one the caller may not see (existence is not disclosed).',
  },
  'method-not-allowed': {
    status: 405,
    title: 'Method not allowed',
    description: 'The path exists but not with this method; `Allow` lists the methods it has.',
  },
  conflict: { status: 409, title: 'Conflict', description: 'The request conflicts with the current state.' },
  'idempotency-key-in-use': {
    status: 409,
    title: 'Idempotency key in use',
    description:
      'A request with this `Idempotency-Key` is still being processed. Retry later with the same key to get its response.',
  },
  'idempotency-key-mismatch': {
    status: 422,
    title: 'Idempotency key reused',
    description:
      'This `Idempotency-Key` was already used (within 24 hours) for a different request: another method, path or body. Use a new key for a new request.',
  },
  'certificate-revoked': {
    status: 410,
    title: 'Certificate revoked',
    description:
      'The certificate was revoked, so the platform no longer hands out its badge: copies made before still carry ' +
      'the credential, and verifiers learn of the revocation from its status.',
  },
  'payload-too-large': {
    status: 413,
    title: 'Payload too large',
    description: 'The request body is over the limit for this route.',
  },
  'unsupported-media-type': {
    status: 415,
    title: 'Unsupported media type',
    description:
      'Request bodies must be `application/json`, unless the route documents other types (the credential verifier ' +
      'also takes `image/png` and `image/svg+xml`).',
  },
  'validation-failed': {
    status: 422,
    title: 'Validation failed',
    description: 'The body is JSON but does not match the schema; `errors` points at each field.',
  },
  'quota-exceeded': {
    status: 429,
    title: 'Too many requests',
    description: 'A rate limit was reached; `Retry-After` says when to try again.',
  },
  'submission-limit-reached': {
    status: 429,
    title: 'Submission limit reached',
    description:
      "A submission limit was reached: resubmissions of one milestone, submissions per day, or the account's storage quota. `detail` names the limit; `Retry-After` is set when waiting helps.",
  },
  'not-configured': {
    status: 503,
    title: 'Not configured',
    description:
      'A setting this operation needs is missing or invalid on the server; nothing was changed. `GET /api/health` names it.',
  },
  'upstream-unavailable': {
    status: 503,
    title: 'Upstream unavailable',
    description:
      'A service this operation depends on (such as the DNS resolver) did not answer; nothing was changed.',
  },
  'send-state-invalid': {
    status: 400,
    title: 'Send to host: state invalid',
    description:
      'The host sent the browser back with a `state` that is unknown, expired (a send must finish within 10 minutes), ' +
      'already used, or started in another browser. Nothing was sent: start again with ' +
      '`POST /api/me/certificates/{certificateNo}/send-to-host`.',
  },
  'host-address-refused': {
    status: 422,
    title: 'Host address refused',
    description:
      'The host URL (or an address its name resolves to) is not one this service may contact: https only (plain http ' +
      'to loopback only in a local deployment), no private, loopback, link-local or reserved addresses. Nothing was sent.',
  },
  'host-access-denied': {
    status: 403,
    title: 'Denied at the host',
    description:
      'You (or the host) declined the authorization at the host (`error=access_denied`). Nothing was sent.',
  },
  'host-discovery-failed': {
    status: 502,
    title: 'Host has no usable Open Badges API',
    description:
      'The host did not answer `GET /ims/ob/v3p0/discovery` with a Service Description Document naming an OAuth 2.0 ' +
      'authorization code flow, a registration URL and the credential upsert scope (or did not answer in time, or ' +
      'answered too much), or its document names a registration, authorization, token or API URL on another origin ' +
      'than its own (one host cannot direct this service to another). Nothing was sent.',
  },
  'host-registration-refused': {
    status: 502,
    title: 'Host refused the registration',
    description:
      'The host refused this service’s dynamic client registration (RFC 7591), or answered it wrongly. Nothing was sent.',
  },
  'host-token-failed': {
    status: 502,
    title: 'Host token exchange failed',
    description:
      'The host answered the authorization with an error, or refused to exchange its authorization code for an ' +
      'access token (or answered wrongly). Nothing was sent: start again.',
  },
  'host-upsert-refused': {
    status: 502,
    title: 'Host refused the credential',
    description:
      'The host did not accept `POST /ims/ob/v3p0/credentials` with the credential (its answer is quoted in ' +
      '`detail`). Nothing was stored here; the host says whether it kept anything.',
  },
  'credential-url-refused': {
    status: 422,
    title: 'Credential URL refused',
    description:
      'The `url` to verify is not one this service fetches: https only (plain http to loopback only in a local ' +
      'deployment), no user name or password in it, and a host that resolves (through DNS-over-HTTPS) only to public ' +
      'addresses (no private, loopback, link-local or reserved ones); `detail` says which rule, or that the name did ' +
      'not resolve. Nothing was fetched and nothing verified.',
  },
  'credential-url-unreachable': {
    status: 422,
    title: 'Credential URL gave no credential',
    description:
      'The `url` to verify was fetched but gave nothing to read: no answer within 3 seconds, an answer over 1 MiB, a ' +
      'redirect to another host, a status other than 200, or the host could not be reached (`detail` says which). ' +
      'Nothing was verified; fetch the badge yourself and send it as bytes if it is served only that way.',
  },
  'internal-error': {
    status: 500,
    title: 'Internal error',
    description: 'Something failed on our side. Quote the `requestId` when reporting it.',
  },
} as const satisfies Record<string, { status: ContentfulStatusCode; title: string; description: string }>;

export type ProblemType = keyof typeof PROBLEM_TYPES;

export const problemTypeUri = (type: ProblemType) => `/problems/${type}`;

export const FieldErrorSchema = z
  .object({
    pointer: z.string().openapi({
      description: 'JSON Pointer (RFC 6901) fragment: `#/field` in the body, `#/query/name` for parameters.',
      example: '#/successCriteria',
    }),
    detail: z.string().openapi({ example: 'Required' }),
  })
  .openapi('FieldError');

export const ProblemDetailsSchema = z
  .object({
    type: z.string().openapi({ example: '/problems/validation-failed' }),
    title: z.string().openapi({ example: 'Validation failed' }),
    status: z.number().int().openapi({ example: 422 }),
    detail: z.string().openapi({ example: 'The request body does not match the schema.' }),
    instance: z.string().optional().openapi({ description: 'The request path.' }),
    requestId: z.string().optional().openapi({ description: 'Correlates with server logs.' }),
    errors: z.array(FieldErrorSchema).optional(),
  })
  .openapi('ProblemDetails', { description: 'RFC 9457 problem details.' });

export type FieldError = z.infer<typeof FieldErrorSchema>;
export type ProblemBody = z.infer<typeof ProblemDetailsSchema>;

/**
 * The challenge of a 401 on a partner route (RFC 9110 §11.6.1 wants one on every 401). `ApiKey`
 * is no registered scheme; the parameters say where the key goes.
 */
export const API_KEY_CHALLENGE = 'ApiKey realm="api", header="X-Service-Key"';

/**
 * The challenge of every other 401: sign in at `form-action` to get the `session` cookie.
 * `Cookie` is no registered scheme either; the parameters follow draft-broyer-http-cookie-auth.
 * A `ProblemError` of type `unauthenticated` carries it unless it names another.
 */
export const SESSION_CHALLENGE =
  'Cookie realm="session", form-action="/api/auth/login", cookie-name="session"';

/** Thrown anywhere in a request; the app's error handler turns it into the response. */
export class ProblemError extends Error {
  readonly type: ProblemType;
  readonly status: ContentfulStatusCode;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string>;

  constructor(
    type: ProblemType,
    detail?: string,
    options: { errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(detail ?? PROBLEM_TYPES[type].description);
    this.type = type;
    this.status = PROBLEM_TYPES[type].status;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
    if (type === 'unauthenticated' && !('WWW-Authenticate' in this.headers))
      this.headers = { ...this.headers, 'WWW-Authenticate': SESSION_CHALLENGE };
  }
}

export function problemBody(
  type: ProblemType,
  detail: string,
  extra: { instance?: string; requestId?: string; errors?: FieldError[] } = {},
): ProblemBody {
  const { status, title } = PROBLEM_TYPES[type];
  return { type: problemTypeUri(type), title, status, detail, ...extra };
}

export function problemResponse(body: ProblemBody, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status: body.status,
    headers: { 'content-type': PROBLEM_CONTENT_TYPE, ...headers },
  });
}

/**
 * Every error status this API answers with: how the OpenAPI document describes it, and which
 * problem type a bare `HTTPException` of that status (thrown by Hono's own middleware, e.g. the
 * JSON parser or the body limit) becomes.
 */
export const ERROR_STATUSES = {
  400: { description: 'Malformed JSON or invalid parameters', type: 'malformed-json' },
  401: { description: 'Missing, unknown or expired credentials', type: 'unauthenticated' },
  403: { description: 'Not allowed for this caller', type: 'forbidden' },
  404: { description: 'Not found (or not visible to the caller)', type: 'not-found' },
  405: { description: 'Method not allowed on this path', type: 'method-not-allowed' },
  409: { description: 'Conflict with the current state', type: 'conflict' },
  410: { description: 'Gone: withdrawn (e.g. a revoked certificate)', type: 'certificate-revoked' },
  413: { description: 'Request body over the limit', type: 'payload-too-large' },
  415: { description: 'Request body is not JSON', type: 'unsupported-media-type' },
  422: { description: 'Body does not match the schema', type: 'validation-failed' },
  429: { description: 'Rate limit exceeded', type: 'quota-exceeded' },
  500: { description: 'Internal error (no internals disclosed)', type: 'internal-error' },
  502: {
    description:
      'The holder’s host refused or broke the protocol (the problem type says at which step); nothing was changed',
    type: 'host-upsert-refused',
  },
  503: {
    description: 'Not configured, or a dependency is unavailable; nothing was changed',
    type: 'not-configured',
  },
} as const satisfies Record<number, { description: string; type: ProblemType }>;

export type ErrorStatus = keyof typeof ERROR_STATUSES;

export type HeaderDoc = { description: string; schema: { type: 'string' | 'integer'; enum?: string[] } };

/** The draft-ietf-httpapi-ratelimit-headers-11 pair, on every response of a rate-limited route. */
export const RATE_LIMIT_HEADERS: Record<string, HeaderDoc> = {
  'RateLimit-Policy': {
    description: 'The quota policy, e.g. `"apikey";q=600;w=60` (600 requests per 60-second sliding window).',
    schema: { type: 'string' },
  },
  RateLimit: {
    description:
      'What is left, e.g. `"apikey";r=12;t=41`: 12 requests remaining, and one more made available in 41 s, ' +
      'when the oldest counted request leaves the sliding window (0 only when nothing is counted; on a 429 the ' +
      'same as `Retry-After`). On the public per-IP limit (`"ip"`) an answer with r of 10 or more may come from the ' +
      "answering server's own count: your requests it served plus those counted globally as of at most about a " +
      "second ago; below 10, and on every 429, the figures are the global count's own.",
    schema: { type: 'string' },
  },
  'Server-Timing': {
    description:
      'The limiter\'s own cost, e.g. `ratelimit;dur=1.00` (milliseconds); with `desc="known full"` when the key was already known to be over its limit and the counter was not asked, and `desc="admitted in isolate"` when a public per-IP request far from its limit was counted by the answering server and reported to the global count afterwards.',
    schema: { type: 'string' },
  },
};

const QUOTA_HEADERS: Record<string, HeaderDoc> = {
  ...RATE_LIMIT_HEADERS,
  'Retry-After': {
    description: 'Seconds until a request will be accepted again.',
    schema: { type: 'integer' },
  },
};

type ErrorResponse = {
  description: string;
  headers?: Record<string, HeaderDoc>;
  content: Record<string, { schema: typeof ProblemDetailsSchema }>;
};

/** OpenAPI `responses` entries for the given error statuses (and 500), all with the ProblemDetails schema. */
export function errorResponses<S extends ErrorStatus>(...statuses: S[]) {
  const out = {} as Record<S | 500, ErrorResponse>;
  for (const status of [...new Set<S | 500>([...statuses, 500])]) {
    out[status] = {
      description: ERROR_STATUSES[status].description,
      ...(status === 429 ? { headers: QUOTA_HEADERS } : {}),
      content: { [PROBLEM_CONTENT_TYPE]: { schema: ProblemDetailsSchema } },
    };
  }
  return out;
}
