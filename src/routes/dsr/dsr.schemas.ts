import { z } from '@hono/zod-openapi';
import { DSR_KINDS, DSR_STATES } from '../../db/schema';
import { nullableRef } from '../../http/route';
import { shownName } from '../../http/validation';
import { pageSchema } from '../../lib/paging';
import { DateOfBirthSchema, ProfileSchema } from '../auth/auth.schemas';

export const DsrKindSchema = z.enum(DSR_KINDS).openapi('DsrKind');
export const DsrStateSchema = z.enum(DSR_STATES).openapi('DsrState', {
  description: '`received → in_progress → completed | rejected`.',
});

export const DsrRequestSchema = z
  .object({
    id: z.string(),
    kind: DsrKindSchema,
    state: DsrStateSchema,
    details: z.record(z.string(), z.unknown()).nullable().openapi({
      description: 'What was asked (grievance text, nominee, corrected fields) and any resolution.',
    }),
    dueAt: z.string().datetime().openapi({
      description:
        'When it must be answered: 90 days for grievances (DPDP Rules 2025 r. 14), 30 days otherwise.',
    }),
    createdAt: z.string().datetime(),
    updatedAt: z.string().datetime().nullable(),
    completedAt: z
      .string()
      .datetime()
      .nullable()
      .openapi({ description: 'When it was completed or rejected.' }),
  })
  .openapi('DsrRequest', { description: 'A data-subject request (DPDP Act 2023 §11–14).' });

export const DsrRequestPageSchema = pageSchema(DsrRequestSchema, 'DsrRequestPage');

export const DsrJobSchema = z
  .object({
    id: z.string().openapi({ description: 'Retry it at `POST /api/admin/jobs/{id}/retry` when stalled.' }),
    state: z.enum(['pending', 'running', 'done', 'stalled']),
    attempts: z.number().int(),
    lastError: z.string().nullable(),
    stalledAt: z.string().datetime().nullable(),
  })
  .openapi('DsrJob', { description: 'The background job carrying out the request (erasure).' });

export const AdminDsrRequestSchema = DsrRequestSchema.extend({
  userId: z.string(),
  overdue: z.boolean().openapi({ description: 'Still open after its due date.' }),
  job: nullableRef(DsrJobSchema).openapi({
    description:
      'For an erasure: the job running its cascade (state, attempts, last failure). Null otherwise.',
  }),
}).openapi('AdminDsrRequest');

export const AdminDsrRequestPageSchema = pageSchema(AdminDsrRequestSchema, 'AdminDsrRequestPage');

export const CorrectionSchema = z
  .object({
    name: shownName(100).optional().openapi({ example: 'Ravi Kumar' }),
    email: z.email().max(254).optional().openapi({ example: 'ravi.kumar@example.com' }),
    dateOfBirth: DateOfBirthSchema.optional().openapi({
      description:
        'ISO date (`YYYY-MM-DD`): recorded when the account has none (accounts made before it was asked), or ' +
        'corrected. A correction that would make an adult a child or a child an adult is refused (422): that needs ' +
        'the guardian process (docs/data-rights.md). DigiLocker matches certificates on it (docs/digilocker.md).',
      example: '1998-04-17',
      format: 'date',
    }),
  })
  .strict()
  .refine((b) => b.name !== undefined || b.email !== undefined || b.dateOfBirth !== undefined, {
    message: 'Give name, email, dateOfBirth or several',
  })
  .openapi('CorrectionRequest');

export const CorrectionResultSchema = z
  .object({
    profile: ProfileSchema,
    request: nullableRef(DsrRequestSchema).openapi({
      description:
        'The completed `correction` request; null when nothing changed (the values given are the ones on ' +
        'record), in which case nothing was written. An email correction is `in_progress` until the new address is ' +
        'confirmed, then `completed`.',
    }),
    pendingEmail: z
      .string()
      .nullable()
      .openapi({
        description:
          'A new email address waiting for confirmation: a link was sent to it, and the account keeps its old address ' +
          '(for sign-in and everything else) until the link is opened (24 hours). Null when no address changes.',
      }),
  })
  .openapi('CorrectionResult');

export const GrievanceSchema = z
  .object({
    subject: z.string().trim().min(1).max(200).openapi({ example: 'My certificate shows the wrong brief' }),
    description: z.string().trim().min(1).max(5000),
  })
  .strict()
  .openapi('GrievanceRequest');

export const NominationSchema = z
  .object({
    nomineeName: z.string().trim().min(1).max(100).openapi({ example: 'Anita Kumar' }),
    nomineeEmail: z.email().max(254).openapi({ example: 'anita@example.com' }),
    relationship: z.string().trim().min(1).max(100).openapi({ example: 'Sister' }),
  })
  .strict()
  .openapi('NominationRequest');

export const ErasureReceiptSchema = z
  .object({
    requestId: z.string(),
    state: z.enum(['in_progress', 'completed']),
    deletedCounts: z
      .record(z.string(), z.number().int())
      .openapi({ description: 'Rows deleted (or re-linked) per table so far.', example: { submissions: 3 } }),
    requestedAt: z.string().datetime(),
    completedAt: z.string().datetime().nullable(),
  })
  .openapi('ErasureReceipt', { description: 'What remains of an erasure: no personal data.' });

export const ErasureIdParams = z.object({
  requestId: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'requestId', in: 'path' } }),
});

export const DsrIdParams = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'id', in: 'path' } }),
});

export const ResolutionSchema = z
  .object({
    state: z.enum(['in_progress', 'completed', 'rejected']),
    resolution: z
      .string()
      .trim()
      .min(1)
      .max(5000)
      .optional()
      .openapi({ description: 'The answer given to the person; shown to them with the request.' }),
  })
  .strict()
  .openapi('DsrResolution');
