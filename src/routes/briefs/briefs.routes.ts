import { createRoute, z } from '@hono/zod-openapi';
import { json } from '../../lib/content';
import { cursorParam, limitParam, pageSchema } from '../../lib/paging';
import { errorResponses } from '../../lib/problem';
import { authErrors, limitedResponse, sessionAuth } from '../../lib/route-auth';
import { BriefSchema, BriefSubmissionSchema, BriefSummarySchema } from '../workflow.schemas';

const text = (max: number) => z.string().trim().min(1).max(max);

export const CreateBriefSchema = z
  .object({
    title: text(200).openapi({ example: 'Build a REST API for a todo app' }),
    domain: text(100).openapi({ example: 'web-development' }),
    description: text(20_000).openapi({
      description: 'The brief in your own words; requirements ("must", "should", bullets) become the rubric.',
    }),
    deliverables: z.array(text(500)).min(1).max(20),
    successCriteria: z.array(text(500)).min(1).max(20),
    durationDays: z.number().int().min(1).max(365),
    publish: z
      .boolean()
      .default(true)
      .openapi({ description: 'Publish at once (default), or keep as a draft.' }),
  })
  .strict()
  .openapi('CreateBriefRequest');

const BriefIdParams = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'id', in: 'path' } }),
});
const BriefPage = pageSchema(BriefSummarySchema, 'BriefPage');

export const createBrief = createRoute({
  method: 'post',
  path: '/api/briefs',
  tags: ['Briefs'],
  summary: 'Create a brief (with its rubric and playbook)',
  ...sessionAuth('employer'),
  request: { body: { required: true, content: json(CreateBriefSchema) } },
  responses: {
    201: limitedResponse('The brief.', json(BriefSchema)),
    ...authErrors(),
    ...errorResponses(400, 413, 415, 422),
  },
});

export const listBriefs = createRoute({
  method: 'get',
  path: '/api/briefs',
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
  responses: { 200: { description: 'Newest first.', content: json(BriefPage) }, ...errorResponses(400) },
});

export const myBriefs = createRoute({
  method: 'get',
  path: '/api/me/briefs',
  tags: ['Briefs'],
  summary: "The employer's own briefs, in every state",
  ...sessionAuth('employer'),
  request: { query: z.object({ limit: limitParam(20), cursor: cursorParam() }) },
  responses: {
    200: limitedResponse('Newest first.', json(BriefPage)),
    ...authErrors(),
    ...errorResponses(400),
  },
});

export const getBrief = createRoute({
  method: 'get',
  path: '/api/briefs/{id}',
  tags: ['Briefs'],
  summary: 'A published or closed brief, with its rubric and playbook',
  description: 'Drafts are visible only to their employer, at `GET /api/me/briefs/{id}`.',
  security: [],
  request: { params: BriefIdParams },
  responses: { 200: { description: 'The brief.', content: json(BriefSchema) }, ...errorResponses(400, 404) },
});

export const getMyBrief = createRoute({
  method: 'get',
  path: '/api/me/briefs/{id}',
  tags: ['Briefs'],
  summary: 'One of the employer’s own briefs, in any state',
  ...sessionAuth('employer'),
  request: { params: BriefIdParams },
  responses: {
    200: limitedResponse('The brief.', json(BriefSchema)),
    ...authErrors(),
    ...errorResponses(400, 404),
  },
});

export const changeBriefState = createRoute({
  method: 'patch',
  path: '/api/briefs/{id}',
  tags: ['Briefs'],
  summary: 'Publish or close a brief',
  description: 'draft → published → closed. Other transitions are 409; another employer’s brief is 404.',
  ...sessionAuth('employer'),
  request: {
    params: BriefIdParams,
    body: {
      required: true,
      content: json(
        z
          .object({ state: z.enum(['published', 'closed']) })
          .strict()
          .openapi('ChangeBriefStateRequest'),
      ),
    },
  },
  responses: {
    200: limitedResponse('The brief.', json(BriefSchema)),
    ...authErrors(),
    ...errorResponses(400, 404, 409, 413, 415, 422),
  },
});

export const briefSubmissions = createRoute({
  method: 'get',
  path: '/api/briefs/{id}/submissions',
  tags: ['Briefs'],
  summary: "Submissions to the employer's brief",
  description:
    'Only the employer who owns the brief (others: 404). The AI verdict of each stays hidden until the employer has rated it.',
  ...sessionAuth('employer'),
  request: { params: BriefIdParams, query: z.object({ limit: limitParam(20), cursor: cursorParam() }) },
  responses: {
    200: limitedResponse('Newest first.', json(pageSchema(BriefSubmissionSchema, 'BriefSubmissionPage'))),
    ...authErrors(),
    ...errorResponses(400, 404),
  },
});
