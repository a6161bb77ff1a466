import { z } from '@hono/zod-openapi';
import { NOTICE_KINDS } from '../../db/schema';
import { json } from '../../lib/content';
import { cursorParam, limitParam } from '../../lib/paging';
import { defineRoute, IdParams } from '../../lib/route';
import { sessionAuth } from '../../lib/route-auth';
/** Everything under `/api/me`: the signed-in person's own records. */
import { ProfileSchema } from '../auth/auth.schemas';
import { BriefPageSchema, BriefSchema } from '../briefs/briefs.schemas';
import { CertificateListSchema } from '../certificates/certificates.schemas';
import { ConsentsSchema } from '../consent/consent.schemas';
import { DsrRequestPageSchema } from '../dsr/dsr.schemas';
import { UpdateMeSchema } from './me.schemas';

export const NoticeSchema = z
  .object({
    id: z.string(),
    kind: z.enum(NOTICE_KINDS),
    title: z.string(),
    body: z.string(),
    createdAt: z.string().datetime(),
  })
  .openapi('UserNotice');

export const listMyNotices = defineRoute({
  method: 'get',
  path: '/api/me/notices',
  operationId: 'listMyNotices',
  tags: ['Me'],
  summary: "The caller's notices",
  description:
    'Notices the service owes the person, newest first (at most 100): e.g. that the account will be erased for ' +
    'inactivity in 48 hours unless they sign in (DPDP Rule 8(2)).',
  ...sessionAuth(),
  responses: {
    200: {
      description: 'The notices.',
      content: json(z.object({ notices: z.array(NoticeSchema).max(100) }).openapi('UserNotices')),
    },
  },
});

export const getMe = defineRoute({
  method: 'get',
  path: '/api/me',
  operationId: 'getMyProfile',
  tags: ['Auth'],
  summary: "The caller's profile",
  ...sessionAuth(),
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
    200: { description: 'Newest issued first, one page of `limit`.', content: json(CertificateListSchema) },
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
