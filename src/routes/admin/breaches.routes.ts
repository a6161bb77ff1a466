import { defineRoute, IdParams } from '../../http/route';
import { sessionAuth } from '../../http/route-auth';
import { json } from '../../lib/content';
import {
  BoardStepRequestSchema,
  BreachListSchema,
  BreachQuerySchema,
  BreachSchema,
  CreateBreachSchema,
} from './breaches.schemas';

export const createBreach = defineRoute({
  method: 'post',
  path: '/api/admin/breaches',
  operationId: 'recordBreach',
  idempotent: true,
  tags: ['Data rights'],
  summary: 'Record a personal data breach',
  description:
    'DPDP §8(6), Rule 7. Every affected person gets an in-app notice (`GET /api/me/notices`) and an email ' +
    '(outbox): at once for `affectedUserIds` (at most 500), or a page of 100 at a time through the job queue for ' +
    'a selector (`affected.query`), which reaches any number of people. The notice says what happened and when ' +
    '(`occurredAt`, when known), the data concerned, what it may mean for the person (`consequences`, Rule ' +
    '7(1)(b)), what was done and what they can do. `foundAt` and `occurredAt` may not be in the future (5 ' +
    "minutes' clock skew allowed), and `occurredAt` may not be after `foundAt` (422 at the field). The " +
    "Board's intimation is due at once and the detailed report 72 hours after `foundAt`. Audited.",
  ...sessionAuth('admin'),
  request: { body: { required: true, content: json(CreateBreachSchema) } },
  responses: { 201: { description: 'The breach.', content: json(BreachSchema) } },
});

export const listBreaches = defineRoute({
  method: 'get',
  path: '/api/admin/breaches',
  operationId: 'listBreaches',
  tags: ['Data rights'],
  summary: 'Breaches and their Board deadlines',
  description: 'Newest first (at most 100); `overdue=true` keeps those with a Board step past due.',
  ...sessionAuth('admin'),
  request: { query: BreachQuerySchema },
  responses: { 200: { description: 'The breaches.', content: json(BreachListSchema) } },
});

export const markBreachBoardStep = defineRoute({
  method: 'post',
  path: '/api/admin/breaches/{id}/board',
  operationId: 'markBreachBoardStep',
  idempotent: true,
  tags: ['Data rights'],
  summary: "Record that the Board's intimation or report was sent",
  ...sessionAuth('admin'),
  errors: [409],
  request: { params: IdParams, body: { required: true, content: json(BoardStepRequestSchema) } },
  responses: { 200: { description: 'The breach.', content: json(BreachSchema) } },
});
