import { createRoute, z } from '@hono/zod-openapi';
import { SUBMISSION_STATES } from '../../db/schema';
import { json } from '../../lib/content';
import { cursorParam, limitParam, pageSchema } from '../../lib/paging';
import { errorResponses } from '../../lib/problem';
import { authErrors, limitedResponse, sessionAuth } from '../../lib/route-auth';
import { CommitSchema, SubmittedFileSchema } from '../pillars/integrity.schemas';
import { SubmissionSchema } from '../workflow.schemas';

export const CreateSubmissionSchema = z
  .object({
    milestoneId: z.string().min(1).max(64),
    text: z.string().max(200_000).optional(),
    files: z.array(SubmittedFileSchema).max(100).optional(),
    repositoryUrl: z
      .string()
      .max(500)
      .regex(/^https?:\/\//, 'Must be an http(s) URL')
      .url()
      .optional()
      .openapi({
        description: 'Stored as given; the service never fetches it.',
        example: 'https://github.com/ravi/todo-api',
      }),
    commits: z.array(CommitSchema).max(2000).optional(),
  })
  .strict()
  .refine((b) => Boolean(b.text?.trim()) || (b.files?.length ?? 0) > 0 || Boolean(b.repositoryUrl), {
    message: 'Send text, files or a repository URL',
  })
  .openapi('CreateSubmissionRequest');

export const CreatedSubmissionSchema = z
  .object({
    id: z.string(),
    state: z.enum(SUBMISSION_STATES),
    briefId: z.string(),
    milestoneId: z.string(),
    evaluationId: z.string(),
    aiEvaluation: z
      .boolean()
      .openapi({ description: 'Whether the AI evaluation runs (the candidate’s `ai_evaluation` consent).' }),
    createdAt: z.string().datetime(),
  })
  .openapi('CreatedSubmission');

const IdParams = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'id', in: 'path' } }),
});

export const createSubmission = createRoute({
  method: 'post',
  path: '/api/submissions',
  tags: ['Submissions'],
  summary: 'Submit work for a milestone',
  description:
    'For a milestone of a published brief. The integrity check and AI evaluation run after the response when the candidate ' +
    'consents to `ai_evaluation`; otherwise the work goes straight to the employer.',
  ...sessionAuth('candidate'),
  request: { body: { required: true, content: json(CreateSubmissionSchema) } },
  responses: {
    201: limitedResponse('The submission.', json(CreatedSubmissionSchema)),
    ...authErrors(),
    ...errorResponses(400, 404, 409, 413, 415, 422),
  },
});

export const listSubmissions = createRoute({
  method: 'get',
  path: '/api/submissions',
  tags: ['Submissions'],
  summary: "The caller's submissions",
  description: 'Only the caller’s own, newest first.',
  ...sessionAuth('candidate'),
  request: {
    query: z.object({
      briefId: z
        .string()
        .max(64)
        .optional()
        .openapi({ param: { name: 'briefId', in: 'query' } }),
      state: z
        .enum(SUBMISSION_STATES)
        .optional()
        .openapi({ param: { name: 'state', in: 'query' } }),
      limit: limitParam(20),
      cursor: cursorParam(),
    }),
  },
  responses: {
    200: limitedResponse('A page of submissions.', json(pageSchema(SubmissionSchema, 'SubmissionPage'))),
    ...authErrors(),
    ...errorResponses(400),
  },
});

export const getSubmission = createRoute({
  method: 'get',
  path: '/api/submissions/{id}',
  tags: ['Submissions'],
  summary: 'One of the caller’s submissions',
  description: 'Another candidate’s submission is a 404.',
  ...sessionAuth('candidate'),
  request: { params: IdParams },
  responses: {
    200: limitedResponse('The submission.', json(SubmissionSchema)),
    ...authErrors(),
    ...errorResponses(400, 404),
  },
});
