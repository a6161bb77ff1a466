import { z } from '@hono/zod-openapi';
import { GUARDIAN_REQUEST_STATES } from '../../db/schema';

export const GuardianStatusSchema = z
  .object({
    child: z.boolean().openapi({ description: 'Under 18 on the service’s clock (DPDP §2(f)).' }),
    dateOfBirth: z.string().nullable().openapi({ format: 'date' }),
    adultFrom: z.string().datetime().nullable().openapi({
      description: 'When the person turns 18: the guardian’s link ends and their consents lapse.',
    }),
    consent: z.enum(['not_needed', 'pending', 'approved', 'refused', 'none']).openapi({
      description:
        "`not_needed`: an adult. Otherwise where the guardian's consent stands; anything but `approved` limits the " +
        'account to its signup.',
    }),
    request: z
      .object({
        id: z.string(),
        guardianEmail: z.string(),
        state: z.enum(GUARDIAN_REQUEST_STATES),
        createdAt: z.string().datetime(),
        decidedAt: z.string().datetime().nullable(),
      })
      .nullable()
      .openapi({ description: 'The standing (or latest) request to a guardian.' }),
  })
  .openapi('GuardianStatus');

export const NameGuardianSchema = z
  .object({
    guardianEmail: z.email().max(254).openapi({ example: 'parent@example.com' }),
  })
  .strict()
  .openapi('NameGuardian');

export const WardSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    dateOfBirth: z.string().nullable().openapi({ format: 'date' }),
    adultFrom: z.string().datetime().nullable(),
  })
  .openapi('Ward', { description: 'A child the caller is the approved parent or lawful guardian of.' });

export const GuardianRequestSchema = z
  .object({
    id: z.string(),
    state: z.enum(GUARDIAN_REQUEST_STATES),
    relationship: z.enum(['parent', 'lawful_guardian']).nullable(),
    child: z.object({
      name: z.string(),
      email: z.string(),
      dateOfBirth: z.string().nullable().openapi({ format: 'date' }),
    }),
    createdAt: z.string().datetime(),
    decidedAt: z.string().datetime().nullable(),
  })
  .openapi('GuardianRequest');

export const GuardianRequestListSchema = z
  .object({ items: z.array(GuardianRequestSchema).max(100) })
  .openapi('GuardianRequestList');

export const WardListSchema = z.object({ items: z.array(WardSchema).max(100) }).openapi('WardList');

export const ApproveGuardianSchema = z
  .object({
    relationship: z.enum(['parent', 'lawful_guardian']).openapi({
      description: 'The caller declares being the child’s parent, or their lawful guardian.',
    }),
  })
  .strict()
  .openapi('ApproveGuardianRequest');
