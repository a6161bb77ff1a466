import type { AppRouteHandler } from '../../http/types';
import { decodeCursor, toPage } from '../../lib/paging';
import { ProblemError } from '../../lib/problem';
import * as apiKeys from '../../services/api-keys';
import * as audit from '../../services/audit';
import * as requests from '../../services/dsr/requests';
import * as jobs from '../../services/jobs/jobs';
import { organisationView } from '../../services/organisations/organisation';
import * as review from '../../services/organisations/review';
import type * as routes from './admin.routes';

export const issueApiKey: AppRouteHandler<typeof routes.createApiKey> = async (c) => {
  const { name, scopes, organisationId, expiresAt, ratelimitPerMinute } = c.req.valid('json');
  const expires = expiresAt === undefined ? undefined : new Date(expiresAt);
  if (expires && expires.getTime() <= Date.now())
    throw new ProblemError('validation-failed', 'The request body does not match the schema.', {
      errors: [{ pointer: '#/expiresAt', detail: 'Must be in the future' }],
    });
  const { key, view } = await apiKeys.issueApiKey(c.var.db, {
    name,
    scopes,
    organisationId,
    expiresAt: expires,
    ratelimitPerMinute,
    createdBy: c.var.user.id,
    ip: c.req.header('CF-Connecting-IP') ?? null,
  });
  return c.json({ ...view, key }, 201);
};

export const rollApiKey: AppRouteHandler<typeof routes.rollApiKey> = async (c) => {
  const body = c.req.valid('json') as { gracePeriodSeconds?: number } | undefined;
  const rolled = await apiKeys.rollApiKey(
    c.var.db,
    c.req.valid('param').id,
    body?.gracePeriodSeconds ?? apiKeys.DEFAULT_ROLL_GRACE_SECONDS,
    { actor: c.var.user.id, ip: c.req.header('CF-Connecting-IP') ?? null },
  );
  if (!rolled) throw new ProblemError('not-found', 'No API key with this id.');
  return c.json({ ...rolled.view, key: rolled.key }, 200);
};

export const getApiKeyUsage: AppRouteHandler<typeof routes.getApiKeyUsage> = async (c) => {
  const key = await apiKeys.getApiKey(c.var.db, c.req.valid('param').id);
  if (!key) throw new ProblemError('not-found', 'No API key with this id.');
  const pending = await c.env.RATE_LIMITER.getByName(`apikey:${key.id}`).pendingUsage(key.id);
  return c.json({ apiKeyId: key.id, ...(await apiKeys.usageReport(c.var.db, key.id, pending)) }, 200);
};

export const listApiKeys: AppRouteHandler<typeof routes.listApiKeys> = async (c) => {
  const { limit, cursor } = c.req.valid('query');
  const rows = await apiKeys.listApiKeys(c.var.db, limit, decodeCursor(cursor));
  const page = toPage(rows, limit);
  return c.json({ items: page.items.map((k) => apiKeys.toApiKeyView(k)), nextCursor: page.nextCursor }, 200);
};

export const revokeApiKey: AppRouteHandler<typeof routes.revokeApiKey> = async (c) => {
  const row = await apiKeys.revokeApiKey(c.var.db, c.req.valid('param').id, {
    actor: c.var.user.id,
    ip: c.req.header('CF-Connecting-IP') ?? null,
  });
  if (!row) throw new ProblemError('not-found', 'No API key with this id.');
  return c.json(apiKeys.toApiKeyView(row), 200);
};

export const listDsrRequests: AppRouteHandler<typeof routes.listDsrRequests> = async (c) => {
  const { kind, state, overdue, sort, limit, cursor } = c.req.valid('query');
  const now = new Date();
  const filter = { kind, state, overdue: overdue === 'true' };
  // Both list open requests only: a closed state with either would list nothing, silently.
  if ((sort === 'due' || filter.overdue) && (state === 'completed' || state === 'rejected'))
    throw new ProblemError('invalid-parameters', 'Invalid query parameter.', {
      errors: [
        {
          pointer: '#/query/state',
          detail: `${sort === 'due' ? 'sort=due' : 'overdue=true'} lists open requests: state may be received or in_progress`,
        },
      ],
    });
  if (sort === 'due') {
    const rows = await requests.listRequests(
      c.var.db,
      filter,
      limit,
      { sort, cursor: requests.decodeDueCursor(cursor) },
      now,
    );
    const items = rows.slice(0, limit);
    const last = items.at(-1)?.request;
    return c.json(
      {
        items: items.map((r) => requests.toAdminRequestView(r.request, now, r.job)),
        nextCursor: rows.length > limit && last ? requests.encodeDueCursor(last) : null,
      },
      200,
    );
  }
  const rows = await requests.listRequests(
    c.var.db,
    filter,
    limit,
    { sort, cursor: decodeCursor(cursor) },
    now,
  );
  const page = toPage(rows, limit, (r) => r.request);
  return c.json(
    {
      items: page.items.map((r) => requests.toAdminRequestView(r.request, now, r.job)),
      nextCursor: page.nextCursor,
    },
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

export const listJobs: AppRouteHandler<typeof routes.listJobs> = async (c) => {
  const { state, kind, limit, cursor } = c.req.valid('query');
  const rows = await jobs.listJobs(c.var.db, { state, kind }, limit, decodeCursor(cursor));
  const page = toPage(rows, limit);
  return c.json({ items: page.items.map(jobs.toJobView), nextCursor: page.nextCursor }, 200);
};

export const retryJob: AppRouteHandler<typeof routes.retryJob> = async (c) => {
  const job = await jobs.retryJob(c.var.db, c.env, c.var.user.id, c.req.valid('param').id);
  return c.json(jobs.toJobView(job), 200);
};

export const listAuditLog: AppRouteHandler<typeof routes.listAuditLog> = async (c) => {
  const { actor, action, since, until, limit, cursor } = c.req.valid('query');
  const rows = await audit.listAuditLog(
    c.var.db,
    {
      ...(actor ? { actorId: actor } : {}),
      ...(action ? { action } : {}),
      ...(since ? { since: new Date(since) } : {}),
      ...(until ? { until: new Date(until) } : {}),
    },
    limit,
    decodeCursor(cursor),
  );
  const page = toPage(rows, limit);
  c.header('Cache-Control', 'no-store');
  return c.json({ items: page.items.map(audit.auditView), nextCursor: page.nextCursor }, 200);
};

export const listOrganisations: AppRouteHandler<typeof routes.listOrganisations> = async (c) => {
  const { verification, renamePending, limit, cursor } = c.req.valid('query');
  const filter = {
    verification,
    renamePending: renamePending === undefined ? undefined : renamePending === 'true',
  };
  const rows = await review.listOrganisations(c.var.db, filter, limit, decodeCursor(cursor));
  const page = toPage(rows, limit);
  return c.json({ items: page.items.map(organisationView), nextCursor: page.nextCursor }, 200);
};

export const reviewOrganisation: AppRouteHandler<typeof routes.reviewOrganisation> = async (c) => {
  const reviewed = await review.reviewOrganisationAndIssue(
    c.var.db,
    c.env,
    { id: c.var.user.id, ip: c.req.header('CF-Connecting-IP') ?? null },
    c.req.valid('param').id,
    c.req.valid('json'),
  );
  if (!reviewed) throw new ProblemError('not-found', 'No organisation with this id.');
  return c.json(organisationView(reviewed.organisation), 200);
};
