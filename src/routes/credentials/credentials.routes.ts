import { defineRoute } from '../../http/route';
import { publicAccess } from '../../http/route-auth';
import { json } from '../../lib/content';
import { RATE_LIMIT_HEADERS } from '../../lib/problem';
import { ipRateLimit } from '../../middleware/rate-limit';
import { presentedMediaType } from '../v1/credentials/credentials.handlers';
import {
  VERIFY_BODY_ERRORS,
  VERIFY_DESCRIPTION,
  VERIFY_REQUEST_BODY,
} from '../v1/credentials/credentials.routes';
import { VerifyCredentialResultSchema } from '../v1/credentials/credentials.schemas';

export const verifyCredentialPublic = defineRoute({
  method: 'post',
  path: '/api/credentials/verify',
  operationId: 'verifyCredentialPublic',
  tags: ['Certificates'],
  summary: 'Verify any issuer’s Open Badges 3.0 credential (public, for the /verify page)',
  description: `${VERIFY_DESCRIPTION} Public, limited to 60 requests per minute per client address (the same budget as the leaderboard); partners use \`POST /api/v1/credentials/verify\` with an API key.`,
  ...publicAccess(),
  middleware: [ipRateLimit(), presentedMediaType],
  errors: [429],
  request: { body: VERIFY_REQUEST_BODY },
  responses: {
    200: {
      description: 'The verdict and every check.',
      headers: RATE_LIMIT_HEADERS,
      content: json(VerifyCredentialResultSchema),
    },
    ...VERIFY_BODY_ERRORS,
  },
});
