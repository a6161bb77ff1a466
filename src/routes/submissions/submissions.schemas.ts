import { z } from '@hono/zod-openapi';
import { SUBMISSION_STATES } from '../../db/schema';
import { nullableRef } from '../../http/route';
import { EvaluationSchema, RatingSchema } from '../evaluations/evaluations.schemas';
import { CommitSchema, SubmittedFileSchema } from '../v1/integrity/integrity.schemas';

export const SubmissionSchema = z
  .object({
    id: z.string(),
    briefId: z.string(),
    briefTitle: z.string(),
    milestoneId: z.string(),
    milestoneTitle: z.string(),
    state: z.enum(SUBMISSION_STATES),
    text: z.string().nullable(),
    files: z.array(SubmittedFileSchema),
    repositoryUrl: z.string().nullable(),
    commits: z.array(CommitSchema),
    createdAt: z.string().datetime(),
    evaluation: nullableRef(EvaluationSchema),
    rating: nullableRef(RatingSchema),
  })
  .openapi('Submission');

/** A character a reader sees: not white space, a control or a format character (zero-width, bidi). */
const VISIBLE = /[^\s\p{Cc}\p{Cf}]/u;

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
  .refine((b) => VISIBLE.test(b.text ?? '') || (b.files?.length ?? 0) > 0 || Boolean(b.repositoryUrl), {
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
