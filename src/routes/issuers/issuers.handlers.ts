import { getReadReplicaDb } from '../../db/client';
import { openDocument } from '../../http/finished-response';
import type { AppRouteHandler } from '../../http/types';
import { ProblemError } from '../../lib/problem';
import { issuerDidDocumentFor } from '../../services/issuer-keys';
import { cachedObDocument, OB_DOCUMENT_TTL_SECONDS } from '../../services/ob-documents';
import { issuerProfile } from '../../services/status-lists';
import type * as routes from './issuers.routes';

export const didDocument: AppRouteHandler<typeof routes.getIssuerDidDocument> = async (c) => {
  const id = c.req.valid('param').issuerId;
  // Only issuers that exist (their Profile, cached as the Open Badges documents are).
  const profile = await cachedObDocument(c.env, 'issuer', id, () =>
    issuerProfile(getReadReplicaDb(c.env.DB), c.env, id),
  );
  if (profile === null) throw new ProblemError('not-found', 'No issuer has this id.');
  const document = await issuerDidDocumentFor(c.env, id);
  return (await openDocument(c, JSON.stringify(document), OB_DOCUMENT_TTL_SECONDS, {
    contentType: 'application/did+json',
  })) as never;
};
