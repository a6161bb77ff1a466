import { z } from '@hono/zod-openapi';
import { defineRoute } from '../../http/route';
import { sessionAuth } from '../../http/route-auth';
import { json } from '../../lib/content';
import { GZIP_DESCRIPTION, GZIP_RESPONSE_HEADERS } from '../../lib/content-coding';
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
    `The holder’s name appears only while they consent to public verification. ${GZIP_DESCRIPTION}`,
  security: [],
  request: { params: CertificateNoParams },
  responses: {
    200: {
      description: 'The certificate and its signed credential.',
      headers: {
        ETag: { schema: { type: 'string' } },
        'Cache-Control': { schema: { type: 'string' } },
        ...GZIP_RESPONSE_HEADERS,
      },
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
  responses: {
    200: {
      description: `The JWK set. ${GZIP_DESCRIPTION}`,
      headers: GZIP_RESPONSE_HEADERS,
      content: json(JwksSchema),
    },
  },
});

export const revokeCertificate = defineRoute({
  method: 'post',
  path: '/api/certificates/{certificateNo}/revoke',
  operationId: 'revokeCertificate',
  idempotent: true,
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

const BADGE_HEADERS = {
  'Cache-Control': { description: '`public, max-age=300`.', schema: { type: 'string' as const } },
  'Content-Disposition': {
    description: '`inline; filename="<number>.svg"` (or `.png`).',
    schema: { type: 'string' as const },
  },
};

const badgeDescription = (format: string) =>
  'Public. The certificate as an Open Badges 3.0 baked badge: the image carries the signed credential (the ' +
  `VC-JWT exactly as stored and as \`GET /api/verify/{certificateNo}\` returns it) ${format}, so any OB 3.0 ` +
  'verifier or backpack can extract and check it. The image names the achievement, organisation and number, ' +
  'never the holder. 404 for an unknown number or a certificate not issued yet (`pending_issuer`: nothing is ' +
  'signed); 410 for a revoked one. CORS open.';

export const getBadgeSvg = defineRoute({
  method: 'get',
  path: '/api/certificates/{certificateNo}/badge.svg',
  operationId: 'getCertificateBadgeSvg',
  tags: ['Certificates'],
  summary: 'Baked badge (SVG) with the signed credential',
  description: badgeDescription(
    'in an `<openbadges:credential verify="…">` element (namespace `https://purl.imsglobal.org/ob/v3p0`)',
  ),
  security: [],
  request: { params: CertificateNoParams },
  errors: [410],
  responses: {
    200: {
      description: 'The SVG badge.',
      headers: BADGE_HEADERS,
      content: { 'image/svg+xml': { schema: z.string() } },
    },
  },
});

export const getBadgePng = defineRoute({
  method: 'get',
  path: '/api/certificates/{certificateNo}/badge.png',
  operationId: 'getCertificateBadgePng',
  tags: ['Certificates'],
  summary: 'Baked badge (PNG) with the signed credential',
  description: badgeDescription('in an uncompressed `iTXt` chunk with keyword `openbadgecredential`'),
  security: [],
  request: { params: CertificateNoParams },
  errors: [410],
  responses: {
    200: {
      description: 'The PNG badge.',
      headers: BADGE_HEADERS,
      content: { 'image/png': { schema: z.string().openapi({ format: 'binary' }) } },
    },
  },
});
