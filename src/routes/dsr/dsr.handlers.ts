import { getDb } from '../../db/client';
import { decodeCursor, toPage } from '../../lib/paging';
import { ProblemError } from '../../lib/problem';
import type { AppRouteHandler } from '../../lib/types';
import { clearSessionCookie } from '../../middleware/session-cookie';
import { normaliseEmail } from '../../services/accounts';
import { startAccessExport } from '../../services/dsr/access-export';
import { correctPersonalData } from '../../services/dsr/correction';
import { erasureReceipt, requestErasure } from '../../services/dsr/erasure';
import * as requests from '../../services/dsr/requests';
import type * as routes from './dsr.routes';

export const listMine: AppRouteHandler<typeof routes.listMyRequests> = async (c) => {
  const { limit, cursor } = c.req.valid('query');
  const rows = await requests.listUserRequests(
    getDb(c.env.DB),
    c.get('user')!.id,
    limit,
    decodeCursor(cursor),
  );
  const page = toPage(rows, limit);
  return c.json({ items: page.items.map(requests.toRequestView), nextCursor: page.nextCursor }, 200);
};

export const access: AppRouteHandler<typeof routes.access> = async (c) => {
  const { filename, body } = await startAccessExport(c.env, c.get('user')!);
  return c.body(body, 200, {
    'Content-Type': 'application/zip',
    'Content-Disposition': `attachment; filename="${filename}"`,
    'Cache-Control': 'no-store',
  });
};

export const correction: AppRouteHandler<typeof routes.correction> = async (c) => {
  const result = await correctPersonalData(c.env, c.get('user')!.id, c.req.valid('json'));
  return c.json(result, 200);
};

export const erasure: AppRouteHandler<typeof routes.erasure> = async (c) => {
  const receipt = await requestErasure(c.env, c.get('user')!.id);
  // Like logout: the session is gone, so neither renew nor keep the cookie.
  c.set('user', undefined);
  clearSessionCookie(c);
  return c.json(receipt, 202, { Location: `/api/dsr/erasure/${receipt.requestId}` });
};

export const erasureStatus: AppRouteHandler<typeof routes.erasureStatus> = async (c) => {
  const receipt = await erasureReceipt(getDb(c.env.DB), c.req.valid('param').requestId);
  if (!receipt) throw new ProblemError('not-found', 'No erasure request with this id.');
  return c.json(receipt, 200);
};

export const grievance: AppRouteHandler<typeof routes.grievance> = async (c) => {
  const details = c.req.valid('json');
  const request = await requests.fileRequest(getDb(c.env.DB), {
    userId: c.get('user')!.id,
    kind: 'grievance',
    details,
  });
  return c.json(request, 201);
};

export const nomination: AppRouteHandler<typeof routes.nomination> = async (c) => {
  const input = c.req.valid('json');
  const user = c.get('user')!;
  const nomineeEmail = normaliseEmail(input.nomineeEmail);
  if (nomineeEmail === user.email) {
    throw new ProblemError('validation-failed', 'The request body does not match the schema.', {
      errors: [{ pointer: '#/nomineeEmail', detail: 'The nominee must be someone other than you' }],
    });
  }
  const request = await requests.fileRequest(getDb(c.env.DB), {
    userId: user.id,
    kind: 'nomination',
    details: { ...input, nomineeEmail },
  });
  return c.json(request, 201);
};

export const adminList: AppRouteHandler<typeof routes.adminList> = async (c) => {
  const { kind, state, limit, cursor } = c.req.valid('query');
  const rows = await requests.listRequests(getDb(c.env.DB), { kind, state }, limit, decodeCursor(cursor));
  const page = toPage(rows, limit);
  const now = new Date();
  return c.json(
    { items: page.items.map((r) => requests.toAdminRequestView(r, now)), nextCursor: page.nextCursor },
    200,
  );
};

export const adminResolve: AppRouteHandler<typeof routes.adminResolve> = async (c) => {
  const request = await requests.resolveRequest(
    getDb(c.env.DB),
    c.get('user')!.id,
    c.req.valid('param').id,
    c.req.valid('json'),
  );
  return c.json(request, 200);
};
