import type { AppRouteHandler } from '../../http/types';
import { ProblemError } from '../../lib/problem';
import { clearSessionCookie } from '../../middleware/session-cookie';
import { normaliseEmail } from '../../services/accounts';
import { startAccessExport } from '../../services/dsr/access-export';
import { erasureReceipt, requestErasure } from '../../services/dsr/erasure';
import {
  EXPORT_SYNC_MAX_ROWS,
  exportDownload,
  exportRowCount,
  queueAccessExport,
} from '../../services/dsr/export-job';
import * as requests from '../../services/dsr/requests';
import { correctSubject, fileGrievance, self, zipHeaders } from '../data-subject';
import type * as routes from './dsr.routes';

export const access: AppRouteHandler<typeof routes.access> = async (c) => {
  if ((await exportRowCount(c.var.db, c.var.user.id)) > EXPORT_SYNC_MAX_ROWS) {
    const request = await queueAccessExport(c.var.db, c.env, c.var.user);
    return c.json(request, 202, { Location: `/api/dsr/access/${request.id}/download` });
  }
  const { filename, body } = await startAccessExport(c.var.db, c.env, c.var.user);
  return c.body(body, 200, zipHeaders(filename));
};

export const accessDownload: AppRouteHandler<typeof routes.accessDownload> = async (c) => {
  const { body, size, filename } = await exportDownload(
    c.var.db,
    c.env,
    c.var.user.id,
    c.req.valid('param').requestId,
  );
  return c.body(body, 200, {
    'Content-Type': 'application/zip',
    'Content-Length': String(size),
    'Content-Disposition': `attachment; filename="${filename}"`,
    'Cache-Control': 'no-store',
  });
};

export const correction: AppRouteHandler<typeof routes.correction> = async (c) => {
  return c.json(await correctSubject(c.var.db, c.env, self(c.var.user), c.req.valid('json')), 200);
};

export const erasure: AppRouteHandler<typeof routes.erasure> = async (c) => {
  const receipt = await requestErasure(c.var.db, c.env, c.var.user.id);
  // Like logout: the session is gone, so neither renew nor keep the cookie.
  c.set('sessionEnded', true);
  clearSessionCookie(c);
  return c.json(receipt, 202, { Location: `/api/dsr/erasure/${receipt.requestId}` });
};

export const erasureStatus: AppRouteHandler<typeof routes.erasureStatus> = async (c) => {
  const receipt = await erasureReceipt(c.var.db, c.req.valid('param').requestId);
  if (!receipt) throw new ProblemError('not-found', 'No erasure request with this id.');
  return c.json(receipt, 200);
};

export const grievance: AppRouteHandler<typeof routes.grievance> = async (c) => {
  return c.json(await fileGrievance(c.var.db, self(c.var.user), c.req.valid('json')), 201);
};

export const nomination: AppRouteHandler<typeof routes.nomination> = async (c) => {
  const input = c.req.valid('json');
  const user = c.var.user;
  const nomineeEmail = normaliseEmail(input.nomineeEmail);
  if (nomineeEmail === user.email) {
    throw new ProblemError('validation-failed', 'The request body does not match the schema.', {
      errors: [{ pointer: '#/nomineeEmail', detail: 'The nominee must be someone other than you' }],
    });
  }
  const request = await requests.fileRequest(c.var.db, {
    userId: user.id,
    kind: 'nomination',
    details: { ...input, nomineeEmail },
  });
  return c.json(request, 201);
};
