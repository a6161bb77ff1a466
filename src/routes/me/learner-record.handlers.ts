import type { AppRouteHandler } from '../../http/types';
import { ProblemError } from '../../lib/problem';
import { signedLearnerRecord } from '../../services/portability/learner-record';
import type * as routes from './learner-record.routes';

export const get: AppRouteHandler<typeof routes.getLearnerRecord> = async (c) => {
  const record = await signedLearnerRecord(c.var.db, c.env, c.var.user.id);
  if (!record)
    throw new ProblemError(
      'not-found',
      'You hold no certificate that is neither revoked nor expired; a learner record (CLR 2.0) holds at least one.',
    );
  return c.json({ format: 'vc-jwt' as const, jwt: record.jwt, credentials: record.credentials }, 200, {
    'Cache-Control': 'no-store',
    'Content-Disposition': 'inline; filename="learner-record.json"',
  });
};
