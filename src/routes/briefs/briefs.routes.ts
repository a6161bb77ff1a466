import { z } from '@hono/zod-openapi';
import { defineRoute, IdParams } from '../../http/route';
import { sessionAuth } from '../../http/route-auth';
import { json } from '../../lib/content';
import { cursorParam, limitParam, pageSchema } from '../../lib/paging';
import { errorResponses } from '../../lib/problem';
import {
  BriefPageSchema,
  BriefSchema,
  BriefSubmissionSchema,
  CreateBriefSchema,
  ValidForMonths,
} from './briefs.schemas';

export const createBrief = defineRoute({
  method: 'post',
  path: '/api/briefs',
  operationId: 'createBrief',
  idempotent: true,
  tags: ['Briefs'],
  summary: 'Create a brief (with its rubric and playbook)',
  description:
    'With `publish: true` it is open to candidates at once. An organisation the platform suspended or rejected ' +
    'cannot publish (409); it may still write drafts.',
  ...sessionAuth('employer'),
  request: { body: { required: true, content: json(CreateBriefSchema) } },
  errors: [409],
  responses: {
    201: { description: 'The brief.', content: json(BriefSchema) },
  },
});

export const listBriefs = defineRoute({
  method: 'get',
  path: '/api/briefs',
  operationId: 'listBriefs',
  tags: ['Briefs'],
  summary: 'Published briefs',
  security: [],
  request: {
    query: z.object({
      domain: z
        .string()
        .max(100)
        .optional()
        .openapi({ param: { name: 'domain', in: 'query' } }),
      state: z
        .enum(['published', 'closed'])
        .default('published')
        .openapi({ param: { name: 'state', in: 'query' } }),
      limit: limitParam(20),
      cursor: cursorParam(),
    }),
  },
  responses: {
    200: { description: 'Newest first.', content: json(BriefPageSchema) },
    ...errorResponses(400),
  },
});

export const getBrief = defineRoute({
  method: 'get',
  path: '/api/briefs/{id}',
  operationId: 'getBrief',
  tags: ['Briefs'],
  summary: 'A published or closed brief, with its rubric and playbook',
  description: 'Drafts are visible only to their employer, at `GET /api/me/briefs/{id}`.',
  security: [],
  request: { params: IdParams },
  responses: { 200: { description: 'The brief.', content: json(BriefSchema) }, ...errorResponses(400, 404) },
});

export const changeBriefState = defineRoute({
  method: 'patch',
  path: '/api/briefs/{id}',
  operationId: 'changeBriefState',
  tags: ['Briefs'],
  summary: 'Publish or close a brief, or set its certificates’ validity',
  description:
    '`state`: draft → published → closed; other transitions are 409, and so is publishing while the organisation is ' +
    'suspended or rejected by the platform. `validForMonths`: the validity of certificates ' +
    'issued from now on (null: no expiry; certificates already issued keep theirs). Another employer’s brief is 404.',
  ...sessionAuth('employer'),
  request: {
    params: IdParams,
    body: {
      required: true,
      content: json(
        z
          .object({
            state: z.enum(['published', 'closed']).optional(),
            validForMonths: ValidForMonths.optional(),
          })
          .strict()
          .refine((b) => b.state !== undefined || b.validForMonths !== undefined, {
            message: 'Give `state`, `validForMonths` or both.',
          })
          .openapi('ChangeBriefStateRequest'),
      ),
    },
  },
  errors: [409],
  responses: {
    200: { description: 'The brief.', content: json(BriefSchema) },
  },
});

export const briefSubmissions = defineRoute({
  method: 'get',
  path: '/api/briefs/{id}/submissions',
  operationId: 'listBriefSubmissions',
  tags: ['Briefs'],
  summary: "Submissions to the employer's brief",
  description:
    'Only the employer who owns the brief (others: 404). The AI verdict of each stays hidden until the employer has rated it.',
  ...sessionAuth('employer'),
  request: { params: IdParams, query: z.object({ limit: limitParam(20), cursor: cursorParam() }) },
  responses: {
    200: {
      description: 'Newest first.',
      content: json(pageSchema(BriefSubmissionSchema, 'BriefSubmissionPage')),
    },
  },
});
