import { z } from '@hono/zod-openapi';
import {
  EngineSchema,
  FallbackReasonSchema,
  MilestoneSchema,
  RubricPreviewSchema,
} from '../../../services/pillars/schemas';

/** A required, trimmed, non-empty string of at most `max` characters. */
export const nonEmpty = (max: number) => z.string().trim().min(1).max(max);

/** A structured brief for playbook generation: all five fields required. */
export const PlaybookBriefSchema = z
  .object({
    title: nonEmpty(200).openapi({ example: 'Build a REST API for a todo app' }),
    deliverables: z
      .array(nonEmpty(500))
      .min(1)
      .max(20)
      .openapi({ example: ['A deployed REST API', 'An OpenAPI description', 'A test suite'] }),
    successCriteria: z
      .array(nonEmpty(500))
      .min(1)
      .max(20)
      .openapi({ example: ['All endpoints return RFC 9457 errors', 'Tests cover every endpoint'] }),
    durationDays: z.number().int().min(1).max(365).openapi({ example: 14 }),
    domain: nonEmpty(100).openapi({ example: 'web-development' }),
  })
  .strict()
  .openapi('PlaybookBrief');

export const PlaybookSchema = z
  .object({
    milestones: z.array(MilestoneSchema),
    rubric_preview: RubricPreviewSchema,
    confidence: z
      .enum(['high', 'medium', 'low'])
      .optional()
      .openapi({
        description:
          "How well the platform's knowledge base knows the brief's field. `low`: a deliberately general plan without " +
          'tutorial links, because the field was not recognised; `medium`: a known field whose deliverables were only partly recognised.',
      }),
    engine: EngineSchema,
    fallbackReason: FallbackReasonSchema,
  })
  .openapi('Playbook', {
    description: 'Milestones (each with an `id`) and a `rubric_preview`, plus the engine that produced it.',
  });
