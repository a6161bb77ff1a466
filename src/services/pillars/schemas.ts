/**
 * zod schemas of what the pillar engines produce. They validate Workers AI output (which is
 * untrusted until it passes), give Workers AI its JSON schema (JSON mode), and document the
 * responses in OpenAPI.
 */
import { z } from '@hono/zod-openapi';

export const ENGINE_NAMES = ['workers-ai', 'local'] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];

export const EngineSchema = z.enum(ENGINE_NAMES).openapi({
  description: 'Which engine produced the result: Workers AI, or the deterministic local engine.',
});

export const FallbackReasonSchema = z.string().optional().openapi({
  description:
    'Present when Workers AI was tried and failed (error, timeout or invalid output): why the local engine answered.',
});

export const RubricLevelSchema = z.object({
  score: z.number().int().min(1).max(5),
  descriptor: z.string().min(1).max(500),
});

export const RubricCriterionSchema = z
  .object({
    id: z.string().min(1).max(40),
    name: z.string().min(1).max(120),
    description: z.string().min(1).max(1000),
    weight: z.number().int().min(1).max(100),
    levels: z.array(RubricLevelSchema).length(5),
    source: z
      .string()
      .min(1)
      .max(2000)
      .openapi({ description: 'The brief sentence this criterion came from, quoted.' }),
  })
  .openapi('RubricCriterion');

export const RubricSchema = z
  .object({
    criteria: z.array(RubricCriterionSchema).min(1).max(8),
    passThreshold: z
      .number()
      .min(1)
      .max(5)
      .openapi({ description: 'Minimum weighted score (1–5) for a pass.' }),
  })
  .refine((r) => r.criteria.reduce((sum, c) => sum + c.weight, 0) === 100, {
    message: 'Criterion weights must sum to 100',
    path: ['criteria'],
  });

export const MilestoneSchema = z
  .object({
    id: z.string().min(1).max(40),
    day: z.number().int().min(1).max(365),
    title: z.string().min(1).max(200),
    tasks: z.array(z.string().min(1).max(1000)).min(1).max(30),
    tutorial_links: z.array(z.string().url()).max(10),
  })
  .openapi('Milestone');

export const RubricPreviewSchema = z
  .object({
    criteria: z.array(z.object({ id: z.string(), name: z.string(), weight: z.number().int() })).openapi({
      description: 'The criteria the work will be judged on, with their weights (summing to 100).',
    }),
    passThreshold: z.number().openapi({ description: 'Minimum weighted score (1–5) for a pass.' }),
  })
  .openapi('RubricPreview', {
    description:
      'A preview of the rubric extracted from the brief: criterion ids, names and weights, and the pass threshold.',
  });

export const PlaybookSchema = z.object({
  milestones: z.array(MilestoneSchema).min(1).max(60),
  rubric_preview: RubricPreviewSchema,
});

export const CriterionScoreSchema = z
  .object({
    criterionId: z.string().min(1),
    score: z.number().int().min(1).max(5),
    explanation: z.string().min(1).max(2000),
  })
  .openapi('CriterionScore');

export const SubmissionScoreSchema = z.object({
  criterionScores: z.array(CriterionScoreSchema).min(1),
  overallScore: z.number().int().min(1).max(5),
  verdict: z.enum(['pass', 'fail']),
});

/** What Workers AI is asked for when judging AI-written text; blended with stylometry. */
export const AiTextJudgementSchema = z.object({
  likelihood: z.number().min(0).max(1),
  reasons: z.array(z.string().max(300)).max(5),
});
