import { z } from '@hono/zod-openapi';
import { ORGANISATION_VERIFICATION, ROLES } from '../../db/schema';
import { isIsoDate } from '../../domain/age';
import { organisationName } from '../../http/organisation-name';
import { nullableRef } from '../../http/route';
import { shownName } from '../../http/validation';
import { clock } from '../../lib/clock';

export const PASSWORD_MIN_LENGTH = 10;

/** A date of birth: a real calendar date, not in the future, not before 1900. */
export const DateOfBirthSchema = z
  .string()
  .max(10)
  .refine(isIsoDate, { message: 'A calendar date written YYYY-MM-DD' })
  .refine((d) => d >= '1900-01-01' && d <= clock.now().toISOString().slice(0, 10), {
    message: 'A date between 1900-01-01 and today',
  })
  .openapi({
    description:
      "ISO date (`YYYY-MM-DD`), required (DPDP §9): under 18 on the day of the request, the account is a child's and " +
      "needs a guardian's consent before anything else.",
    example: '1998-04-17',
    format: 'date',
  });

export const SignupSchema = z
  .object({
    email: z.email().max(254).openapi({ example: 'ravi@example.com' }),
    password: z.string().min(PASSWORD_MIN_LENGTH).max(256).openapi({ example: 'correct horse battery' }),
    name: shownName(100).openapi({ example: 'Ravi Kumar' }),
    role: z
      .enum(['candidate', 'employer'])
      .openapi({ description: 'Admin cannot be chosen; see README → First admin.' }),
    dateOfBirth: DateOfBirthSchema,
    guardianEmail: z
      .email()
      .max(254)
      .optional()
      .openapi({
        description:
          'Required under 18, refused otherwise: the email of the parent or lawful guardian who is to consent (DPDP ' +
          "§9). They approve with their own account (`POST /api/guardian/requests/{id}/approve`); until then the child's " +
          'account can only read its profile and guardian status, log out and ask for erasure.',
        example: 'parent@example.com',
      }),
    organisation: z
      .object({
        name: organisationName(200).optional().openapi({ example: 'Acme Hiring Pvt Ltd' }),
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
    dateOfBirth: z.string().nullable().openapi({
      description: 'ISO date; null for accounts made before it was asked (and the admin).',
      format: 'date',
    }),
    emailConfirmed: z.boolean().openapi({
      description:
        'Whether the address is confirmed (the link sent at signup). Until it is, the account cannot approve a ' +
        'guardian request, join an organisation, prove a domain or change its address (403 `email-unconfirmed`); ' +
        'a new link: `POST /api/me/email-confirmation`.',
    }),
    createdAt: z.string().datetime(),
  })
  .openapi('Profile');

export const SessionResponseSchema = z
  .object({ user: ProfileSchema, expiresAt: z.string().datetime() })
  .openapi('Session', { description: 'The session token itself is only in the `Set-Cookie` header.' });
