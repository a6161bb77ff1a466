import { z } from '@hono/zod-openapi';
import { nullableRef } from '../../http/route';

export const BreachSelectorSchema = z
  .object({
    all: z.literal(true).optional().openapi({ description: 'Every account (give it alone).' }),
    role: z.enum(['candidate', 'employer', 'admin']).optional(),
    organisationId: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .openapi({ description: "The organisation's members." }),
    briefId: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .openapi({ description: 'Candidates who submitted work to the brief.' }),
    signedUpBefore: z.string().datetime().max(40).optional(),
    signedUpAfter: z.string().datetime().max(40).optional(),
  })
  .strict()
  .openapi('BreachSelector', {
    description:
      'Criteria combined with AND; no free-form filter. At least one criterion, or `all: true` alone (422 otherwise).',
    example: { role: 'candidate', signedUpBefore: '2026-01-01T00:00:00Z' },
  });

export const CreateBreachSchema = z
  .object({
    description: z.string().trim().min(1).max(2000).openapi({ description: 'What happened.' }),
    occurredAt: z
      .string()
      .datetime()
      .max(40)
      .optional()
      .openapi({
        description:
          "When it happened, if known (told in the notice). Not in the future (5 minutes' clock skew allowed) " +
          'and not after `foundAt`: 422 at `#/occurredAt`.',
      }),
    foundAt: z
      .string()
      .datetime()
      .max(40)
      .openapi({
        description:
          "When the platform became aware of it (the Board's report is due 72 hours later). Not in the future " +
          "(5 minutes' clock skew allowed): 422 at `#/foundAt`.",
      }),
    categories: z
      .array(z.string().trim().min(1).max(100))
      .min(1)
      .max(20)
      .openapi({ description: 'Categories of personal data affected.', example: ['email', 'name'] }),
    measures: z.string().trim().min(1).max(2000).openapi({ description: 'Measures taken and planned.' }),
    consequences: z
      .string()
      .trim()
      .min(1)
      .max(2000)
      .openapi({
        description:
          'The consequences likely to arise for the people affected (DPDP Rules 2025, Rule 7(1)(b)), in words ' +
          'they understand; each notice says "What it may mean for you: " followed by this text.',
        example: 'Someone who has your email address may send you messages that pretend to be from us.',
      }),
    affectedUserIds: z
      .array(z.string().min(1).max(64))
      .max(500)
      .optional()
      .openapi({
        description:
          'The accounts affected, by id (each gets an in-app notice and an email at once); at most 500. Give this ' +
          'or `affected`, not both.',
      }),
    affected: z
      .object({ query: BreachSelectorSchema })
      .strict()
      .optional()
      .openapi({
        description:
          'The affected people as a query, for any number of them: selected on the server when the breach is ' +
          'recorded (accounts that exist then and are not disabled) and notified a page at a time by the job ' +
          'queue; `notification` is `notifying` until the last page, and `affectedCount` grows as they are ' +
          'notified. Give this or `affectedUserIds`, not both.',
      }),
  })
  .strict()
  .refine((b) => (b.affectedUserIds === undefined) !== (b.affected === undefined), {
    message: 'Give either affectedUserIds or affected, exactly one',
    path: ['affectedUserIds'],
  })
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
    consequences: z.string().openapi({
      description:
        'The consequences likely for the people affected (Rule 7(1)(b)), as told in their notices. Empty for a ' +
        'breach recorded before this was asked; its notices do not have it.',
    }),
    affectedCount: z
      .number()
      .int()
      .min(0)
      .openapi({ description: 'People notified so far (all of them once `notification` is `done`).' }),
    affectedQuery: nullableRef(BreachSelectorSchema).openapi({
      description: 'The selector, when the people were chosen by a query.',
    }),
    notification: z.enum(['notifying', 'done']).openapi({
      description: '`notifying` while pages of a selected breach are still being notified.',
    }),
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
