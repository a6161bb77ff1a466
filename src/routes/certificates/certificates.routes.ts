import { createRoute, z } from '@hono/zod-openapi';
import { json } from '../../lib/content';
import { cursorParam, limitParam } from '../../lib/paging';
import { errorResponses } from '../../lib/problem';
import { authErrors, limitedResponse, sessionAuth } from '../../lib/route-auth';
import {
  CertificateListSchema,
  CertificateNoParams,
  CertificateSchema,
  JwksSchema,
  RevokeSchema,
  VerificationSchema,
} from './certificates.schemas';

export const verifyCertificate = createRoute({
  method: 'get',
  path: '/api/verify/{certificateNo}',
  tags: ['Certificates'],
  summary: 'Verify a certificate by its number',
  description:
    'Public. A mistyped number (bad format or check character) is a 400 before any lookup; an unknown one is 404. ' +
    'The holder’s name appears only while they consent to public verification.',
  security: [],
  request: { params: CertificateNoParams },
  responses: {
    200: {
      description: 'The certificate and its signed credential.',
      headers: { ETag: { schema: { type: 'string' } }, 'Cache-Control': { schema: { type: 'string' } } },
      content: json(VerificationSchema),
    },
    304: { description: 'Not modified (matches `If-None-Match`).' },
    ...errorResponses(400, 404),
  },
});

export const getJwks = createRoute({
  method: 'get',
  path: '/.well-known/jwks.json',
  tags: ['Certificates'],
  summary: 'Public keys that sign certificates',
  description:
    'Ed25519 keys (JWK) by `kid`: the current key and retired ones, so every issued credential verifies.',
  security: [],
  responses: { 200: { description: 'The JWK set.', content: json(JwksSchema) }, ...errorResponses() },
});

export const myCertificates = createRoute({
  method: 'get',
  path: '/api/me/certificates',
  tags: ['Certificates'],
  summary: "The caller's certificates",
  ...sessionAuth(),
  request: { query: z.object({ limit: limitParam(50), cursor: cursorParam() }) },
  responses: {
    200: limitedResponse('Newest issued first, one page of `limit`.', json(CertificateListSchema)),
    ...authErrors(),
    ...errorResponses(400),
  },
});

export const revokeCertificate = createRoute({
  method: 'post',
  path: '/api/certificates/{certificateNo}/revoke',
  tags: ['Certificates'],
  summary: 'Revoke a certificate',
  description:
    'Admins, or the employer whose brief issued it (for anyone else: 404). Takes effect on verification at once.',
  ...sessionAuth('admin', 'employer'),
  request: { params: CertificateNoParams, body: { required: true, content: json(RevokeSchema) } },
  responses: {
    200: limitedResponse('The revoked certificate.', json(CertificateSchema)),
    ...authErrors(),
    ...errorResponses(400, 404, 409, 413, 415, 422),
  },
});
