import type { AppRouteHandler } from '../../http/types';
import { ProblemError } from '../../lib/problem';
import { reviewRename } from '../../services/organisation-renames';
import { organisationView } from '../../services/organisations/organisation';
import type * as routes from './renames.routes';

export const reviewRenameHandler: AppRouteHandler<typeof routes.reviewOrganisationRename> = async (c) => {
  const organisation = await reviewRename(
    c.var.db,
    { id: c.var.user.id, ip: c.req.header('CF-Connecting-IP') ?? null },
    c.req.valid('param').id,
    c.req.valid('json'),
    { env: c.env },
  );
  if (!organisation) throw new ProblemError('not-found', 'No organisation with this id.');
  return c.json(organisationView(organisation), 200);
};
