import { createRoute } from '@hono/zod-openapi';
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
