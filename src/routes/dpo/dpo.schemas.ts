import { z } from '@hono/zod-openapi';

export const DpoContactSchema = z
  .object({
    name: z.string().openapi({ example: 'Data Protection Officer' }),
    email: z.string().openapi({ example: 'dpo@example.com' }),
    address: z.string(),
    grievance: z.string().openapi({ description: 'How to raise a grievance with the officer.' }),
    board: z.string().openapi({ description: 'How to complain to the Data Protection Board of India.' }),
  })
  .openapi('DpoContact', {
    description: "The Data Protection Officer's business contact (DPDP Act 2023 §8(9)–(10), Rule 9).",
  });
