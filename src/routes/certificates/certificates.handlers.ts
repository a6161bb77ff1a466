import { getReadReplicaDb } from '../../db/client';
import { badgeSvg as badgeSvg_, bakePng, bakeSvg } from '../../domain/certificates/badge';
import { finishedResponse, openDocument, publicJson } from '../../http/finished-response';
import type { AppRouteHandler } from '../../http/types';
import { gzipBody } from '../../lib/content-coding';
import { PROBLEM_CONTENT_TYPE, ProblemError, problemBody } from '../../lib/problem';
import { waitUntilOf } from '../../middleware/rate-limit';
import * as certs from '../../services/certificates';
import { JWKS_MAX_AGE, publishedKeysPayload } from '../../services/signing-key';
import type * as routes from './certificates.routes';

/** The credential a badge carries, and what its face shows; 404 / 410 as the routes document. */
async function badgeSource(c: Parameters<AppRouteHandler<typeof routes.getBadgeSvg>>[0]) {
  const number = certs.requireCertificateNumber(c.req.valid('param').certificateNo);
  const found = await certs.verification(c.get('db'), c.env, number, () => getReadReplicaDb(c.env.DB));
  if (!found) throw new ProblemError('not-found', 'No certificate has this number.');
  const v = JSON.parse(found.json) as certs.VerificationPayload;
  if (v.status === 'revoked') throw new ProblemError('certificate-revoked', 'This certificate was revoked.');
  if (!v.credential)
    throw new ProblemError('not-found', 'This certificate is not issued yet: nothing is signed.');
  return {
    jwt: v.credential.jwt,
    face: {
      title: v.brief.title,
      organisation: v.employer.name,
      certificateNo: v.certificateNo,
      issuedAt: new Date(v.issuedAt),
    },
  };
}

const badgeHeaders = (file: string) => ({
  'Cache-Control': 'public, max-age=300',
  'Content-Disposition': `inline; filename="${file}"`,
  'Access-Control-Allow-Origin': '*',
  'Cross-Origin-Resource-Policy': 'cross-origin',
});

export const badgeSvg: AppRouteHandler<typeof routes.getBadgeSvg> = async (c) => {
  const { jwt, face } = await badgeSource(c);
  return c.body(bakeSvg(badgeSvg_(face), jwt), 200, {
    ...badgeHeaders(`${face.certificateNo}.svg`),
    'Content-Type': 'image/svg+xml; charset=utf-8',
    // Opened on its own, the SVG is a document: it may draw itself and nothing else.
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
  });
};

export const badgePng: AppRouteHandler<typeof routes.getBadgePng> = async (c) => {
  const { jwt, face } = await badgeSource(c);
  // The renderer (resvg, HarfBuzz, fonts) is loaded only here, never on the verification path.
  const { cachedCertificateBadgePng } = await import('../../services/badge-image');
  const png = bakePng(await cachedCertificateBadgePng(c.env, face), jwt);
  return c.body(png, 200, { ...badgeHeaders(`${face.certificateNo}.png`), 'Content-Type': 'image/png' });
};

/** Hot path: no I/O on an isolate-memory hit, else one KV read. */
export const verify: AppRouteHandler<typeof routes.verifyCertificate> = async (c) => {
  const number = certs.requireCertificateNumber(c.req.valid('param').certificateNo);
  const found = await certs.verification(
    c.get('db'),
    c.env,
    number,
    () => getReadReplicaDb(c.env.DB),
    waitUntilOf(c),
  );
  // Answered here rather than thrown: made-up numbers are this route's commonest miss, and an
  // exception (its stack trace) costs more than the answer itself.
  if (!found) {
    const problem = problemBody('not-found', 'No certificate has this number.', {
      instance: c.req.path,
      requestId: c.get('requestId'),
    });
    return finishedResponse(c, JSON.stringify(problem), problem.status, {
      'Content-Type': PROBLEM_CONTENT_TYPE,
    });
  }
  const gzip = gzipBody(c.req.raw, found);
  return publicJson(c, found.json, found.etag, certs.VERIFICATION_CACHE_CONTROL, {
    gzip: gzip instanceof Promise ? await gzip : gzip,
  });
};

/** The JWK set, serialised and gzipped once per isolate and configuration (`publishedKeysPayload`). */
export const jwks: AppRouteHandler<typeof routes.getJwks> = async (c) => {
  const payload = await publishedKeysPayload(c.env);
  // The JSON the route documents, as served (hence not `c.json`, and the cast).
  return (await openDocument(c, payload.json, JWKS_MAX_AGE, { payload })) as never;
};

export const revoke: AppRouteHandler<typeof routes.revokeCertificate> = async (c) => {
  const number = certs.requireCertificateNumber(c.req.valid('param').certificateNo);
  const { db, user } = c.var;
  const actor = { ...user, ip: c.req.header('CF-Connecting-IP') ?? null };
  const row = await certs.revokeCertificate(db, number, actor, c.req.valid('json').reason, new Date(), c.env);
  if (!row) throw new ProblemError('not-found', 'No certificate has this number.');
  const full = await certs.holderCertificate(db, row.certificateNo);
  return c.json(certs.certificateView(c.env, full!), 200);
};
