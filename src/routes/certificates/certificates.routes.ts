import { json } from '../../lib/content';
import { defineRoute } from '../../lib/route';
import { sessionAuth } from '../../lib/route-auth';
import {
  CertificateNoParams,
  CertificateSchema,
  JwksSchema,
  RevokeSchema,
  VerificationSchema,
} from './certificates.schemas';

export const verifyCertificate = defineRoute({
  method: 'get',
  path: '/api/verify/{certificateNo}',
  operationId: 'verifyCertificate',
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
  },
});

export const getJwks = defineRoute({
  method: 'get',
  path: '/.well-known/jwks.json',
  operationId: 'getJwks',
  tags: ['Certificates'],
  summary: 'Public keys that sign certificates',
  description:
    'Public keys (JWK) by `kid`: the current ES256 (P-256) key and retired ones (Ed25519 keys of credentials issued ' +
    'before ES256), so every issued credential verifies. Each is also at its own `kid` URL (`/ob/keys/{thumbprint}`).',
  security: [],
  // A missing or unusable CERT_SIGNING_KEY / CERT_PREVIOUS_PUBLIC_KEYS (named by GET /api/health).
  errors: [503],
  responses: { 200: { description: 'The JWK set.', content: json(JwksSchema) } },
});

export const revokeCertificate = defineRoute({
  method: 'post',
  path: '/api/certificates/{certificateNo}/revoke',
  operationId: 'revokeCertificate',
  tags: ['Certificates'],
  summary: 'Revoke a certificate',
  description:
    'Admins, or the employer whose brief issued it (for anyone else: 404). Takes effect on verification at once.',
  ...sessionAuth('admin', 'employer'),
  request: { params: CertificateNoParams, body: { required: true, content: json(RevokeSchema) } },
  errors: [409],
  responses: {
    200: { description: 'The revoked certificate.', content: json(CertificateSchema) },
  },
});

/** Where the public keys that sign certificates are published (the verify page links it). */
export const JWKS_PATH = getJwks.path;
