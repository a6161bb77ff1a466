import { z } from '@hono/zod-openapi';
import { SUBMISSION_STATES } from '../../db/schema';
import { nullableRef } from '../../http/route';
import { shownName, shownText } from '../../http/validation';
import { pageSchema } from '../../lib/paging';
import { EngineSchema, RubricCriterionSchema, RubricPreviewSchema } from '../../services/pillars/schemas';
import { EvaluationSchema, RatingSchema } from '../evaluations/evaluations.schemas';
import { CommitSchema, SubmittedFileSchema } from '../v1/integrity/integrity.schemas';

export const BriefSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    domain: z.string(),
    description: z.string(),
    deliverables: z.array(z.string()),
    successCriteria: z.array(z.string()),
    durationDays: z.number().int(),
    validForMonths: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'How long its certificates are valid, in months; null: they do not expire.' }),
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
    evaluation: nullableRef(EvaluationSchema),
    rating: nullableRef(RatingSchema),
  })
  .openapi('BriefSubmission');

const text = (max: number) => z.string().trim().min(1).max(max);

export const ValidForMonths = z
  .number()
  .int()
  .min(1)
  .max(120)
  .nullable()
  .openapi({
    description:
      'How long certificates of this brief are valid, in months (1–120): their credentials carry `validUntil`, and ' +
      'verification says `expired` after it. Null or absent: they do not expire.',
    example: 24,
  });

/**
 * Inline in the document, not a named component: generators (openapi-typescript) type a
 * component property that has a `default` as required, while in a request body it is optional.
 */
export const CreateBriefSchema = z
  .object({
    title: shownText(200).openapi({ example: 'Build a REST API for a todo app' }),
    // Names a public leaderboard: no word may mix scripts ("wеb-development" with a Cyrillic е would
    // be a look-alike board of its own).
    domain: shownName(100).openapi({ example: 'web-development' }),
    description: text(20_000).openapi({
      description: 'The brief in your own words; requirements ("must", "should", bullets) become the rubric.',
    }),
    deliverables: z.array(text(500)).min(1).max(20),
    successCriteria: z.array(text(500)).min(1).max(20),
    durationDays: z.number().int().min(1).max(365),
    validForMonths: ValidForMonths.optional(),
    publish: z
      .boolean()
      .default(true)
      .openapi({ description: 'Publish at once (default), or keep as a draft.' }),
  })
  .strict();

export const BriefPageSchema = pageSchema(BriefSummarySchema, 'BriefPage');
