import { getReadReplicaDb } from '../../db/client';
import { keyByThumbprint, VC_CONTEXT_V2 } from '../../domain/certificates/credential';
import { JWK_CONTEXT } from '../../domain/certificates/jsonld-terms';
import { openDocument } from '../../http/finished-response';
import type { AppRouteHandler } from '../../http/types';
import { noneMatch } from '../../lib/etag';
import { ProblemError } from '../../lib/problem';
import { criteriaDocument, achievementImage as image } from '../../services/achievement-documents';
import { cachedObDocument, OB_DOCUMENT_TTL_SECONDS } from '../../services/ob-documents';
import { publishedKeys } from '../../services/signing-key';
import { statusListDataIntegrity, wantsJsonLd } from '../../services/status-list-data-integrity';
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

/** The published keys by thumbprint, serialised once per isolate and configuration (issue 43). */
let keysMemo: { config: string; byThumbprint: Map<string, string | null> } | null = null;

export const key: AppRouteHandler<typeof routes.getKey> = async (c) => {
  const config = `${c.env.CERT_SIGNING_KEY}\n${c.env.CERT_PREVIOUS_PUBLIC_KEYS}\n${c.env.PUBLIC_BASE_URL}`;
  const thumbprint = c.req.valid('param').thumbprint;
  if (keysMemo?.config !== config) keysMemo = { config, byThumbprint: new Map() };
  let json = keysMemo.byThumbprint.get(thumbprint);
  if (json === undefined) {
    const found = await keyByThumbprint(await publishedKeys(c.env), thumbprint);
    // The `@context` (ignored by JOSE, RFC 7517 §4) lets a JSON-LD processor read the document too.
    json = found ? JSON.stringify({ '@context': [VC_CONTEXT_V2, JWK_CONTEXT], ...found }) : null;
    // Unknown thumbprints are not remembered: anyone can ask for any number of them.
    if (found) keysMemo.byThumbprint.set(thumbprint, json);
  }
  if (json === null) throw new ProblemError('not-found', 'No signing key has this thumbprint.');
  // A key never changes under its thumbprint; only whether it is still published does.
  // The JSON the route documents, serialised once (hence not `c.json`, and the cast).
  return (await openDocument(c, json, 3600)) as never;
};

/** Cached (memory, KV, D1 on a miss: services/ob-documents.ts); the JSON is sent as stored. */
export const issuer: AppRouteHandler<typeof routes.getIssuer> = async (c) => {
  const id = c.req.valid('param').issuerId;
  const json = await cachedObDocument(c.env, 'issuer', id, () =>
    issuerProfile(getReadReplicaDb(c.env.DB), c.env, id),
  );
  if (json === null) throw new ProblemError('not-found', 'No issuer has this id.');
  return (await openDocument(c, json, OB_DOCUMENT_TTL_SECONDS)) as never;
};

export const achievement: AppRouteHandler<typeof routes.getAchievement> = async (c) => {
  const id = c.req.valid('param').briefId;
  const json = await cachedObDocument(c.env, 'achievement', id, () =>
    achievementDocument(getReadReplicaDb(c.env.DB), c.env, id),
  );
  if (json === null) throw new ProblemError('not-found', 'No public brief has this id.');
  return (await openDocument(c, json, OB_DOCUMENT_TTL_SECONDS)) as never;
};

export const statusListDocument: AppRouteHandler<typeof routes.getStatusList> = async (c) => {
  const { purpose, list } = c.req.valid('param');
  const number = Number(list);
  // The primary, not a replica, on a miss: a revocation must show as soon as the list's memory
  // and KV entry are forgotten (services/status-lists.ts).
  const found = await statusList(c.get('db'), c.env, purpose, number);
  if (!found) throw new ProblemError('not-found', 'No status list has this number.');
  const headers = { ...open(STATUS_LIST_MAX_AGE), ETag: found.etag };
  // JSON-LD clients (Data Integrity verifiers) get the same list with an embedded proof.
  const jsonLd = wantsJsonLd(c.req.header('Accept'));
  const etag = jsonLd ? found.etag.replace(/"$/, '-di"') : found.etag;
  const varied = { ...headers, ETag: etag, Vary: 'Accept' };
  if (noneMatch(c.req.header('If-None-Match'), etag)) return c.body(null, 304, varied);
  if (jsonLd) {
    const body = await statusListDataIntegrity(c.env, found.jwt);
    return c.body(body, 200, { ...varied, 'Content-Type': 'application/vc+ld+json' });
  }
  return c.body(found.jwt, 200, { ...varied, 'Content-Type': 'application/vc+jwt' });
};

export const criteria: AppRouteHandler<typeof routes.getCriteria> = async (c) => {
  const doc = await criteriaDocument(getReadReplicaDb(c.env.DB), c.env, c.req.valid('param').briefId);
  if (!doc) throw new ProblemError('not-found', 'No public brief has this id.');
  return c.json(doc, 200, open(300));
};

export const achievementImage: AppRouteHandler<typeof routes.getAchievementImage> = async (c) => {
  const png = await image(getReadReplicaDb(c.env.DB), c.env, c.req.valid('param').briefId);
  if (!png) throw new ProblemError('not-found', 'No public brief has this id.');
  return c.body(png, 200, { ...open(300), 'Content-Type': 'image/png' });
};
