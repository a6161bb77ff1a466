import { z } from '@hono/zod-openapi';
import { defineRoute, IdParams } from '../../http/route';
import { sessionAuth, sessionAuthBeforeGuardianConsent } from '../../http/route-auth';
import { json } from '../../lib/content';
import { cursorParam, limitParam } from '../../lib/paging';
import { RATE_LIMIT_HEADERS } from '../../lib/problem';
import { ConsentReceiptSchema, ConsentRequestSchema, ConsentsSchema } from '../consent/consent.schemas';
import {
  CorrectionResultSchema,
  CorrectionSchema,
  DsrRequestSchema,
  ErasureReceiptSchema,
  GrievanceSchema,
} from '../dsr/dsr.schemas';
import {
  ApproveGuardianSchema,
  GuardianRequestListSchema,
  GuardianRequestSchema,
  GuardianStatusSchema,
  NameGuardianSchema,
  WardListSchema,
} from './guardian.schemas';

const TAGS = ['Data rights'];
const WARD =
  'The caller must be the approved parent or lawful guardian of this child, who is still under 18; anyone else ' +
  'gets 404. ';

export const getMyGuardian = defineRoute({
  method: 'get',
  path: '/api/me/guardian',
  operationId: 'getMyGuardianStatus',
  tags: TAGS,
  summary: "Whether the caller is a child, and their guardian's consent",
  description:
    'DPDP §9: a child (under 18) needs the verifiable consent of a parent or lawful guardian before anything ' +
    'beyond the signup. Available before that consent is given.',
  ...sessionAuthBeforeGuardianConsent(),
  responses: { 200: { description: 'The status.', content: json(GuardianStatusSchema) } },
});

export const nameMyGuardian = defineRoute({
  method: 'post',
  path: '/api/me/guardian',
  operationId: 'nameMyGuardian',
  idempotent: true,
  tags: TAGS,
  summary: 'Name a (new) parent or guardian to consent',
  description:
    'A child whose request was refused, or who named the wrong person, names another guardian: a pending request ' +
    'ends and a new one is pending. 409 for an adult, or once a guardian has approved (that guardian withdraws ' +
    'first). Available before consent is given.',
  ...sessionAuthBeforeGuardianConsent(),
  errors: [409],
  request: { body: { required: true, content: json(NameGuardianSchema) } },
  responses: { 201: { description: 'The new status.', content: json(GuardianStatusSchema) } },
});

export const listGuardianRequests = defineRoute({
  method: 'get',
  path: '/api/guardian/requests',
  operationId: 'listGuardianRequests',
  tags: TAGS,
  summary: 'Requests from children naming the caller as their guardian',
  description: 'Pending requests whose guardian email is the caller’s, newest first (at most 100).',
  ...sessionAuth(),
  responses: { 200: { description: 'The requests.', content: json(GuardianRequestListSchema) } },
});

const DECIDE_TAIL = 'Only a pending request naming the caller’s email; anything else is a 404. Audited.';

export const approveGuardianRequest = defineRoute({
  method: 'post',
  path: '/api/guardian/requests/{id}/approve',
  operationId: 'approveGuardianRequest',
  idempotent: true,
  tags: TAGS,
  summary: "Give verifiable consent for a child's account",
  description:
    'DPDP Rules 2025, Rule 10(1)(a): the caller is an adult known to the service (their own account records a date ' +
    'of birth at least 18 years ago; otherwise 403 `guardian-not-eligible`) and declares being the parent or lawful ' +
    "guardian. The child's account is then usable, within the rules for children; 409 if the child has turned 18. " +
    DECIDE_TAIL,
  ...sessionAuth(),
  errors: [409],
  request: { params: IdParams, body: { required: true, content: json(ApproveGuardianSchema) } },
  responses: { 200: { description: 'The approved request.', content: json(GuardianRequestSchema) } },
});

export const refuseGuardianRequest = defineRoute({
  method: 'post',
  path: '/api/guardian/requests/{id}/refuse',
  operationId: 'refuseGuardianRequest',
  idempotent: true,
  tags: TAGS,
  summary: "Refuse consent for a child's account",
  description: `The child stays limited to their signup and may name another guardian. ${DECIDE_TAIL}`,
  ...sessionAuth(),
  errors: [409],
  request: { params: IdParams },
  responses: { 200: { description: 'The refused request.', content: json(GuardianRequestSchema) } },
});

export const listWards = defineRoute({
  method: 'get',
  path: '/api/guardian/wards',
  operationId: 'listWards',
  tags: TAGS,
  summary: 'The children the caller is guardian of',
  ...sessionAuth(),
  responses: { 200: { description: 'The wards.', content: json(WardListSchema) } },
});

export const withdrawGuardianship = defineRoute({
  method: 'delete',
  path: '/api/guardian/wards/{id}',
  operationId: 'withdrawGuardianConsent',
  tags: TAGS,
  summary: 'Withdraw consent for a child altogether',
  description:
    WARD +
    "The link ends, the consents the guardian gave are withdrawn, and the child's account is limited to its signup " +
    'until a guardian approves again.',
  ...sessionAuth(),
  request: { params: IdParams },
  responses: { 204: { description: 'Withdrawn.' } },
});

export const wardConsents = defineRoute({
  method: 'get',
  path: '/api/guardian/wards/{id}/consents',
  operationId: 'getWardConsents',
  tags: TAGS,
  summary: "The child's consents",
  description: `${WARD}State per purpose and a page of the history, newest first, as \`GET /api/me/consents\`.`,
  ...sessionAuth(),
  request: { params: IdParams, query: z.object({ limit: limitParam(50), cursor: cursorParam() }) },
  responses: {
    200: { description: 'State and history, as the child would see them.', content: json(ConsentsSchema) },
  },
});

export const recordWardConsent = defineRoute({
  method: 'post',
  path: '/api/guardian/wards/{id}/consents',
  operationId: 'recordWardConsent',
  idempotent: true,
  tags: TAGS,
  summary: 'Grant or withdraw consent for the child',
  description:
    WARD +
    'A guardian may grant `ai_evaluation` only: a child is never on the leaderboard, never named on certificate ' +
    'verification, and their work never enters the integrity corpus (DPDP §9(3)); granting those is a 422 at ' +
    '`#/purpose`. Withdrawals of any purpose are accepted. Recorded with the guardian as who gave it.',
  ...sessionAuth(),
  request: { params: IdParams, body: { required: true, content: json(ConsentRequestSchema) } },
  responses: { 201: { description: 'The receipt.', content: json(ConsentReceiptSchema) } },
});

export const wardAccess = defineRoute({
  method: 'get',
  path: '/api/guardian/wards/{id}/access',
  operationId: 'exportWardData',
  tags: TAGS,
  summary: 'Export every record about the child',
  description: `${WARD}The archive of \`GET /api/dsr/access\`, for the child; recorded as the child's \`access\` request.`,
  ...sessionAuth(),
  request: { params: IdParams },
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

export const wardCorrection = defineRoute({
  method: 'patch',
  path: '/api/guardian/wards/{id}/correction',
  operationId: 'correctWardData',
  tags: TAGS,
  summary: "Correct the child's name or email",
  description: `${WARD}As \`PATCH /api/dsr/correction\`, for the child.`,
  ...sessionAuth(),
  errors: [409],
  request: { params: IdParams, body: { required: true, content: json(CorrectionSchema) } },
  responses: {
    200: { description: 'The corrected profile and the request.', content: json(CorrectionResultSchema) },
  },
});

export const wardErasure = defineRoute({
  method: 'delete',
  path: '/api/guardian/wards/{id}/erasure',
  operationId: 'eraseWardData',
  tags: TAGS,
  summary: "Erase all of the child's data",
  description: `${WARD}As \`DELETE /api/dsr/erasure\`, for the child: their account is disabled at once. The guardian's session must have signed in within the last 15 minutes (otherwise 403 \`/problems/recent-sign-in-required\`).`,
  ...sessionAuth(),
  request: { params: IdParams },
  responses: {
    202: {
      description: 'Accepted; the cascade runs in the background.',
      headers: {
        ...RATE_LIMIT_HEADERS,
        Location: { description: 'Where to follow the receipt.', schema: { type: 'string' as const } },
      },
      content: json(ErasureReceiptSchema),
    },
  },
});

export const wardGrievance = defineRoute({
  method: 'post',
  path: '/api/guardian/wards/{id}/grievance',
  operationId: 'fileWardGrievance',
  idempotent: true,
  tags: TAGS,
  summary: 'File a grievance for the child',
  description: `${WARD}Recorded as the child's grievance, due in 90 days.`,
  ...sessionAuth(),
  request: { params: IdParams, body: { required: true, content: json(GrievanceSchema) } },
  responses: { 201: { description: 'The grievance, received.', content: json(DsrRequestSchema) } },
});
