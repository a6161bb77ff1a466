import { z } from '@hono/zod-openapi';
import { ORGANISATION_VERIFICATION, ROLES } from '../../db/schema';
import { nullableRef } from '../../lib/route';

export const PASSWORD_MIN_LENGTH = 10;

export const SignupSchema = z
  .object({
    email: z.email().max(254).openapi({ example: 'ravi@example.com' }),
    password: z.string().min(PASSWORD_MIN_LENGTH).max(256).openapi({ example: 'correct horse battery' }),
    name: z.string().trim().min(1).max(100).openapi({ example: 'Ravi Kumar' }),
    role: z
      .enum(['candidate', 'employer'])
      .openapi({ description: 'Admin cannot be chosen; see README → First admin.' }),
    organisation: z
      .object({
        name: z.string().trim().min(1).max(200).optional().openapi({ example: 'Acme Hiring Pvt Ltd' }),
        websiteUrl: z
          .url({ protocol: /^https?$/ })
          .max(500)
          .optional()
          .openapi({ example: 'https://acme.example' }),
      })
      .strict()
      .optional()
      .openapi({
        description:
          'Employers only: the organisation this account creates and acts for (named after the email domain when ' +
          'absent). It starts `unverified`: its certificates wait as `pending_issuer` until it is verified.',
      }),
    invitationCode: z
      .string()
      .min(10)
      .max(200)
      .optional()
      .openapi({
        description:
          'Employers only: join an existing organisation with an invitation a member made for this email address ' +
          '(`POST /api/me/organisation/invitations`) instead of creating one.',
      }),
  })
  .strict()
  .refine((b) => !(b.organisation && b.invitationCode), {
    message: 'Either create an organisation or join one by invitation, not both',
    path: ['invitationCode'],
  })
  .openapi('SignupRequest');

export const OrganisationSummarySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    verification: z.enum(ORGANISATION_VERIFICATION),
  })
  .openapi('OrganisationSummary');

export const LoginSchema = z
  .object({
    email: z.string().min(1).max(254).openapi({ example: 'ravi@example.com' }),
    password: z.string().min(1).max(256),
  })
  .strict()
  .openapi('LoginRequest');

export const ProfileSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    role: z.enum(ROLES),
    publicAlias: z
      .string()
      .nullable()
      .openapi({ description: 'Shown on the leaderboard instead of the name when set.' }),
    organisation: nullableRef(OrganisationSummarySchema).openapi({
      description: 'Employers: the organisation they act for. Null for candidates and admins.',
    }),
    createdAt: z.string().datetime(),
  })
  .openapi('Profile');

export const SessionResponseSchema = z
  .object({ user: ProfileSchema, expiresAt: z.string().datetime() })
  .openapi('Session', { description: 'The session token itself is only in the `Set-Cookie` header.' });
