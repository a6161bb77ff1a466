import { z } from '@hono/zod-openapi';
import { ORGANISATION_VERIFICATION } from '../../db/schema';
import { organisationName } from '../../http/organisation-name';

export const UpdateMeSchema = z
  .object({
    publicAlias: z.string().trim().min(2).max(40).nullable().openapi({
      description: 'The name shown on the public leaderboard; null to use the display name.',
      example: 'ravi.builds',
    }),
  })
  .strict()
  .openapi('UpdateProfileRequest');

export const OrganisationSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    websiteUrl: z.string().nullable().openapi({
      description:
        'The website the organisation gave. Published in its Profile and credentials (`issuer.url`) only when it is on the domain it proved by DNS (`websitePublished`); otherwise it stays private.',
    }),
    websitePublished: z.boolean().openapi({
      description:
        '`websiteUrl` is on the verified domain (or a subdomain), so the Profile and credentials carry it.',
    }),
    domains: z.array(z.string()),
    verification: z.enum(ORGANISATION_VERIFICATION).openapi({
      description:
        '`unverified` → `pending` (a DNS proof started) → `verified` (DNS proof or admin review), or `rejected`; ' +
        '`suspended` by an admin. Only a verified organisation issues publicly valid certificates.',
    }),
    verifiedAt: z.string().datetime().nullable(),
    pendingName: z.string().nullable().openapi({
      description:
        "A verified organisation's new name awaiting the platform's review: until it is approved the organisation and its certificates keep `name`. Giving `name` back withdraws it.",
    }),
    pendingNameAt: z.string().datetime().nullable(),
  })
  .openapi('Organisation');

export const UpdateOrganisationSchema = z
  .object({
    name: organisationName(200).optional(),
    websiteUrl: z
      .url({ protocol: /^https?$/ })
      .max(500)
      .nullable()
      .optional(),
  })
  .strict()
  .openapi('UpdateOrganisationRequest');

export const InvitationRequestSchema = z
  .object({ email: z.email().max(254).openapi({ example: 'second.recruiter@acme.example' }) })
  .strict()
  .openapi('InvitationRequest');

export const InvitationSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    code: z.string().openapi({
      description:
        'Shown once. The invitee signs up as an employer with this `invitationCode` and this email.',
    }),
    expiresAt: z.string().datetime(),
  })
  .openapi('Invitation');

export const DomainRequestSchema = z
  .object({ domain: z.string().trim().min(3).max(253).openapi({ example: 'acme.example' }) })
  .strict()
  .openapi('DomainVerificationRequest');

export const DnsChallengeSchema = z
  .object({
    organisation: OrganisationSchema,
    challenge: z.object({
      domain: z.string(),
      recordName: z.string().openapi({ example: '_vp-verification.acme.example' }),
      recordType: z.literal('TXT'),
      recordValue: z.string().openapi({ example: 'vp-verification=3fQ9xKp2…' }),
    }),
  })
  .openapi('DnsChallenge');

export const DnsCheckSchema = z
  .object({
    organisation: OrganisationSchema,
    check: z.object({
      domain: z.string(),
      recordName: z.string(),
      expected: z.string(),
      found: z
        .array(z.string())
        .openapi({ description: 'The TXT values the resolver returned at `recordName`.' }),
      matched: z.boolean(),
    }),
    newlyVerified: z.boolean().openapi({
      description:
        'True when this check verified the organisation. False when the record did not match, when the ' +
        'organisation was verified already (by an earlier or a simultaneous check, or by an admin: then a ' +
        'matching record is recorded as its DNS proof), or when it is suspended or rejected.',
    }),
    issuedCertificates: z
      .array(z.string())
      .openapi({ description: 'Numbers of the certificates that were waiting and are now issued.' }),
  })
  .openapi('DnsCheck');

export const OrganisationReviewSchema = z
  .object({
    verification: z.enum(['verified', 'rejected', 'suspended']),
    reason: z.string().trim().min(3).max(1000).openapi({ example: 'Registration documents checked' }),
    name: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .openapi({
        description:
          'The name the admin reviewed. When given and the organisation has been renamed since, the answer is a 409 ' +
          'naming its current name, and nothing changes. The name the decision was taken on is audited either way.',
        example: 'Acme Hiring Pvt Ltd',
      }),
  })
  .strict()
  .openapi('OrganisationReview');
