import { z } from '@hono/zod-openapi';
import { nullableRef } from '../../http/route';
import { pageSchema } from '../../lib/paging';
import { DigiLockerHolderSchema } from '../digilocker/digilocker.schemas';

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

const CredentialSchema = z.object({
  format: z.literal('vc-jwt'),
  jwt: z.string(),
  dataIntegrity: z
    .record(z.string(), z.unknown())
    .optional()
    .openapi({
      description:
        'The same Open Badges 3.0 credential secured the second way: an embedded `DataIntegrityProof` ' +
        "(cryptosuite `eddsa-rdfc-2022`) by the issuer's Ed25519 key, listed in the DID document of " +
        'its `issuer.id` (`did:web`). What Data Integrity wallets and verifiers (the DCC verifier) read. ' +
        'Absent for certificates signed before it existed, until they are re-signed.',
    }),
});

export const VerificationSchema = z
  .object({
    certificateNo: z.string(),
    status: z.enum(['active', 'revoked', 'pending_issuer', 'suspended', 'expired']).openapi({
      description:
        '`active`: issued by a verified organisation and valid. `pending_issuer`: earned, but the organisation is not ' +
        'verified yet, so not publicly valid (issued automatically on verification). `suspended`: the issuing ' +
        'organisation is suspended, or was rejected after it issued. `expired`: past its `validUntil` (the brief set a validity). `revoked`: ' +
        'withdrawn by the organisation or an admin.',
    }),
    valid: z.boolean().openapi({ description: 'True only when `status` is `active`.' }),
    brief: z.object({ id: z.string(), title: z.string() }),
    domain: z.string(),
    employer: z
      .object({ name: z.string() })
      .openapi({ description: 'The issuing organisation, by the name signed into the credential.' }),
    organisation: z
      .object({
        id: z.string(),
        name: z
          .string()
          .openapi({ description: 'Its name now; differs from `employer.name` after a rename.' }),
        verification: z.enum(['unverified', 'pending', 'verified', 'rejected', 'suspended']),
        verifiedDomain: z
          .string()
          .nullable()
          .optional()
          .openapi({
            description:
              'While the organisation is verified by a DNS proof: the domain it proved it controls (its name is its ' +
              'own claim, unique among verified organisations). Null when verified by an admin or not verified.',
            example: 'acme.example',
          }),
      })
      .nullable(),
    issuedAt: z.string().datetime(),
    validUntil: z.string().datetime().nullable().openapi({
      description: 'When it stops being valid (the brief’s `validForMonths`); null: it does not expire.',
    }),
    revokedAt: z.string().datetime().nullable(),
    holder: z
      .object({ name: z.string() })
      .nullable()
      .openapi({ description: "The holder's name, only while they consent to public verification." }),
    credential: CredentialSchema.nullable().openapi({
      description:
        'The signed Open Badges 3.0 AchievementCredential (VC-JWT, ES256; EdDSA for ones issued before). Its header `kid` ' +
        'is the URL of its public key (also in `jwksUrl`). Null while `pending_issuer`.',
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
        y: z.string().optional().openapi({ description: 'P-256 (ES256) keys only.' }),
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
    status: z.enum(['active', 'revoked', 'pending_issuer']).openapi({
      description: '`pending_issuer` until the organisation that rated the work is verified.',
    }),
    publicStatus: z.enum(['active', 'revoked', 'pending_issuer', 'suspended', 'expired']).openapi({
      description:
        'What `GET /api/verify/{certificateNo}` answers now: `suspended` while the issuing organisation is ' +
        'suspended (or no longer recognised) by the platform, `expired` once `validUntil` has passed.',
    }),
    valid: z.boolean().openapi({ description: 'True exactly when `publicStatus` is `active`.' }),
    brief: z.object({ id: z.string(), title: z.string() }),
    domain: z.string(),
    issuedAt: z.string().datetime(),
    validUntil: z.string().datetime().nullable().optional(),
    revokedAt: z.string().datetime().nullable(),
    credential: CredentialSchema.nullable(),
    verifyUrl: z.string().url().openapi({ description: 'The public verification page (HTML) to share.' }),
    linkedInAddToProfileUrl: z
      .string()
      .url()
      .nullable()
      .openapi({
        description:
          "LinkedIn's add-certification link (name, organisation, issue month, certificate number, and the " +
          'verification page as the credential URL). Null unless `publicStatus` is `active`.',
      }),
    digilocker: nullableRef(DigiLockerHolderSchema)
      .optional()
      .openapi({
        description:
          'In your own listing (`GET /api/me/certificates`): whether and how this certificate can be fetched into ' +
          'DigiLocker (the document type to look for, the number to enter); null when this server is not a ' +
          'DigiLocker issuer.',
      }),
  })
  .openapi('Certificate');

export const CertificateListSchema = pageSchema(CertificateSchema, 'CertificateList');

/** The holder's own listing: a page of certificates, and where their learner record is. */
export const MyCertificateListSchema = CertificateListSchema.extend({
  learnerRecord: z.string().openapi({
    description:
      'The URL of your learner record (`GET /api/me/learner-record`): one signed CLR 2.0 credential gathering your ' +
      'certificates that are neither revoked nor expired (404 there while you have none). On every page.',
    example: 'https://api.example.com/api/me/learner-record',
  }),
}).openapi('MyCertificateList');

export const RevokeSchema = z
  .object({ reason: z.string().trim().min(3).max(1000).openapi({ example: 'Work found to be plagiarised' }) })
  .strict()
  .openapi('RevokeCertificateRequest');
