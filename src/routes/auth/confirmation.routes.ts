/** Confirmed email addresses (src/services/email-confirmations.ts): the link, its state, a new link. */

import { z } from '@hono/zod-openapi';
import { defineRoute } from '../../http/route';
import { sessionAuth } from '../../http/route-auth';
import { json } from '../../lib/content';
import { errorResponses } from '../../lib/problem';
import {
  ConfirmationBodySchema,
  ConfirmationLangQuerySchema,
  ConfirmationQuerySchema,
  ConfirmationResultSchema,
  ConfirmationSentSchema,
  ConfirmationStatusSchema,
} from './confirmation.schemas';

const html = (description: string) => ({ 'text/html': { schema: z.string().openapi({ description }) } });

/** A refusal: a problem (JSON clients), or a page (the link's form). */
const withPage = (status: 403 | 404 | 409, description: string) => ({
  [status]: {
    description,
    content: { ...errorResponses(status)[status].content, ...html('An error page (form requests).') },
  },
});

export const openConfirmationLink = defineRoute({
  method: 'get',
  path: '/api/auth/email-confirmation',
  operationId: 'openEmailConfirmationLink',
  tags: ['Auth'],
  summary: 'The mailed confirmation link: a page that confirms only when its button is pressed',
  description:
    'Public: the token is the credential. Opening the link changes nothing (a mail scanner’s prefetch or a stray ' +
    'click confirms no one): it answers an HTML page naming the address, whose button POSTs the token to ' +
    '`POST /api/auth/email-confirmation`. An unknown, used or expired link is a 404 page.',
  security: [],
  request: { query: ConfirmationQuerySchema },
  responses: {
    200: { description: 'The page with the Confirm button.', content: html('An HTML document.') },
    ...withPage(
      404,
      'The link is unknown, used or expired: a page for browsers (`Accept: text/html`), else a problem.',
    ),
  },
});

export const confirmEmail = defineRoute({
  method: 'post',
  path: '/api/auth/email-confirmation',
  operationId: 'confirmEmail',
  tags: ['Auth'],
  summary: 'Confirm an email address with the mailed token',
  description:
    'Public: the token is the credential. JSON clients send `{"token": …}` and get the result as JSON; the link’s ' +
    'page sends its form (`application/x-www-form-urlencoded`, same origin only: a form from another site is a ' +
    '403) and gets a page. A signup token confirms the account’s address, and joins the organisation of the ' +
    'invitation the signup carried; a correction’s token makes the new address the account’s (until then it ' +
    'keeps the old one). A token works once, for 24 hours: unknown, used or expired is a 404; a token for an address ' +
    'the account no longer has, or a new address another account took meanwhile, is a 409.',
  security: [],
  request: {
    query: ConfirmationLangQuerySchema,
    body: {
      // Not `required` only so that each media type is validated on its own (a required body
      // runs every media type's validator); a request without a token is a 422 all the same.
      required: false,
      content: {
        'application/json': { schema: ConfirmationBodySchema },
        'application/x-www-form-urlencoded': { schema: ConfirmationBodySchema },
      },
    },
  },
  responses: {
    200: {
      description: 'Confirmed: the result (JSON), or a page (for the form).',
      content: { ...json(ConfirmationResultSchema), ...html('The confirmation page (form requests).') },
    },
    ...withPage(403, 'The form was not sent from this site’s own page.'),
    ...withPage(404, 'The token is unknown, used or expired.'),
    ...withPage(409, 'The address is no longer the account’s, or another account took it.'),
  },
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
