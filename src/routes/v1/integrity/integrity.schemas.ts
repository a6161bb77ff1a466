import { z } from '@hono/zod-openapi';
import { EngineSchema, FallbackReasonSchema } from '../../../services/pillars/schemas';

export const SubmittedFileSchema = z
  .object({
    path: z.string().trim().min(1).max(300).openapi({ example: 'src/index.ts' }),
    content: z.string().max(1_000_000),
  })
  .strict()
  .openapi('SubmittedFile');

export const CommitSchema = z
  .object({
    sha: z.string().trim().min(4).max(64).openapi({ example: '9fceb02d0ae598e95dc970b74767f19372d61af8' }),
    authorEmail: z.string().max(254).openapi({ example: 'ravi@example.com' }),
    authoredAt: z.string().datetime({ offset: true }).openapi({ example: '2026-11-02T10:15:00Z' }),
    message: z.string().max(5000),
    additions: z.number().int().min(0).max(10_000_000),
    deletions: z.number().int().min(0).max(10_000_000),
  })
  .strict()
  .openapi('Commit');

export const IntegrityRequestSchema = z
  .object({
    text: z.string().max(2_000_000).optional().openapi({ description: 'Prose of the submission.' }),
    files: z.array(SubmittedFileSchema).max(200).optional(),
    commits: z
      .array(CommitSchema)
      .max(5000)
      .optional()
      .openapi({ description: 'Version-control history, oldest first or any order.' }),
    briefId: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .openapi({
        description:
          'A brief on this platform: its text is ignored for plagiarism, its creation date checks commit dates, and its ' +
          'closing date is the deadline when `dueAt` is not given.',
      }),
    dueAt: z.string().datetime({ offset: true }).optional().openapi({
      description:
        'The deadline. Commits authored after it, and a bulk commit by another author shortly before it, are history findings.',
      example: '2026-11-20T18:00:00Z',
    }),
    authorEmails: z
      .array(z.string().trim().min(3).max(254))
      .max(20)
      .optional()
      .openapi({
        description:
          "The candidate's author identities (commit e-mails). Commits by any other e-mail count as another author's work.",
        example: ['ravi@example.com', '12345+ravi@users.noreply.github.com'],
      }),
    template: z
      .object({
        text: z.string().max(2_000_000).optional(),
        files: z.array(SubmittedFileSchema).max(200).optional(),
      })
      .strict()
      .optional()
      .openapi({
        description:
          "Starter material every candidate received (like MOSS's base file): text matching it is never evidence of copying. " +
          'Standard licence texts and generated headers are always excluded.',
      }),
  })
  .strict()
  .refine((b) => Boolean(b.text?.trim()) || (b.files?.length ?? 0) > 0 || (b.commits?.length ?? 0) > 0, {
    message: 'Send at least one of text, files or commits',
  })
  .openapi('IntegrityRequest');

const Risk = z.number().min(0).max(1).openapi({ description: '0–1; higher is more suspicious.' });

export const IntegrityResultSchema = z
  .object({
    score: z.number().int().min(0).max(100).openapi({ description: '0–100; higher is more trustworthy.' }),
    verdict: z.enum(['clean', 'review', 'flagged']).openapi({
      description:
        '`flagged`: plagiarism risk ≥ 0.6, or score < 50 without the AI-content term; `review`: score < 75, plagiarism risk ≥ 0.25 ' +
        'or a strong history finding; otherwise `clean`. The AI-content signal alone never flags.',
    }),
    signals: z.object({
      plagiarism: z.object({
        risk: Risk,
        evidence: z
          .object({
            overlapShare: z.number(),
            matchedSpans: z.array(
              z.object({
                start: z.number().int(),
                end: z.number().int(),
                file: z.string().optional(),
                sourceRef: z
                  .string()
                  .openapi({ description: 'Opaque reference to the matching stored work; reveals no one.' }),
                sourceStart: z.number().int().optional(),
              }),
            ),
          })
          .passthrough(),
      }),
      aiContent: z.object({
        risk: Risk,
        evidence: z
          .object({
            features: z.record(z.string(), z.number()),
            notes: z.array(z.string()),
            soft: z.literal(true),
            band: z
              .enum(['insufficient_text', 'below_20_percent', 'measured'])
              .optional()
              .openapi({
                description:
                  '`insufficient_text`: under 300 words, no figure (risk 0); `below_20_percent`: a band, not a figure (risk 0); ' +
                  '`measured`: the risk is the estimate.',
              }),
          })
          .openapi({
            description: 'Stylometric features. A soft signal: such detectors misfire on non-native writers.',
          }),
      }),
      vcsHistory: z.object({
        risk: Risk,
        evidence: z.object({
          findings: z.array(z.object({ code: z.string(), detail: z.string(), weight: z.number() })),
          commitCount: z.number().int(),
        }),
      }),
    }),
    engine: EngineSchema,
    fallbackReason: FallbackReasonSchema,
  })
  .openapi('IntegrityResult');
