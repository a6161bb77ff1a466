import { defineRoute } from '../../../http/route';
import { apiKeyAuth } from '../../../http/route-auth';
import { json } from '../../../lib/content';
import { VerifyCredentialRequestSchema, VerifyCredentialResultSchema } from './credentials.schemas';

export const VERIFY_DESCRIPTION =
  'Checks an Open Badges 3.0 credential from any issuer, in the 1EdTech validator’s order: parse (a compact VC-JWT ' +
  'with or without a `vc` claim, a JSON credential, or a baked PNG/SVG badge); `@context` and `type`; the 1EdTech ' +
  'AchievementCredential JSON Schema; the signature (RS256, ES256 or EdDSA) with the key the `kid` URL answers on ' +
  'the issuer’s own origin, or a did:web / did:key issuer’s key (refused: `alg` none, HMAC, embedded `jwk`, `jku`, ' +
  '`x5u`, `x5c`, `crit`); the JWT claims; `nbf`/`exp` and `validFrom`/`validUntil`; the Bitstring Status List ' +
  '(fetched, its signature checked, the bit read); the issuer’s Profile (a failure to fetch it is a warning). ' +
  'Outside fetches follow the webhook address rules (https, public addresses after DNS), at most 6 per ' +
  'verification, 3 s and 256 KiB each, no redirect to another host; keys and status lists are cached for the ' +
  'lifetime their answers state. Always 200 with a verdict: a credential that fails is an answer, not an error.';

export const verifyCredentialV1 = defineRoute({
  method: 'post',
  path: '/api/v1/credentials/verify',
  operationId: 'verifyCredential',
  tags: ['Certificates'],
  summary: 'Verify any issuer’s Open Badges 3.0 credential',
  description: VERIFY_DESCRIPTION,
  ...apiKeyAuth('credentials:verify'),
  request: { body: { required: true, content: json(VerifyCredentialRequestSchema) } },
  responses: {
    200: { description: 'The verdict and every check.', content: json(VerifyCredentialResultSchema) },
  },
});
