import { z } from '@hono/zod-openapi';
import { ROLES } from '../../db/schema';

export const PASSWORD_MIN_LENGTH = 10;

export const SignupSchema = z
  .object({
    email: z.email().max(254).openapi({ example: 'ravi@example.com' }),
    password: z.string().min(PASSWORD_MIN_LENGTH).max(256).openapi({ example: 'correct horse battery' }),
    name: z.string().trim().min(1).max(100).openapi({ example: 'Ravi Kumar' }),
    role: z
      .enum(['candidate', 'employer'])
      .openapi({ description: 'Admin cannot be chosen; see README → First admin.' }),
  })
  .strict()
  .openapi('SignupRequest');

export const LoginSchema = z
  .object({
    email: z.string().min(1).max(254).openapi({ example: 'ravi@example.com' }),
    password: z.string().min(1).max(256),
  })
  .strict()
  .openapi('LoginRequest');

export const ProfileSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    role: z.enum(ROLES),
    publicAlias: z
      .string()
      .nullable()
      .openapi({ description: 'Shown on the leaderboard instead of the name when set.' }),
    createdAt: z.string().datetime(),
  })
  .openapi('Profile');

export const SessionResponseSchema = z
  .object({ user: ProfileSchema, expiresAt: z.string().datetime() })
  .openapi('Session', { description: 'The session token itself is only in the `Set-Cookie` header.' });
