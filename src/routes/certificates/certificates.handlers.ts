import { getReadReplicaDb } from '../../db/client';
import { ProblemError } from '../../lib/problem';
import type { AppRouteHandler } from '../../lib/types';
import { recordAudit } from '../../services/audit';
import { forgetVerifications, purgeLeaderboards } from '../../services/cache-keys';
import * as certs from '../../services/certificates';
import type * as routes from './certificates.routes';

/** Hot path: no I/O on an isolate-memory hit, else one KV read. */
export const verify: AppRouteHandler<typeof routes.verifyCertificate> = async (c) => {
  const number = certs.requireCertificateNumber(c.req.valid('param').certificateNo);
  const found = await certs.verification(c.env, number, () => getReadReplicaDb(c.env.DB));
  if (!found) throw new ProblemError('not-found', 'No certificate has this number.');
  const headers = {
    ETag: found.etag,
    'Cache-Control': 'public, max-age=60',
    'Access-Control-Allow-Origin': '*',
    'Cross-Origin-Resource-Policy': 'cross-origin',
  };
  if (c.req.header('If-None-Match') === found.etag) return c.body(null, 304, headers);
  return c.body(found.json, 200, { ...headers, 'Content-Type': 'application/json' });
};

export const jwks: AppRouteHandler<typeof routes.getJwks> = async (c) => {
  c.header('Cache-Control', 'public, max-age=300');
  c.header('Access-Control-Allow-Origin', '*');
  c.header('Cross-Origin-Resource-Policy', 'cross-origin');
  return c.json(await certs.publishedKeys(c.env), 200);
};

export const revoke: AppRouteHandler<typeof routes.revokeCertificate> = async (c) => {
  const number = certs.requireCertificateNumber(c.req.valid('param').certificateNo);
  const { db, user } = c.var;
  const row = await certs.revokeCertificate(db, number, user, c.req.valid('json').reason);
  if (!row) throw new ProblemError('not-found', 'No certificate has this number.');
  await Promise.all([
    forgetVerifications(c.env.CACHE, [row.certificateNo]),
    purgeLeaderboards(c.env.CACHE, [row.domain]),
    recordAudit(db, {
      actorId: user.id,
      action: 'certificate.revoked',
      targetType: 'certificate',
      targetId: row.id,
    }),
  ]);
  const full = await certs.holderCertificate(db, row.certificateNo);
  return c.json(certs.certificateView(c.env, full!), 200);
};
