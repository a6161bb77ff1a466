import { getDb, getReadReplicaDb } from '../../db/client';
import { parseCertificateNumber } from '../../domain/certificates/certificate-number';
import { decodeCursor, toPage } from '../../lib/paging';
import { ProblemError } from '../../lib/problem';
import type { AppRouteHandler } from '../../lib/types';
import { recordAudit } from '../../services/audit';
import { forgetVerifications, purgeLeaderboards } from '../../services/cache-keys';
import * as certs from '../../services/certificates';
import type * as routes from './certificates.routes';

/** A mistyped number is refused before any lookup (the check character catches typos). */
function certificateNumber(input: string): string {
  const parsed = parseCertificateNumber(input);
  if (parsed.ok) return parsed.normalised;
  throw new ProblemError(
    'invalid-parameters',
    parsed.reason === 'checksum'
      ? 'This certificate number has a typo: its check character does not match.'
      : 'Certificate numbers look like VP-XXXX-XXXX-XXXX.',
    {
      errors: [
        {
          pointer: '#/path/certificateNo',
          detail: parsed.reason === 'checksum' ? 'Check character mismatch' : 'Invalid format',
        },
      ],
    },
  );
}

/** Hot path: no I/O on an isolate-memory hit, else one KV read. */
export const verify: AppRouteHandler<typeof routes.verifyCertificate> = async (c) => {
  const number = certificateNumber(c.req.valid('param').certificateNo);
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
  const set = await certs.publishedKeys(c.env);
  return c.json(
    set as { keys: { kty: string; crv: string; x: string; kid: string; use: string; alg: string }[] },
    200,
  );
};

const view = (env: Env, r: certs.HolderCertificate) => ({
  certificateNo: r.certificateNo,
  status: r.status,
  brief: { id: r.briefId, title: r.briefTitle },
  domain: r.domain,
  issuedAt: r.issuedAt.toISOString(),
  revokedAt: r.revokedAt?.toISOString() ?? null,
  credential: { format: 'vc-jwt' as const, jwt: r.credentialJwt },
  verifyUrl: `${env.PUBLIC_BASE_URL}/api/verify/${r.certificateNo}`,
});

export const mine: AppRouteHandler<typeof routes.myCertificates> = async (c) => {
  const { limit, cursor } = c.req.valid('query');
  const rows = await certs.certificatesOf(getDb(c.env.DB), c.get('user')!.id, limit, decodeCursor(cursor));
  const page = toPage(rows, limit, certs.certificatePosition);
  return c.json({ items: page.items.map((r) => view(c.env, r)), nextCursor: page.nextCursor }, 200);
};

export const revoke: AppRouteHandler<typeof routes.revokeCertificate> = async (c) => {
  const number = certificateNumber(c.req.valid('param').certificateNo);
  const user = c.get('user')!;
  const db = getDb(c.env.DB);
  let row: Awaited<ReturnType<typeof certs.revokeCertificate>>;
  try {
    row = await certs.revokeCertificate(db, number, user, c.req.valid('json').reason);
  } catch (err) {
    if (err instanceof certs.RevocationRefused) throw new ProblemError('conflict', err.message);
    throw err;
  }
  if (!row) throw new ProblemError('not-found', 'No certificate has this number.');
  await Promise.all([
    forgetVerifications(c.env.CACHE, [row.certificateNo]),
    purgeLeaderboards(c.env.CACHE),
    recordAudit(db, {
      actorId: user.id,
      action: 'certificate.revoked',
      targetType: 'certificate',
      targetId: row.id,
    }),
  ]);
  const full = await certs.holderCertificate(db, row.certificateNo);
  return c.json(view(c.env, full!), 200);
};
