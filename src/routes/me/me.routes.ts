import { createRoute, z } from '@hono/zod-openapi';
import { errorResponses } from '../../lib/problem';
import { authErrors, limitedResponse, sessionAuth } from '../../lib/route-auth';
import { ProfileSchema } from '../auth/auth.schemas';

export const getMe = createRoute({
  method: 'get',
  path: '/api/me',
  tags: ['Auth'],
  summary: "The caller's profile",
  ...sessionAuth(),
  responses: {
    200: limitedResponse('The profile.', { 'application/json': { schema: ProfileSchema } }),
    ...authErrors(),
  },
});

export const UpdateMeSchema = z
  .object({
    publicAlias: z.string().trim().min(2).max(40).nullable().openapi({
      description: 'The name shown on the public leaderboard; null to use the display name.',
      example: 'ravi.builds',
    }),
  })
  .strict()
  .openapi('UpdateProfileRequest');

export const updateMe = createRoute({
  method: 'patch',
  path: '/api/me',
  tags: ['Auth'],
  summary: 'Set the public alias',
  description:
    'Name and email are changed through `PATCH /api/dsr/correction` (a data-rights request with an audit trail).',
  ...sessionAuth(),
  request: { body: { required: true, content: { 'application/json': { schema: UpdateMeSchema } } } },
  responses: {
    200: limitedResponse('The profile.', { 'application/json': { schema: ProfileSchema } }),
    ...authErrors(),
    ...errorResponses(400, 413, 415, 422),
  },
});
