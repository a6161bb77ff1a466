import { defineRoute } from '../../http/route';
import { sessionAuth } from '../../http/route-auth';
import { json } from '../../lib/content';
import {
  ConsentNoticeSchema,
  ConsentReceiptSchema,
  ConsentRequestSchema,
  NoticeQuery,
  NoticeVersionParams,
} from './consent.schemas';

export const recordConsent = defineRoute({
  method: 'post',
  path: '/api/consent',
  operationId: 'recordConsent',
  idempotent: true,
  tags: ['Consent'],
  summary: 'Grant or revoke consent for a purpose',
  description:
    'Appends to the consent ledger and takes effect at once: leaderboards and certificate verification ' +
    'stop (or start) showing the person from the next request. For a holder who asked for a credential ' +
    '`identifier` (`PUT /api/me/credential-identifier`), a `public_verification` withdrawal re-signs their ' +
    'credentials without it, so verification no longer tells whose they are, and a grant re-signs them with it. ' +
    'An unknown purpose or notice version is a 422, ' +
    'and so is a notice version that does not describe the purpose (at `#/noticeVersion`).',
  ...sessionAuth(),
  request: { body: { required: true, content: json(ConsentRequestSchema) } },
  // 503: withdrawing `integrity_corpus` while the corpus shards are misconfigured (nothing recorded).
  errors: [503],
  responses: {
    201: { description: 'The receipt of this grant or withdrawal.', content: json(ConsentReceiptSchema) },
  },
});

export const getNotice = defineRoute({
  method: 'get',
  path: '/api/consent/notices/{version}',
  operationId: 'getConsentNotice',
  tags: ['Consent'],
  summary: 'A consent notice',
  description:
    'The text a person is shown before granting consent, per purpose: what is processed, why, how to withdraw ' +
    'and how to complain to the Data Protection Board. Published versions never change. Available in English ' +
    'and Hindi (`?lang=hi`), with a slot for every Eighth Schedule language; links the Data Protection Officer.',
  security: [],
  request: { params: NoticeVersionParams, query: NoticeQuery },
  responses: {
    200: {
      description: 'The notice.',
      headers: {
        'Cache-Control': { schema: { type: 'string' }, description: 'Public; a version never changes.' },
        'Content-Language': { schema: { type: 'string' }, description: 'The language of the text served.' },
      },
      content: json(ConsentNoticeSchema),
    },
  },
});
