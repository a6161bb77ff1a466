import type { AppRouteHandler } from '../../http/types';
import { ProblemError } from '../../lib/problem';
import { grantsOf, revokeGrantOf } from '../../services/portability/grants';
import type * as routes from './oauth-grants.routes';

export const list: AppRouteHandler<typeof routes.listGrants> = async (c) =>
  c.json({ grants: await grantsOf(c.env, c.var.user.id) }, 200);

export const revoke: AppRouteHandler<typeof routes.revokeGrant> = async (c) => {
  const revoked = await revokeGrantOf(c.var.db, c.env, c.var.user.id, c.req.valid('param').grantId);
  if (!revoked) throw new ProblemError('not-found', 'You have no grant with this id.');
  return c.body(null, 204);
};
