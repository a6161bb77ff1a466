import { getReadReplicaDb } from '../../db/client';
import { keyByThumbprint, VC_CONTEXT_V2 } from '../../domain/certificates/credential';
import { JWK_CONTEXT } from '../../domain/certificates/jsonld-terms';
import { noneMatch } from '../../lib/etag';
import { ProblemError } from '../../lib/problem';
import type { AppRouteHandler } from '../../lib/types';
import { criteriaDocument, achievementImage as image } from '../../services/achievement-documents';
import { publishedKeys } from '../../services/certificates';
import {
  achievementDocument,
  issuerProfile,
  STATUS_LIST_MAX_AGE,
  statusList,
} from '../../services/status-lists';
import type * as routes from './ob.routes';

/** Documents anyone may fetch, from any origin, and keep a while. */
const open = (maxAge: number) => ({
  'Cache-Control': `public, max-age=${maxAge}`,
  'Access-Control-Allow-Origin': '*',
  'Cross-Origin-Resource-Policy': 'cross-origin',
});

export const key: AppRouteHandler<typeof routes.getKey> = async (c) => {
  const jwks = await publishedKeys(c.env);
  const found = await keyByThumbprint(jwks, c.req.valid('param').thumbprint);
  if (!found) throw new ProblemError('not-found', 'No signing key has this thumbprint.');
  // A key never changes under its thumbprint; only whether it is still published does. The
  // `@context` (ignored by JOSE, RFC 7517 §4) lets a JSON-LD processor read the document too.
  return c.json({ '@context': [VC_CONTEXT_V2, JWK_CONTEXT], ...found }, 200, open(3600));
};

export const issuer: AppRouteHandler<typeof routes.getIssuer> = async (c) => {
  const profile = await issuerProfile(c.env, getReadReplicaDb(c.env.DB), c.req.valid('param').issuerId);
  if (!profile) throw new ProblemError('not-found', 'No issuer has this id.');
  return c.json(profile, 200, open(300));
};

export const achievement: AppRouteHandler<typeof routes.getAchievement> = async (c) => {
  const doc = await achievementDocument(c.env, getReadReplicaDb(c.env.DB), c.req.valid('param').briefId);
  if (!doc) throw new ProblemError('not-found', 'No public brief has this id.');
  return c.json(doc, 200, open(300));
};

export const statusListDocument: AppRouteHandler<typeof routes.getStatusList> = async (c) => {
  const { purpose, list } = c.req.valid('param');
  const number = Number(list);
  // The primary, not a replica: a revocation must show at once.
  const found = await statusList(c.env, c.var.db, purpose, number);
  if (!found) throw new ProblemError('not-found', 'No status list has this number.');
  const headers = { ...open(STATUS_LIST_MAX_AGE), ETag: found.etag };
  if (noneMatch(c.req.header('If-None-Match'), found.etag)) return c.body(null, 304, headers);
  return c.body(found.jwt, 200, { ...headers, 'Content-Type': 'application/vc+jwt' });
};

export const criteria: AppRouteHandler<typeof routes.getCriteria> = async (c) => {
  const doc = await criteriaDocument(c.env, getReadReplicaDb(c.env.DB), c.req.valid('param').briefId);
  if (!doc) throw new ProblemError('not-found', 'No public brief has this id.');
  return c.json(doc, 200, open(300));
};

export const achievementImage: AppRouteHandler<typeof routes.getAchievementImage> = async (c) => {
  const png = await image(getReadReplicaDb(c.env.DB), c.req.valid('param').briefId);
  if (!png) throw new ProblemError('not-found', 'No public brief has this id.');
  return c.body(png, 200, { ...open(300), 'Content-Type': 'image/png' });
};
