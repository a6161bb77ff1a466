/** Confirmed email addresses (src/services/email-confirmations.ts): the link, its state, a new link. */

import { defineRoute } from '../../http/route';
import { sessionAuth } from '../../http/route-auth';
import { json } from '../../lib/content';
import {
  ConfirmationQuerySchema,
  ConfirmationResultSchema,
  ConfirmationSentSchema,
  ConfirmationStatusSchema,
} from './confirmation.schemas';

export const confirmEmail = defineRoute({
  method: 'get',
  path: '/api/auth/email-confirmation',
  operationId: 'confirmEmail',
  tags: ['Auth'],
  summary: 'Confirm an email address (the link sent by mail)',
  description:
    'Public: the token is the credential. A signup link confirms the account’s address, and joins the organisation ' +
    'of the invitation the signup carried; a correction’s link makes the new address the account’s (until then it ' +
    'keeps the old one). A link works once, for 24 hours: unknown, used or expired is a 404; a link for an address ' +
    'the account no longer has, or a new address another account took meanwhile, is a 409.',
  security: [],
  request: { query: ConfirmationQuerySchema },
  errors: [404, 409],
  responses: { 200: { description: 'Confirmed.', content: json(ConfirmationResultSchema) } },
});

export const getEmailConfirmation = defineRoute({
  method: 'get',
  path: '/api/me/email-confirmation',
  operationId: 'getEmailConfirmation',
  tags: ['Auth'],
  summary: 'Whether the account’s address is confirmed',
  ...sessionAuth(),
  responses: { 200: { description: 'The state.', content: json(ConfirmationStatusSchema) } },
});

export const resendEmailConfirmation = defineRoute({
  method: 'post',
  path: '/api/me/email-confirmation',
  operationId: 'resendEmailConfirmation',
  tags: ['Auth'],
  summary: 'Send a new confirmation link',
  description:
    'Mails a new link to the account’s address (earlier links keep working until they expire). At most 3 links an ' +
    'hour, the signup’s included: 429 with `Retry-After` beyond. A confirmed address is a 409.',
  ...sessionAuth(),
  errors: [409],
  responses: { 202: { description: 'The link is on its way.', content: json(ConfirmationSentSchema) } },
});
