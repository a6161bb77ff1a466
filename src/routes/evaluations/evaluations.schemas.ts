import { z } from '@hono/zod-openapi';
import { CriterionScoreSchema } from '../../services/pillars/schemas';

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
    integrity: z
      .object({
        score: z.number().openapi({ description: '0–100, higher meaning more trustworthy.' }),
        verdict: z.enum(['clean', 'review', 'flagged']),
        plagiarismRisk: z.number(),
        aiContentRisk: z.number(),
        vcsHistoryRisk: z.number(),
      })
      .nullable()
      .openapi({
        description:
          'The integrity check of the submitted work (plagiarism against every stored submission, AI-content and VCS ' +
          'history risks, each 0–1), shown to the employer before they rate as well: it is evidence about who did the ' +
          'work, not the AI’s assessment of its quality, which stays hidden until they have rated. Null when the work ' +
          'was not AI-evaluated or the evaluation did not complete.',
      }),
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

export const RateSchema = z
  .object({
    score: z.number().int().min(1).max(5).openapi({ example: 4 }),
    verdict: z.enum(['pass', 'fail']),
    comment: z.string().trim().max(2000).optional(),
  })
  .strict()
  .openapi('EmployerRatingRequest');

export const RatedSchema = z
  .object({
    rating: RatingSchema,
    evaluation: EvaluationSchema.openapi({
      description: 'Now revealed: the AI verdict the employer could not see before rating.',
    }),
    certificate: z
      .object({
        certificateNo: z.string(),
        status: z.enum(['active', 'pending_issuer']).openapi({
          description:
            '`active` when the organisation is verified; `pending_issuer` until it is (then issued automatically).',
        }),
        verifyUrl: z.string().url(),
      })
      .nullable()
      .openapi({
        description:
          'Earned when this pass completes the brief: every milestone has a submission by the candidate rated `pass`.',
      }),
  })
  .openapi('EmployerRatingResult');
