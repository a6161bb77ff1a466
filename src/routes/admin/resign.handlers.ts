import type { AppRouteHandler } from '../../http/types';
import { RESIGN_PAGE_MAX, resignAllCredentials } from '../../services/issuance/resign';
import type * as routes from './resign.routes';

export const resignCredentialsHandler: AppRouteHandler<typeof routes.resignCredentials> = async (c) => {
  const body = c.req.valid('json') ?? {};
  const page = await resignAllCredentials(c.var.db, c.env, {
    after: body.after ?? null,
    limit: body.limit ?? RESIGN_PAGE_MAX,
    actorId: c.var.user.id,
  });
  return c.json(page, 200);
};
