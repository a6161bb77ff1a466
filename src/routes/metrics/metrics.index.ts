import { createRoute, z } from '@hono/zod-openapi';
import { createRouter } from '../../lib/create-app';
import { errorResponses } from '../../lib/problem';
import { authErrors, limitedResponse, sessionAuth } from '../../lib/route-auth';
import { scopedAgreement } from '../../services/agreement-rate';
import { AgreementRateSchema } from '../agreement/agreement.schemas';

const ScopedAgreementSchema = z
  .object({
    scope: z
      .enum(['platform', 'employer'])
      .openapi({ description: 'Admins see the platform; employers their own briefs.' }),
    overall: AgreementRateSchema,
    byDomain: z.array(AgreementRateSchema.extend({ domain: z.string() })),
  })
  .openapi('ScopedAgreementRate');

export const getScopedAgreement = createRoute({
  method: 'get',
  path: '/api/metrics/agreement-rate',
  tags: ['Agreement'],
  summary: 'Agreement rate for admins (platform) or employers (their briefs), by domain',
  ...sessionAuth('admin', 'employer'),
  request: {
    query: z.object({
      windowDays: z.coerce
        .number()
        .int()
        .min(1)
        .max(365)
        .default(90)
        .openapi({
          param: { name: 'windowDays', in: 'query' },
          description: 'Rolling window in days, 1–365 (default 90).',
        }),
    }),
  },
  responses: {
    200: limitedResponse('The agreement rate.', { 'application/json': { schema: ScopedAgreementSchema } }),
    ...authErrors(),
    ...errorResponses(400),
  },
});

export const metricsRouter = createRouter().openapi(getScopedAgreement, async (c) => {
  const user = c.get('user')!;
  const { windowDays } = c.req.valid('query');
  const result = await scopedAgreement(c.env.DB, {
    windowDays,
    ...(user.role === 'employer' ? { employerId: user.id } : {}),
  });
  return c.json(result, 200);
});
