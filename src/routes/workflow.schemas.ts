/** Response shapes shared by the brief, submission and evaluation routes. */
import { z } from '@hono/zod-openapi';
import { SUBMISSION_STATES } from '../db/schema';
import {
  CriterionScoreSchema,
  EngineSchema,
  RubricCriterionSchema,
  RubricPreviewSchema,
} from '../services/pillars/schemas';
import { CommitSchema, SubmittedFileSchema } from './pillars/integrity.schemas';

export const BriefSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    domain: z.string(),
    description: z.string(),
    deliverables: z.array(z.string()),
    successCriteria: z.array(z.string()),
    durationDays: z.number().int(),
    state: z.enum(['draft', 'published', 'closed']),
    employer: z.object({ name: z.string() }),
    createdAt: z.string().datetime(),
    publishedAt: z.string().datetime().nullable(),
    closedAt: z.string().datetime().nullable(),
    rubric: z.object({
      criteria: z.array(RubricCriterionSchema),
      passThreshold: z.number(),
      engine: EngineSchema,
    }),
    playbook: z.object({
      milestones: z.array(
        z.object({
          id: z.string().openapi({ description: 'The milestone id to submit work against.' }),
          day: z.number().int(),
          title: z.string(),
          tasks: z.array(z.string()),
          tutorial_links: z.array(z.string()),
          final: z.boolean().openapi({ description: 'Rating this milestone `pass` issues the certificate.' }),
        }),
      ),
      rubric_preview: RubricPreviewSchema,
      engine: EngineSchema,
    }),
  })
  .openapi('Brief');

export const BriefSummarySchema = z
  .object({
    id: z.string(),
    title: z.string(),
    domain: z.string(),
    state: z.enum(['draft', 'published', 'closed']),
    durationDays: z.number().int(),
    employer: z.object({ name: z.string() }),
    createdAt: z.string().datetime(),
  })
  .openapi('BriefSummary');

export const EvaluationSchema = z
  .object({
    id: z.string(),
    state: z.enum(['pending', 'completed', 'failed']),
    aiEvaluated: z
      .boolean()
      .openapi({ description: 'False when the candidate has not consented to AI evaluation.' }),
    hiddenUntilRated: z
      .boolean()
      .openapi({ description: 'True for the employer until they have rated (blind rating).' }),
    ai: z
      .object({
        overallScore: z.number().int().nullable(),
        verdict: z.enum(['pass', 'fail']).nullable(),
        criterionScores: z.array(CriterionScoreSchema),
        engine: z.string().nullable(),
        integrity: z.record(z.string(), z.unknown()).nullable(),
      })
      .nullable(),
    failureReason: z.string().nullable(),
    completedAt: z.string().datetime().nullable(),
  })
  .openapi('Evaluation');

export const RatingSchema = z
  .object({
    id: z.string(),
    score: z.number().int().min(1).max(5),
    verdict: z.enum(['pass', 'fail']),
    comment: z.string().nullable(),
    createdAt: z.string().datetime(),
  })
  .openapi('EmployerRating');

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
    evaluation: EvaluationSchema.nullable(),
    rating: RatingSchema.nullable(),
  })
  .openapi('Submission');

export const BriefSubmissionSchema = z
  .object({
    id: z.string(),
    milestoneId: z.string(),
    milestoneTitle: z.string(),
    state: z.enum(SUBMISSION_STATES),
    candidate: z.object({ name: z.string() }),
    text: z.string().nullable(),
    files: z.array(SubmittedFileSchema),
    repositoryUrl: z.string().nullable(),
    commits: z.array(CommitSchema),
    createdAt: z.string().datetime(),
    evaluationId: z.string().nullable(),
    evaluation: EvaluationSchema.nullable(),
    rating: RatingSchema.nullable(),
  })
  .openapi('BriefSubmission');
