import type { AppRouteHandler } from '../../http/types';
import { ProblemError } from '../../lib/problem';
import { forgetOrganisationViews } from '../../services/dsr/public-views';
import { reviewRename } from '../../services/organisation-renames';
import { organisationView } from '../../services/organisations/organisation';
import type * as routes from './renames.routes';

export const reviewRenameHandler: AppRouteHandler<typeof routes.reviewOrganisationRename> = async (c) => {
  const organisation = await reviewRename(
    c.var.db,
    { id: c.var.user.id, ip: c.req.header('CF-Connecting-IP') ?? null },
    c.req.valid('param').id,
    c.req.valid('json'),
  );
  if (!organisation) throw new ProblemError('not-found', 'No organisation with this id.');
  // Its profile and its certificates' cached verifications show the name.
  await forgetOrganisationViews(c.var.db, c.env, organisation.id);
  return c.json(organisationView(organisation), 200);
};
