import { z } from '@hono/zod-openapi';
import { defineRoute } from '../../http/route';
import { sessionAuth } from '../../http/route-auth';
import { json } from '../../lib/content';
import { RATE_LIMIT_HEADERS } from '../../lib/problem';
import { ipRateLimit } from '../../middleware/rate-limit';
import { CALLBACK_PATH, SEND_BINDING_COOKIE } from '../../services/portability/send-to-host';
import { CertificateNoParams } from '../certificates/certificates.schemas';

export const SendToHostRequestSchema = z
  .object({
    hostUrl: z
      .string()
      .trim()
      .min(1)
      .max(2048)
      .openapi({
        description:
          'Your host’s base URL (its Open Badges API is read at `<hostUrl>/ims/ob/v3p0/discovery`), or that discovery ' +
          'URL itself. https only; plain http only to loopback in a local deployment.',
        example: 'https://backpack.example',
      }),
  })
  .strict()
  .openapi('SendToHostRequest');

export const SendToHostStartedSchema = z
  .object({
    authorizationUrl: z.string().openapi({
      description:
        'Open this in the browser that made the request: the host asks you to sign in and allow this service to add ' +
        'a credential, then sends you back to `GET /api/send-to-host/callback`.',
    }),
    expiresAt: z
      .string()
      .openapi({ format: 'date-time', description: 'Finish at the host before this (10 minutes).' }),
  })
  .openapi('SendToHostStarted');

export const SendToHostResultSchema = z
  .object({
    certificateNo: z.string(),
    host: z.string().openapi({ description: 'The host’s origin.' }),
    result: z.enum(['created', 'replaced']).openapi({
      description: 'What the host answered: `created` (201, a new credential there) or `replaced` (200).',
    }),
    sentAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('SendToHostResult');

export const startSendToHost = defineRoute({
  method: 'post',
  path: '/api/me/certificates/{certificateNo}/send-to-host',
  operationId: 'sendMyCertificateToHost',
  tags: ['Portability'],
  summary: 'Send one of your certificates to your own Open Badges host',
  description:
    'Starts handing the certificate’s signed credential to your backpack, wallet or ePortfolio through the 1EdTech ' +
    'Open Badges 3.0 API. This service reads the host’s Service Description Document, registers itself there ' +
    '(RFC 7591; once per host) and answers with the host’s authorization URL (authorization code with PKCE S256, ' +
    'scope `credential.upsert`). Open it in this browser; when you allow it at the host, the host sends you back to ' +
    '`GET /api/send-to-host/callback`, which puts the credential there (`POST /ims/ob/v3p0/credentials`). The ' +
    `response sets a \`${SEND_BINDING_COOKIE}\` cookie (SameSite=Lax, 10 minutes) that ties the send to this ` +
    'browser. A revoked certificate (410), one of a suspended issuer or not yet signed (409), or a child’s account ' +
    '(403, as on the authorization page) cannot be sent. The host is reached under the outbound rules (https, public ' +
    'addresses after DNS, timeouts, size caps, no cross-host redirect): a refused address is a 422 ' +
    '`host-address-refused`; a host without a usable discovery document a 502 `host-discovery-failed`; a refused ' +
    'registration a 502 `host-registration-refused`. Nothing is sent before the callback.',
  ...sessionAuth(),
  request: {
    params: CertificateNoParams,
    body: { required: true, content: json(SendToHostRequestSchema) },
  },
  errors: [409, 410, 502],
  responses: {
    202: {
      description: 'Started: send the browser to `authorizationUrl`.',
      headers: {
        ...RATE_LIMIT_HEADERS,
        'Set-Cookie': {
          description: `\`${SEND_BINDING_COOKIE}=…; HttpOnly; Secure; SameSite=Lax; Path=${CALLBACK_PATH}; Max-Age=600\``,
          schema: { type: 'string' as const },
        },
      },
      content: json(SendToHostStartedSchema),
    },
  },
});

export const sendToHostCallback = defineRoute({
  method: 'get',
  path: '/api/send-to-host/callback',
  operationId: 'sendToHostCallback',
  tags: ['Portability'],
  summary: 'Where your host sends you back (finishes a send)',
  description:
    'The redirect URI this service registers at hosts. Takes the send started by ' +
    '`POST /api/me/certificates/{certificateNo}/send-to-host` (by its `state`, once, within 10 minutes, in the ' +
    'browser that started it), exchanges the host’s code for a token (PKCE S256) and upserts the credential at the ' +
    'host as a compact JWS (`POST /ims/ob/v3p0/credentials`, `text/plain`). Audit-logged. Refusals: `state` unknown, ' +
    'expired, reused or from another browser (400 `send-state-invalid`); declined at the host (403 ' +
    '`host-access-denied`); another authorization error or a refused code exchange (502 `host-token-failed`); the ' +
    'host refused the credential (502 `host-upsert-refused`). 60 requests per minute per IP.',
  security: [],
  middleware: ipRateLimit(),
  request: {
    query: z.object({
      state: z
        .string()
        .max(512)
        .optional()
        .openapi({ description: 'The state this service sent to the host.' }),
      code: z.string().max(2048).optional().openapi({ description: 'The host’s authorization code.' }),
      error: z
        .string()
        .max(256)
        .optional()
        .openapi({ description: 'The host’s error (RFC 6749 § 4.1.2.1).' }),
      error_description: z.string().max(2048).optional(),
      iss: z
        .string()
        .max(2048)
        .optional()
        .openapi({ description: 'The host’s issuer (RFC 9207), when it sends one.' }),
    }),
  },
  errors: [403, 410, 429, 502],
  responses: {
    200: {
      description: 'The host has the credential.',
      headers: RATE_LIMIT_HEADERS,
      content: json(SendToHostResultSchema),
    },
  },
});
