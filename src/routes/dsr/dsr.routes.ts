import { z } from '@hono/zod-openapi';
import { defineRoute } from '../../http/route';
import { sessionAuth, sessionAuthBeforeGuardianConsent } from '../../http/route-auth';
import { json } from '../../lib/content';
import { RATE_LIMIT_HEADERS } from '../../lib/problem';
import {
  CorrectionResultSchema,
  CorrectionSchema,
  DsrRequestSchema,
  ErasureIdParams,
  ErasureReceiptSchema,
  GrievanceSchema,
  NominationSchema,
} from './dsr.schemas';

const TAGS = ['Data rights'];

export const access = defineRoute({
  method: 'get',
  path: '/api/dsr/access',
  operationId: 'exportMyData',
  tags: TAGS,
  summary: 'Export every record about the caller',
  description:
    'A ZIP, streamed: one JSON file per kind of record (`profile.json`, `consents.json`, `sessions.json`, ' +
    '`email-confirmations.json`, ' +
    '`submissions.json`, `evaluations.json`, `ratings-received.json`, `ratings-given.json`, `briefs.json`, ' +
    '`certificates.json`, `recipients.json`, `notices.json`, `guardians.json`, `dsr-requests.json`, ' +
    '`audit-log.json`), `manifest.json`, a readable ' +
    '`data-summary.pdf` and `certificates/<number>.pdf` per certificate. Never includes credentials or ' +
    "other people's data. Recorded as an `access` request. A large history (more than 2,000 submissions, " +
    'ratings given and audit entries together) is built in the background instead: the answer is 202 with ' +
    'the tracked request, and the archive is downloaded from the `Location` given once the request is ' +
    '`completed` (kept 7 days). Asking again while one is being built answers that same request.',
  ...sessionAuth(),
  responses: {
    202: {
      description: 'Accepted: the archive is being built; follow the request in `GET /api/dsr/requests`.',
      headers: {
        ...RATE_LIMIT_HEADERS,
        Location: {
          description: 'Where to download the archive once built.',
          schema: { type: 'string' as const },
        },
      },
      content: json(DsrRequestSchema),
    },
    200: {
      description: 'The archive.',
      headers: {
        ...RATE_LIMIT_HEADERS,
        'Content-Disposition': {
          description: '`attachment; filename="personal-data-<date>.zip"`',
          schema: { type: 'string' as const },
        },
      },
      content: { 'application/zip': { schema: z.string().openapi({ format: 'binary' }) } },
    },
  },
});

export const accessDownload = defineRoute({
  method: 'get',
  path: '/api/dsr/access/{requestId}/download',
  operationId: 'downloadMyDataExport',
  tags: TAGS,
  summary: 'Download an export built in the background',
  description:
    'The ZIP of a large `access` request (see `GET /api/dsr/access`), for the person who asked only. 409 ' +
    'while it is still being built, or when its build failed and stopped (asking again with `GET /api/dsr/access` ' +
    'retries it); 404 once it has expired (7 days after it was built) or was deleted before. A small export is ' +
    'the response to `GET /api/dsr/access` itself and is never stored: its request id answers 404 saying so.',
  ...sessionAuth(),
  request: { params: ErasureIdParams },
  errors: [409],
  responses: {
    200: {
      description: 'The archive.',
      headers: {
        ...RATE_LIMIT_HEADERS,
        'Content-Disposition': {
          description: '`attachment; filename="personal-data-<date>.zip"`',
          schema: { type: 'string' as const },
        },
      },
      content: { 'application/zip': { schema: z.string().openapi({ format: 'binary' }) } },
    },
  },
});

export const correction = defineRoute({
  method: 'patch',
  path: '/api/dsr/correction',
  operationId: 'requestCorrection',
  tags: TAGS,
  summary: "Correct the caller's name, email or date of birth",
  description:
    'Only `name`, `email` and `dateOfBirth` can be corrected; any other field is a 422. Audit-logged with the values ' +
    'before and after, and recorded as a completed `correction` request. A correction that changes nothing ' +
    '(the values given are the ones on record) writes nothing: 200 with the unchanged profile and ' +
    '`request: null`. A new `email` decides who can sign in, so it needs a session signed in within the last 15 ' +
    'minutes (otherwise 403 `/problems/recent-sign-in-required`).',
  ...sessionAuth(),
  request: { body: { required: true, content: json(CorrectionSchema) } },
  errors: [409],
  responses: {
    200: {
      description: 'The corrected profile and the request record.',
      content: json(CorrectionResultSchema),
    },
  },
});

export const erasure = defineRoute({
  method: 'delete',
  path: '/api/dsr/erasure',
  operationId: 'requestErasure',
  tags: TAGS,
  summary: "Erase all of the caller's data",
  description:
    'Disables the account and ends all its sessions at once, then deletes every record about the caller ' +
    'through a queue (certificates, submissions, evaluations, ratings, consents, requests, audit entries). ' +
    "An employer's briefs, issued certificates and given ratings are kept for the candidates under an " +
    'anonymous "Former employer". Only a receipt without personal data remains, at the `Location` given. ' +
    'Backups (D1 Time Travel) age out within 30 days. It cannot be undone, so the session must have signed in ' +
    'within the last 15 minutes (otherwise 403 `/problems/recent-sign-in-required`: sign in again and repeat).',
  ...sessionAuthBeforeGuardianConsent({ recentSignIn: 'Erasing the account' }),
  responses: {
    202: {
      description: 'Accepted; the cascade runs in the background. The session cookie is cleared.',
      headers: {
        ...RATE_LIMIT_HEADERS,
        Location: { description: 'Where to follow the receipt.', schema: { type: 'string' as const } },
      },
      content: json(ErasureReceiptSchema),
    },
  },
});

export const erasureStatus = defineRoute({
  method: 'get',
  path: '/api/dsr/erasure/{requestId}',
  operationId: 'getErasureStatus',
  tags: TAGS,
  summary: 'Follow an erasure request',
  description:
    'The receipt of an erasure: state and per-table counts, no personal data. Needs no session (the ' +
    "person's sessions end when they ask); the request id is a random UUID known only to them.",
  security: [],
  request: { params: ErasureIdParams },
  responses: {
    200: { description: 'The receipt.', content: json(ErasureReceiptSchema) },
  },
});

export const grievance = defineRoute({
  method: 'post',
  path: '/api/dsr/grievance',
  operationId: 'fileGrievance',
  idempotent: true,
  tags: TAGS,
  summary: 'File a grievance with the Data Protection Officer',
  description: 'Answered within 90 days (`dueAt`, DPDP Rules 2025 r. 14).',
  ...sessionAuth(),
  request: { body: { required: true, content: json(GrievanceSchema) } },
  responses: {
    201: { description: 'The grievance, received.', content: json(DsrRequestSchema) },
  },
});

export const nomination = defineRoute({
  method: 'post',
  path: '/api/dsr/nomination',
  operationId: 'nominateRepresentative',
  idempotent: true,
  tags: TAGS,
  summary: 'Nominate a representative',
  description:
    'The person who may exercise the caller’s rights if they die or become incapable (DPDP Act 2023 §14). ' +
    'Received by the Data Protection Officer, who confirms it (`completed`) or refuses it (`rejected`).',
  ...sessionAuth(),
  request: { body: { required: true, content: json(NominationSchema) } },
  responses: {
    201: { description: 'The nomination, received.', content: json(DsrRequestSchema) },
  },
});
