import { createRoute, z } from '@hono/zod-openapi';
import { json } from '../../lib/content';
import { cursorParam, limitParam } from '../../lib/paging';
import { errorResponses } from '../../lib/problem';
import { authErrors, limitedResponse, sessionAuth } from '../../lib/route-auth';
import {
  ConsentNoticeSchema,
  ConsentReceiptSchema,
  ConsentRequestSchema,
  ConsentsSchema,
  NoticeVersionParams,
} from './consent.schemas';

export const recordConsent = createRoute({
  method: 'post',
  path: '/api/consent',
  tags: ['Consent'],
  summary: 'Grant or revoke consent for a purpose',
  description:
    'Appends to the consent ledger and takes effect at once: leaderboards and certificate verification ' +
    'stop (or start) showing the person from the next request. An unknown purpose or notice version is a 422.',
  ...sessionAuth(),
  request: { body: { required: true, content: json(ConsentRequestSchema) } },
  responses: {
    201: limitedResponse('The receipt of this grant or withdrawal.', json(ConsentReceiptSchema)),
    ...authErrors(),
    ...errorResponses(400, 413, 415, 422),
  },
});

export const listConsents = createRoute({
  method: 'get',
  path: '/api/me/consents',
  tags: ['Consent'],
  summary: "The caller's consent state per purpose, and its history",
  description:
    'The state of a purpose is its latest grant or withdrawal; `never` when there is none. ' +
    'The history is paged, newest first; the states always reflect every event.',
  ...sessionAuth(),
  request: { query: z.object({ limit: limitParam(50), cursor: cursorParam() }) },
  responses: {
    200: limitedResponse('State per purpose and a page of the history, newest first.', json(ConsentsSchema)),
    ...authErrors(),
    ...errorResponses(400),
  },
});

export const getNotice = createRoute({
  method: 'get',
  path: '/api/consent/notices/{version}',
  tags: ['Consent'],
  summary: 'A consent notice',
  description: 'The text a person is shown before granting consent. Published versions never change.',
  security: [],
  request: { params: NoticeVersionParams },
  responses: {
    200: {
      description: 'The notice.',
      headers: {
        'Cache-Control': { schema: { type: 'string' }, description: 'Public; a version never changes.' },
      },
      content: json(ConsentNoticeSchema),
    },
    ...errorResponses(400, 404),
  },
});
