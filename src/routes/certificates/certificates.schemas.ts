import { z } from '@hono/zod-openapi';
import { pageSchema } from '../../lib/paging';

export const CertificateNoParams = z.object({
  certificateNo: z
    .string()
    .max(64)
    .openapi({
      param: { name: 'certificateNo', in: 'path' },
      description: '`VP-XXXX-XXXX-XXXX` (Crockford base32; the last symbol is a check character).',
      example: 'VP-7K3M-Q9TD-2XWV',
    }),
});

export const VerificationSchema = z
  .object({
    certificateNo: z.string(),
    status: z.enum(['active', 'revoked']),
    brief: z.object({ id: z.string(), title: z.string() }),
    domain: z.string(),
    employer: z.object({ name: z.string() }),
    issuedAt: z.string().datetime(),
    revokedAt: z.string().datetime().nullable(),
    holder: z
      .object({ name: z.string() })
      .nullable()
      .openapi({ description: "The holder's name, only while they consent to public verification." }),
    credential: z.object({ format: z.literal('vc-jwt'), jwt: z.string() }).openapi({
      description:
        'The signed Open Badges 3.0 AchievementCredential (VC-JWT, EdDSA); verify it against `jwksUrl`.',
    }),
    jwksUrl: z.string().url(),
  })
  .openapi('CertificateVerification');

export const JwksSchema = z
  .object({
    keys: z.array(
      z.object({
        kty: z.string(),
        crv: z.string(),
        x: z.string(),
        kid: z.string(),
        use: z.string(),
        alg: z.string(),
      }),
    ),
  })
  .openapi('Jwks');

export const CertificateSchema = z
  .object({
    certificateNo: z.string(),
    status: z.enum(['active', 'revoked']),
    brief: z.object({ id: z.string(), title: z.string() }),
    domain: z.string(),
    issuedAt: z.string().datetime(),
    revokedAt: z.string().datetime().nullable(),
    credential: z.object({ format: z.literal('vc-jwt'), jwt: z.string() }),
    verifyUrl: z.string().url(),
  })
  .openapi('Certificate');

export const CertificateListSchema = pageSchema(CertificateSchema, 'CertificateList');

export const RevokeSchema = z
  .object({ reason: z.string().trim().min(3).max(1000).openapi({ example: 'Work found to be plagiarised' }) })
  .strict()
  .openapi('RevokeCertificateRequest');
