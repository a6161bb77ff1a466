import { z } from '@hono/zod-openapi';
import { EngineSchema, FallbackReasonSchema, RubricCriterionSchema } from '../../../services/pillars/schemas';
import { nonEmpty } from '../playbooks/playbooks.schemas';

export const RubricRequestSchema = z
  .object({
    brief: nonEmpty(20_000).openapi({
      description: 'The brief as unstructured text.',
      example:
        'We need a REST API for our todo app. It must expose CRUD endpoints for tasks. The API should return RFC 9457 errors. We expect a test suite covering every endpoint.',
    }),
    domain: nonEmpty(100).optional().openapi({ example: 'web-development' }),
  })
  .strict()
  .openapi('RubricRequest');

export const RubricResponseSchema = z
  .object({
    criteria: z.array(RubricCriterionSchema),
    passThreshold: z.number().openapi({ description: 'Minimum weighted score (1–5) for a pass.' }),
    engine: EngineSchema,
    fallbackReason: FallbackReasonSchema,
    outOfScope: z.array(z.string()).openapi({
      description:
        'What the brief leaves out of the work ("Do NOT include …", "no need for …", "avoid …", "… is out of scope"), ' +
        "in the brief's own words. Scope, not criteria: these carry no weight and no criterion grades them, unless " +
        'the brief says outright that doing one costs marks. Empty when the brief excludes nothing.',
      example: ['a review of the SOW annexures', 'formatting or numbering of clauses'],
    }),
    warnings: z.array(z.string()).openapi({
      description:
        'What this rubric cannot stand behind, in sentences for the person using it; empty when nothing. Today: a ' +
        'brief that states no requirement at all (its criteria are then read from its wording).',
    }),
  })
  .openapi('Rubric', {
    description: 'Criteria with weights summing to 100, five levels each, and the quoted source sentence.',
  });
