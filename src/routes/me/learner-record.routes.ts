import { z } from '@hono/zod-openapi';
import { defineRoute } from '../../http/route';
import { sessionAuth } from '../../http/route-auth';
import { json } from '../../lib/content';
import { RATE_LIMIT_HEADERS } from '../../lib/problem';

export const LearnerRecordSchema = z
  .object({
    format: z.literal('vc-jwt'),
    jwt: z
      .string()
      .regex(/^[a-zA-Z0-9_-]+\.[a-zA-Z0-9_-]*\.[a-zA-Z0-9_-]+$/)
      .openapi({
        description:
          'The CLR 2.0 `ClrCredential` as a VC-JWT (compact JWS, header `{alg, kid, typ: "JWT"}`), signed with the ' +
          'certificates’ key: `kid` is the key’s URL, also in `/.well-known/jwks.json`.',
      }),
    credentials: z.number().int().min(1).openapi({
      description: 'How many AchievementCredentials it holds (`credentialSubject.verifiableCredential`).',
    }),
  })
  .openapi('LearnerRecord', {
    description:
      'The holder’s learner record: one signed CLR 2.0 credential gathering their certificates that are neither ' +
      'revoked nor expired.',
  });

export const getLearnerRecord = defineRoute({
  method: 'get',
  path: '/api/me/learner-record',
  operationId: 'getMyLearnerRecord',
  tags: ['Certificates'],
  summary: 'Your learner record (CLR 2.0), signed',
  description:
    'A 1EdTech Comprehensive Learner Record 2.0 `ClrCredential` holding, as `credentialSubject.verifiableCredential`, ' +
    'the Open Badges 3.0 AchievementCredential of each of your certificates that is neither revoked nor expired. ' +
    'Signed now as a VC-JWT with the same key and `kid` as the certificates; issued by the platform, its subject ' +
    'your credentials’ `urn:uuid:` id (no name, no email). Built on each request, not stored. With no such ' +
    'certificate there is no record (CLR 2.0 requires at least one credential): 404. A host you authorised reads ' +
    'the same at `GET /ims/clr/v2p0/credentials`.',
  ...sessionAuth(),
  errors: [404, 503],
  responses: {
    200: {
      description: 'The signed learner record.',
      headers: {
        ...RATE_LIMIT_HEADERS,
        'Content-Disposition': {
          description: '`inline; filename="learner-record.json"`, so that a link can offer it as a download.',
          schema: { type: 'string' as const },
        },
      },
      content: json(LearnerRecordSchema),
    },
  },
});
