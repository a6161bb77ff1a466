import { z } from '@hono/zod-openapi';

export const CreateBreachSchema = z
  .object({
    description: z.string().trim().min(1).max(2000).openapi({ description: 'What happened.' }),
    occurredAt: z
      .string()
      .datetime()
      .max(40)
      .optional()
      .openapi({ description: 'When it happened, if known.' }),
    foundAt: z.string().datetime().max(40).openapi({ description: 'When the platform became aware of it.' }),
    categories: z
      .array(z.string().trim().min(1).max(100))
      .min(1)
      .max(20)
      .openapi({ description: 'Categories of personal data affected.', example: ['email', 'name'] }),
    measures: z.string().trim().min(1).max(2000).openapi({ description: 'Measures taken and planned.' }),
    affectedUserIds: z
      .array(z.string().min(1).max(64))
      .max(500)
      .openapi({
        description:
          'The accounts affected (each gets an in-app notice and an email at once); at most 500 per request, so a ' +
          'larger breach is recorded as several.',
      }),
  })
  .strict()
  .openapi('CreateBreach');

const BoardStepSchema = z.object({
  dueAt: z.string().datetime(),
  doneAt: z.string().datetime().nullable(),
  overdue: z.boolean(),
});

export const BreachSchema = z
  .object({
    id: z.string(),
    description: z.string(),
    occurredAt: z.string().datetime().nullable(),
    foundAt: z.string().datetime(),
    categories: z.array(z.string()).max(20),
    measures: z.string(),
    affectedCount: z.number().int().min(0).max(500),
    boardIntimation: BoardStepSchema.openapi({
      description: 'Intimation to the Board: due at once (Rule 7(2)(a)).',
    }),
    boardReport: BoardStepSchema.openapi({
      description: 'Detailed report to the Board: due 72 hours after `foundAt`.',
    }),
    createdAt: z.string().datetime(),
  })
  .openapi('Breach');

export const BreachListSchema = z.object({ items: z.array(BreachSchema).max(100) }).openapi('BreachList');

export const BreachQuerySchema = z.object({
  overdue: z
    .enum(['true', 'false'])
    .optional()
    .openapi({
      param: { name: 'overdue', in: 'query' },
      description: 'Only breaches with an overdue Board step.',
    }),
});

export const BoardStepRequestSchema = z
  .object({ step: z.enum(['intimation', 'report']) })
  .strict()
  .openapi('BreachBoardStep');
