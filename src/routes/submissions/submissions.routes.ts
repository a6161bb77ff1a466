import { z } from '@hono/zod-openapi';
import { SUBMISSION_STATES } from '../../db/schema';
import { defineRoute, IdParams } from '../../http/route';
import { sessionAuth } from '../../http/route-auth';
import { json } from '../../lib/content';
import { cursorParam, limitParam, pageSchema } from '../../lib/paging';
import { CreatedSubmissionSchema, CreateSubmissionSchema, SubmissionSchema } from './submissions.schemas';

export const createSubmission = defineRoute({
  method: 'post',
  path: '/api/submissions',
  operationId: 'createSubmission',
  idempotent: true,
  tags: ['Submissions'],
  summary: 'Submit work for a milestone',
  description:
    'For a milestone of a published brief whose organisation is in good standing (a brief of an organisation the ' +
    'platform suspended or rejected takes no submissions meanwhile: 409). The integrity check and AI evaluation run after the response when the candidate ' +
    'consents to `ai_evaluation`; otherwise the work goes straight to the employer. Storage is bounded (the ' +
    'defaults; each is a deployment var, see docs/security.md): 256 KiB of content per submission (text, files and ' +
    'commit list together; 413 `payload-too-large`), 5 submissions per milestone, 20 per 24 hours and 16 MiB of ' +
    'storage per account (429 `submission-limit-reached`, the limit named in `detail`; `Retry-After` on the daily ' +
    'limit). At most 2,000 fingerprints are stored per submission, and only when the candidate consents to ' +
    '`integrity_corpus` (otherwise the work is checked against the corpus but not added to it).',
  ...sessionAuth('candidate'),
  request: { body: { required: true, content: json(CreateSubmissionSchema) } },
  errors: [404, 409, 503],
  responses: {
    201: { description: 'The submission.', content: json(CreatedSubmissionSchema) },
  },
});

export const listSubmissions = defineRoute({
  method: 'get',
  path: '/api/submissions',
  operationId: 'listSubmissions',
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
    200: {
      description: 'A page of submissions.',
      content: json(pageSchema(SubmissionSchema, 'SubmissionPage')),
    },
  },
});

export const getSubmission = defineRoute({
  method: 'get',
  path: '/api/submissions/{id}',
  operationId: 'getSubmission',
  tags: ['Submissions'],
  summary: 'One of the caller’s submissions',
  description: 'Another candidate’s submission is a 404.',
  ...sessionAuth('candidate'),
  request: { params: IdParams },
  responses: {
    200: { description: 'The submission.', content: json(SubmissionSchema) },
  },
});
