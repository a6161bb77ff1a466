import type { z } from '@hono/zod-openapi';
import { defineRoute } from '../../http/route';
import { errorResponses } from '../../lib/problem';
import {
  PullDocRequestSchema,
  PullDocResponseSchema,
  PullUriRequestSchema,
  PullUriResponseSchema,
} from './digilocker.schemas';

/** DigiLocker's issuer API: called by DigiLocker, not by people (docs/digilocker.md). */
const xml = <T extends z.ZodType>(schema: T) => ({ 'application/xml': { schema } });

const HMAC_HEADER = {
  name: 'x-digilocker-hmac',
  in: 'header' as const,
  required: false,
  description:
    'Base64 of HMAC-SHA256 of the raw request body, keyed with the API key registered on DigiLocker’s partner ' +
    'portal (`DIGILOCKER_API_KEY`). Missing or wrong: 401 with `Status="0"`.',
  schema: {
    type: 'string' as const,
    maxLength: 256,
    example: 'nE1k0sW0mP9cZ3l4y7eG0a2Q0bq1x8tYpVw6kYxYt1U=',
  },
};

const refusals = (root: string, schema: z.ZodType) => ({
  401: {
    description:
      `\`<${root}>\` with \`Status="0"\`: \`x-digilocker-hmac\` missing or not the body's HMAC, or \`ts\` more than 15 ` +
      'minutes from the server clock. Nothing was looked up.',
    headers: {
      'WWW-Authenticate': {
        description: 'The challenge: `x-digilocker-hmac realm="DigiLocker issuer API"`.',
        schema: { type: 'string' as const },
      },
    },
    content: xml(schema),
  },
  409: {
    description: `\`<${root}>\` with \`Status="0"\`: this \`txn\` was already used for another request.`,
    content: xml(schema),
  },
  ...errorResponses(503),
});

export const pullUri = defineRoute({
  method: 'post',
  path: '/api/digilocker/pull-uri',
  operationId: 'digilockerPullUri',
  tags: ['DigiLocker'],
  summary: 'DigiLocker Pull URI: find a certificate for the person searching in DigiLocker',
  description:
    'Called by DigiLocker (API Setu issuer API, `PullURIRequest`). The certificate is the one whose number is ' +
    '`UDF1`, held by the person named by `FullName` (case and spaces aside) with the date of birth `DOB` ' +
    '(`DD-MM-YYYY`) recorded at signup, while it verifies as active, its holder consents to public verification ' +
    'and has not turned DigiLocker off for it. Found: `Status="1"` with the URI `{orgId}-{docType}-{certificateNo}` ' +
    'and the document (`DocContent` PDF, `DataContent` XML, base64, as `format` asks). Otherwise `Status="0"` with ' +
    'an empty `DocDetails`, the same answer whichever field did not match. Every request is audited and shown to the ' +
    'holder in their access export. 503 `not-configured` until `DIGILOCKER_ORG_ID`, `DIGILOCKER_DOC_TYPE` and ' +
    '`DIGILOCKER_API_KEY` are set.',
  security: [],
  parameters: [HMAC_HEADER],
  request: { body: { required: true, content: xml(PullUriRequestSchema) } },
  responses: {
    200: {
      description: '`<PullURIResponse>`: `Status="1"` found, `Status="0"` not.',
      content: xml(PullUriResponseSchema),
    },
    400: {
      ...errorResponses(400)[400],
      description:
        'Not a Pull URI request (`malformed-xml`: not well-formed, a DOCTYPE, over 256 KiB or 8 levels, a required part missing).',
    },
    ...refusals('PullURIResponse', PullUriResponseSchema),
  },
});

export const pullDoc = defineRoute({
  method: 'post',
  path: '/api/digilocker/pull-doc',
  operationId: 'digilockerPullDoc',
  tags: ['DigiLocker'],
  summary: 'DigiLocker Pull Doc: the document behind a URI',
  description:
    'Called by DigiLocker (`PullDocRequest`) when the person opens the document: the URI a Pull URI answer gave. ' +
    'The certificate must still be givable (as for Pull URI: a revocation, a suspension, an erasure, a withdrawn ' +
    'consent or the holder’s switch stop it at once); `FullName` and `DOB`, when sent, must be the holder’s. ' +
    '`Status="1"` with `DocContent` and/or `DataContent` as `format` asks, else `Status="0"`.',
  security: [],
  parameters: [HMAC_HEADER],
  request: { body: { required: true, content: xml(PullDocRequestSchema) } },
  responses: {
    200: {
      description: '`<PullDocResponse>`: `Status="1"` with the document, `Status="0"` not.',
      content: xml(PullDocResponseSchema),
    },
    400: { ...errorResponses(400)[400], description: 'Not a Pull Doc request (`malformed-xml`).' },
    ...refusals('PullDocResponse', PullDocResponseSchema),
  },
});
