import { z } from '@hono/zod-openapi';
import { NOTICE_KINDS } from '../../db/schema';
import { defineRoute, IdParams } from '../../http/route';
import { sessionAuth, sessionAuthBeforeGuardianConsent } from '../../http/route-auth';
import { json } from '../../lib/content';
import { cursorParam, limitParam } from '../../lib/paging';
import { RATE_LIMIT_HEADERS } from '../../lib/problem';
/** Everything under `/api/me`: the signed-in person's own records. */
import { ProfileSchema } from '../auth/auth.schemas';
import { BriefPageSchema, BriefSchema } from '../briefs/briefs.schemas';
import { CertificateNoParams, MyCertificateListSchema } from '../certificates/certificates.schemas';
import { ConsentsSchema } from '../consent/consent.schemas';
import { DsrRequestPageSchema } from '../dsr/dsr.schemas';
import {
  DnsChallengeSchema,
  DnsCheckSchema,
  DomainRequestSchema,
  InvitationRequestSchema,
  InvitationSchema,
  OrganisationSchema,
  UpdateMeSchema,
  UpdateOrganisationSchema,
} from './me.schemas';

export const NoticeSchema = z
  .object({
    id: z.string(),
    kind: z.enum(NOTICE_KINDS),
    title: z.string(),
    body: z.string(),
    createdAt: z.string().datetime(),
  })
  .openapi('UserNotice');

export const NoticePageSchema = z
  .object({
    notices: z.array(NoticeSchema).max(100),
    nextCursor: z.string().nullable().openapi({ description: 'Null on the last page.' }),
  })
  .openapi('UserNotices');

export const listMyNotices = defineRoute({
  method: 'get',
  path: '/api/me/notices',
  operationId: 'listMyNotices',
  tags: ['Me'],
  summary: "The caller's notices",
  description:
    'Notices the service owes the person, newest first, one page of `limit` (default and most 100; follow ' +
    '`nextCursor` for older ones): e.g. that the account will be erased for inactivity in 48 hours unless they ' +
    'sign in (DPDP Rule 8(2)), or a personal data breach (Rule 7(1)). A parent or lawful guardian also finds ' +
    'here a copy of each such notice given to their ward, naming the child. A child whose guardian has not ' +
    'approved (yet) may read their notices too: they are about their own data.',
  ...sessionAuthBeforeGuardianConsent(),
  request: { query: z.object({ limit: limitParam(100), cursor: cursorParam() }) },
  responses: {
    200: { description: 'A page of the notices, newest first.', content: json(NoticePageSchema) },
  },
});

export const getMe = defineRoute({
  method: 'get',
  path: '/api/me',
  operationId: 'getMyProfile',
  tags: ['Auth'],
  summary: "The caller's profile",
  ...sessionAuthBeforeGuardianConsent(),
  responses: {
    200: { description: 'The profile.', content: { 'application/json': { schema: ProfileSchema } } },
  },
});

export const updateMe = defineRoute({
  method: 'patch',
  path: '/api/me',
  operationId: 'updateMyProfile',
  tags: ['Auth'],
  summary: 'Set the public alias',
  description:
    'Name and email are changed through `PATCH /api/dsr/correction` (a data-rights request with an audit trail).',
  ...sessionAuth(),
  request: { body: { required: true, content: { 'application/json': { schema: UpdateMeSchema } } } },
  responses: {
    200: { description: 'The profile.', content: { 'application/json': { schema: ProfileSchema } } },
  },
});

export const myBriefs = defineRoute({
  method: 'get',
  path: '/api/me/briefs',
  operationId: 'listMyBriefs',
  tags: ['Briefs'],
  summary: "The employer's own briefs, in every state",
  ...sessionAuth('employer'),
  request: { query: z.object({ limit: limitParam(20), cursor: cursorParam() }) },
  responses: {
    200: { description: 'Newest first.', content: json(BriefPageSchema) },
  },
});

export const getMyBrief = defineRoute({
  method: 'get',
  path: '/api/me/briefs/{id}',
  operationId: 'getMyBrief',
  tags: ['Briefs'],
  summary: 'One of the employer’s own briefs, in any state',
  ...sessionAuth('employer'),
  request: { params: IdParams },
  responses: {
    200: { description: 'The brief.', content: json(BriefSchema) },
  },
});

export const myCertificates = defineRoute({
  method: 'get',
  path: '/api/me/certificates',
  operationId: 'listMyCertificates',
  tags: ['Certificates'],
  summary: "The caller's certificates",
  ...sessionAuth(),
  request: { query: z.object({ limit: limitParam(50), cursor: cursorParam() }) },
  responses: {
    200: {
      description: 'Newest issued first, one page of `limit`, and the link to your learner record.',
      content: json(MyCertificateListSchema),
    },
  },
});

export const CredentialIdentifierRequestSchema = z
  .object({
    enabled: z.boolean().openapi({
      description:
        'true: your credentials carry an `identifier` (a salted SHA-256 of your email, never the email), which ' +
        'wallets use to match them to you; false: they carry none (the default).',
    }),
  })
  .strict()
  .openapi('CredentialIdentifierRequest');

export const CredentialIdentifierStateSchema = z
  .object({
    enabled: z.boolean().openapi({ description: 'Whether you asked for the identifier.' }),
    included: z.boolean().openapi({
      description:
        'Whether your credentials carry it now. Only while your `public_verification` consent is granted: ' +
        'public verification serves the credential, and the hash would let anyone who knows your email tell ' +
        'whose certificate it is. While that consent is withdrawn (or was never given) your credentials are ' +
        'signed without it; granting it again signs them with it. Never for a child (DPDP §9(3)). Nor before ' +
        'your email address is confirmed (the hash names that address); confirming it signs them with it.',
    }),
    note: z
      .string()
      .nullable()
      .openapi({ description: 'Why it is left out, when you asked for it and it is; null otherwise.' }),
  })
  .openapi('CredentialIdentifierState');

export const CredentialIdentifierSchema = CredentialIdentifierStateSchema.extend({
  resigned: z
    .array(z.string().max(17))
    .openapi({ description: 'The certificates whose credentials were signed again with (or without) it.' }),
}).openapi('CredentialIdentifier');

export const getCredentialIdentifier = defineRoute({
  method: 'get',
  path: '/api/me/credential-identifier',
  operationId: 'getMyCredentialIdentifier',
  tags: ['Certificates'],
  summary: 'Whether your credentials carry an identifier',
  description:
    'The setting of `PUT /api/me/credential-identifier`, and whether your credentials carry the identifier now: ' +
    'they do only while your email address is confirmed and your `public_verification` consent is granted.',
  ...sessionAuth(),
  responses: {
    200: { description: 'The setting and its effect.', content: json(CredentialIdentifierStateSchema) },
  },
});

export const setCredentialIdentifier = defineRoute({
  method: 'put',
  path: '/api/me/credential-identifier',
  operationId: 'setMyCredentialIdentifier',
  tags: ['Certificates'],
  summary: 'Ask for (or drop) an identifier in your credentials',
  description:
    'Open Badges 3.0 `credentialSubject.identifier`: an IdentityObject with `identityType: emailAddress`, `hashed: true`, ' +
    '`identityHash` = `sha256$` + hex SHA-256 of your email (lower-cased) followed by the `salt`, and the salt. Your ' +
    'active and revoked credentials are signed again at once (number, dates and status unchanged; a revoked one stays ' +
    'public, marked revoked); new ones follow the setting. ' +
    'Off by default: a credential says nothing about who holds it unless you ask. The identifier is left out ' +
    'while your `public_verification` consent is withdrawn (or was never given), since public verification ' +
    'serves the credential: withdrawing it re-signs your credentials without the identifier, granting it again ' +
    're-signs them with it. It is also left out until your email address is confirmed (the hash names that ' +
    'address); opening the confirmation link re-signs your credentials with it. `included` says which applies now.',
  ...sessionAuth(),
  request: { body: { required: true, content: json(CredentialIdentifierRequestSchema) } },
  responses: {
    200: { description: 'The setting, and what was re-signed.', content: json(CredentialIdentifierSchema) },
  },
});

export const getMyCertificatePdf = defineRoute({
  method: 'get',
  path: '/api/me/certificates/{certificateNo}/pdf',
  operationId: 'getMyCertificatePdf',
  tags: ['Certificates'],
  summary: "A printable PDF of one of the caller's certificates",
  description:
    'The holder only (anyone else gets 404, as for a number that does not exist). A landscape A4 page with the ' +
    "holder's name, the achievement (brief), the organisation (by the name signed into the credential), the " +
    'issue date and number, and a QR code of the public verification page `/verify/{certificateNo}`. Names in ' +
    'Devanagari and Tamil are drawn with embedded Noto fonts and OpenType shaping, and stay searchable. A revoked ' +
    'certificate says so on the page.',
  ...sessionAuth(),
  request: { params: CertificateNoParams },
  responses: {
    200: {
      description: 'The PDF.',
      headers: {
        ...RATE_LIMIT_HEADERS,
        'Content-Disposition': {
          description: '`attachment; filename="certificate-<number>.pdf"`',
          schema: { type: 'string' as const },
        },
      },
      content: { 'application/pdf': { schema: z.string().openapi({ format: 'binary' }) } },
    },
  },
});

export const listConsents = defineRoute({
  method: 'get',
  path: '/api/me/consents',
  operationId: 'listMyConsents',
  tags: ['Consent'],
  summary: "The caller's consent state per purpose, and its history",
  description:
    'The state of a purpose is its latest grant or withdrawal; `never` when there is none. ' +
    'The history is paged, newest first; the states always reflect every event.',
  ...sessionAuth(),
  request: { query: z.object({ limit: limitParam(50), cursor: cursorParam() }) },
  responses: {
    200: {
      description: 'State per purpose and a page of the history, newest first.',
      content: json(ConsentsSchema),
    },
  },
});

export const listMyRequests = defineRoute({
  method: 'get',
  path: '/api/me/dsr-requests',
  operationId: 'listMyDsrRequests',
  tags: ['Data rights'],
  summary: "The caller's data-rights requests",
  description: 'Every right exercised (access, correction, erasure, grievance, nomination), newest first.',
  ...sessionAuth(),
  request: { query: z.object({ limit: limitParam(20), cursor: cursorParam() }) },
  responses: {
    200: { description: 'Newest first.', content: json(DsrRequestPageSchema) },
  },
});

export const getMyOrganisation = defineRoute({
  method: 'get',
  path: '/api/me/organisation',
  operationId: 'getMyOrganisation',
  tags: ['Organisations'],
  summary: "The employer's organisation",
  ...sessionAuth('employer'),
  responses: { 200: { description: 'The organisation.', content: json(OrganisationSchema) } },
});

export const updateMyOrganisation = defineRoute({
  method: 'patch',
  path: '/api/me/organisation',
  operationId: 'updateMyOrganisation',
  tags: ['Organisations'],
  summary: 'Rename the organisation or change its website',
  description:
    'Any member may. Credentials already issued keep the name they were signed with; the verify page then shows ' +
    '"now known as …" with the new name. A verified organisation was verified under its name: a new name waits as ' +
    "`pendingName` for the platform's review, the organisation stays `verified` under its current name (and signs " +
    'with it) until an admin approves, and a DNS re-check never approves it; giving the current name back withdraws ' +
    "it. An unverified organisation is renamed at once. A name that reads as another verified organisation's " +
    '(Unicode UTS #39 confusable skeleton, ignoring case, spaces, punctuation and accents) is a 409, whether or ' +
    'not this organisation is verified; Latin mixed with another script is a 422. `websiteUrl` is published (in ' +
    'the Profile and credentials) only on the verified domain or a subdomain (`websitePublished`). A suspended ' +
    'organisation cannot rename itself or change its website (403 `organisation-suspended`). A 409 also answers a change made on a stale ' +
    'view (the organisation was renamed, reviewed or changed by another request meanwhile): nothing was changed; ' +
    'reload and retry.',
  ...sessionAuth('employer'),
  request: { body: { required: true, content: json(UpdateOrganisationSchema) } },
  errors: [409],
  responses: { 200: { description: 'The organisation.', content: json(OrganisationSchema) } },
});

export const inviteToOrganisation = defineRoute({
  method: 'post',
  path: '/api/me/organisation/invitations',
  operationId: 'inviteToOrganisation',
  idempotent: true,
  tags: ['Organisations'],
  summary: 'Invite a second recruiter to the organisation',
  description:
    'The token is shown once and is valid for 7 days, for that email address only: the invitee signs up as an ' +
    'employer with `invitationCode`. The answer is the same whether or not the address already has an account ' +
    '(it does not tell who is registered); signing up with a taken address is refused as always. A suspended ' +
    'organisation cannot invite (403 `organisation-suspended`), and its invitations made before cannot be used.',
  ...sessionAuth('employer'),
  request: { body: { required: true, content: json(InvitationRequestSchema) } },
  responses: { 201: { description: 'The invitation.', content: json(InvitationSchema) } },
});

export const startDomainVerification = defineRoute({
  method: 'post',
  path: '/api/me/organisation/domain-verification',
  operationId: 'startDomainVerification',
  idempotent: true,
  tags: ['Organisations'],
  summary: 'Start a DNS proof of a domain',
  description:
    'Returns the TXT record to publish at `_vp-verification.<domain>` (one value per organisation: starting again, ' +
    'for this or another domain, returns the same). Only a member whose own email address is at that domain may ' +
    'prove it (403 otherwise). An unverified organisation becomes `pending`; a verified one stays `verified` (a ' +
    'matching check then records the domain as proven). A suspended or rejected organisation cannot (409): the ' +
    "platform's decision stands until an admin changes it. A 409 also answers a start that raced another change " +
    'of the organisation (nothing was changed; retry).',
  ...sessionAuth('employer'),
  request: { body: { required: true, content: json(DomainRequestSchema) } },
  errors: [409],
  responses: { 201: { description: 'The record to publish.', content: json(DnsChallengeSchema) } },
});

export const checkDomainVerification = defineRoute({
  method: 'post',
  path: '/api/me/organisation/domain-verification/check',
  operationId: 'checkDomainVerification',
  idempotent: true,
  tags: ['Organisations'],
  summary: 'Check the DNS proof and verify the organisation',
  description:
    'Looks the TXT record up through DNS-over-HTTPS. When it matches, the organisation is verified and every ' +
    'certificate that was waiting (`pending_issuer`) is issued at once (`newlyVerified: true`); checks made at the ' +
    'same time verify it once, the others answer as for a verified organisation. A verified organisation whose ' +
    "verification was an admin's has the proven domain recorded (shown on its issuer Profile and verify pages); " +
    'its verification date and certificates are unchanged. A resolver that does not answer is a 503; a name ' +
    'another verified organisation already has is a 409.',
  ...sessionAuth('employer'),
  request: { body: { required: true, content: json(DomainRequestSchema) } },
  errors: [409, 503],
  responses: {
    200: { description: 'What the resolver returned, and the organisation.', content: json(DnsCheckSchema) },
  },
});
