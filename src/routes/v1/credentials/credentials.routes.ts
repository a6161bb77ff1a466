import { z } from '@hono/zod-openapi';
import { defineRoute } from '../../../http/route';
import { apiKeyAuth } from '../../../http/route-auth';
import { json } from '../../../lib/content';
import { errorResponses } from '../../../lib/problem';
import { presentedMediaType } from './credentials.handlers';
import { VerifyCredentialRequestSchema, VerifyCredentialResultSchema } from './credentials.schemas';

// A zod schema (not a plain OpenAPI one) so the route's input types stay inferred; only the JSON
// entry is validated as JSON, the image bytes are read by the handler.
const badgeBytes = (what: string) => ({
  schema: z.string().openapi({
    format: 'binary',
    description: `${what} The body limit (1 MiB) applies; an empty body is a 400 (\`empty-body\`).`,
  }),
});

/** The three ways to send a credential: JSON, or a baked badge's own bytes. */
export const VERIFY_REQUEST_BODY = {
  required: true as const,
  description:
    'The credential as JSON (`credential`: a VC-JWT or JSON credential as text; `badge`: a baked badge as base64; ' +
    '`url`: where to fetch either), ' +
    'or a baked badge as raw bytes with `Content-Type: image/png` or `image/svg+xml`.',
  content: {
    ...json(VerifyCredentialRequestSchema),
    'image/png': badgeBytes(
      'A baked PNG badge, as bytes: the credential is read from its `iTXt` chunk `openbadgecredential`.',
    ),
    'image/svg+xml': badgeBytes(
      'A baked SVG badge, as bytes (UTF-8): the credential is read from its `<openbadges:credential>` element.',
    ),
  },
};

/** How this route's refusals of a body read (beside the standard ones). */
const base = errorResponses(400, 413, 415);
export const VERIFY_BODY_ERRORS = {
  400: {
    ...base[400],
    description: 'Malformed JSON, or an empty `image/png` / `image/svg+xml` body (`empty-body`).',
  },
  413: { ...base[413], description: 'Request body over 1 MiB.' },
  422: {
    ...errorResponses(422)[422],
    description:
      'Not exactly one of `credential`, `badge` and `url`, or a body the schema refuses (`validation-failed`); a ' +
      '`url` the outside-fetch rules refuse (`credential-url-refused`) or that gave no answer to read: timeout, ' +
      'over 1 MiB, a redirect to another host, a status other than 200 (`credential-url-unreachable`).',
  },
  415: {
    ...base[415],
    description: 'A `Content-Type` other than `application/json`, `image/png` or `image/svg+xml`.',
  },
};

export const VERIFY_DESCRIPTION =
  'Checks an Open Badges 3.0 credential from any issuer, in the 1EdTech validator’s order: parse (a compact VC-JWT ' +
  'with or without a `vc` claim, a JSON credential, or a baked PNG/SVG badge); `@context` and `type`; the 1EdTech ' +
  'AchievementCredential JSON Schema; the signature (RS256, ES256 or EdDSA) with the key the `kid` URL answers on ' +
  'the issuer’s own origin, or a did:web / did:key issuer’s key (refused: `alg` none, HMAC, embedded `jwk`, `jku`, ' +
  '`x5u`, `x5c`, `crit`); the JWT claims; `nbf`/`exp` and `validFrom`/`validUntil`; the Bitstring Status List ' +
  '(fetched, its signature checked, the bit read); the issuer’s Profile (a failure to fetch it is a warning). ' +
  'Outside fetches follow the webhook address rules (https, public addresses after DNS), at most 6 per ' +
  'verification, 3 s and 256 KiB each, no redirect to another host; keys and status lists are cached for the ' +
  'lifetime their answers state. Send the credential as JSON, or a baked badge’s bytes as `image/png` or ' +
  '`image/svg+xml` (bytes that are not the declared image get a failed `parse` check), or name it by `url` (fetched ' +
  'under the same rules, from the same budget; the answer’s `fetched` says what came back). Always 200 with a ' +
  'verdict: a credential that fails is an answer, not an error (a `url` that cannot be fetched is a 422).';

const auth = apiKeyAuth('credentials:verify');

export const verifyCredentialV1 = defineRoute({
  method: 'post',
  path: '/api/v1/credentials/verify',
  operationId: 'verifyCredential',
  tags: ['Certificates'],
  summary: 'Verify any issuer’s Open Badges 3.0 credential',
  description: VERIFY_DESCRIPTION,
  ...auth,
  middleware: [auth.middleware, presentedMediaType],
  request: { body: VERIFY_REQUEST_BODY },
  responses: {
    200: { description: 'The verdict and every check.', content: json(VerifyCredentialResultSchema) },
    ...VERIFY_BODY_ERRORS,
  },
});
