import { decodeCursor, toPage } from '../../lib/paging';
import { ProblemError } from '../../lib/problem';
import type { AppRouteHandler } from '../../lib/types';
import * as apiKeys from '../../services/api-keys';
import { forgetOrganisationViews } from '../../services/dsr/public-views';
import * as requests from '../../services/dsr/requests';
import { onOrganisationVerified } from '../../services/issuance';
import * as organisations from '../../services/organisations';
import type * as routes from './admin.routes';

export const issueApiKey: AppRouteHandler<typeof routes.createApiKey> = async (c) => {
  const { name, scopes } = c.req.valid('json');
  const { key, view } = await apiKeys.issueApiKey(c.var.db, {
    name,
    scopes,
    createdBy: c.var.user.id,
  });
  return c.json({ ...view, key }, 201);
};

export const listApiKeys: AppRouteHandler<typeof routes.listApiKeys> = async (c) => {
  const { limit, cursor } = c.req.valid('query');
  const rows = await apiKeys.listApiKeys(c.var.db, limit, decodeCursor(cursor));
  const page = toPage(rows, limit);
  return c.json({ items: page.items.map(apiKeys.toApiKeyView), nextCursor: page.nextCursor }, 200);
};

export const revokeApiKey: AppRouteHandler<typeof routes.revokeApiKey> = async (c) => {
  const row = await apiKeys.revokeApiKey(c.var.db, c.req.valid('param').id);
  if (!row) throw new ProblemError('not-found', 'No API key with this id.');
  return c.json(apiKeys.toApiKeyView(row), 200);
};

export const listDsrRequests: AppRouteHandler<typeof routes.listDsrRequests> = async (c) => {
  const { kind, state, limit, cursor } = c.req.valid('query');
  const rows = await requests.listRequests(c.var.db, { kind, state }, limit, decodeCursor(cursor));
  const page = toPage(rows, limit);
  const now = new Date();
  return c.json(
    { items: page.items.map((r) => requests.toAdminRequestView(r, now)), nextCursor: page.nextCursor },
    200,
  );
};

export const resolveDsrRequest: AppRouteHandler<typeof routes.resolveDsrRequest> = async (c) => {
  const request = await requests.resolveRequest(
    c.var.db,
    c.var.user.id,
    c.req.valid('param').id,
    c.req.valid('json'),
  );
  return c.json(request, 200);
};

export const listOrganisations: AppRouteHandler<typeof routes.listOrganisations> = async (c) => {
  const { verification, limit, cursor } = c.req.valid('query');
  const rows = await organisations.listOrganisations(c.var.db, { verification }, limit, decodeCursor(cursor));
  const page = toPage(rows, limit);
  return c.json({ items: page.items.map(organisations.organisationView), nextCursor: page.nextCursor }, 200);
};

export const reviewOrganisation: AppRouteHandler<typeof routes.reviewOrganisation> = async (c) => {
  const reviewed = await organisations.reviewOrganisation(
    c.var.db,
    c.var.user,
    c.req.valid('param').id,
    c.req.valid('json'),
  );
  if (!reviewed) throw new ProblemError('not-found', 'No organisation with this id.');
  const { organisation } = reviewed;
  if (organisation.verification === 'verified')
    await onOrganisationVerified(c.env, c.var.db, organisation.id);
  else await forgetOrganisationViews(c.env, organisation.id);
  return c.json(organisations.organisationView(organisation), 200);
};
