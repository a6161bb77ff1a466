/** `POST /api/admin/certificates/resign`: every live credential signed again, after `CERT_SIGNING_KEY` is rotated. */

import { defineRoute } from '../../http/route';
import { sessionAuth } from '../../http/route-auth';
import { json } from '../../lib/content';
import { ResignedPageSchema, ResignPageSchema } from './resign.schemas';

export const resignCredentials = defineRoute({
  method: 'post',
  path: '/api/admin/certificates/resign',
  operationId: 'resignCredentials',
  tags: ['Certificates'],
  summary: 'Sign every live credential again (after a signing-key rotation)',
  description:
    'Re-signs the active and revoked certificates, one page per call in a stable order, with the current keys: ' +
    'both securings, the VC-JWT (ES256) and the Data Integrity proof (the issuers’ Ed25519 keys, derived from ' +
    '`CERT_SIGNING_KEY`, change with it, so proofs made before a rotation stop verifying until re-signed). Number, ' +
    'dates, validity and status bit stay; each certificate commits on its own and is audit-logged ' +
    '(`certificate.resigned`, reason `signing key rotated`). Call again with `after` = `next` until `next` is null; ' +
    'running it twice is harmless. Credentials signed before Data Integrity get their Data Integrity form too. ' +
    'A 503 `not-configured` when the signing key is missing.',
  ...sessionAuth('admin'),
  request: { body: { required: false, content: json(ResignPageSchema) } },
  errors: [503],
  responses: {
    200: {
      description: 'The certificates re-signed in this page, and where the next begins.',
      content: json(ResignedPageSchema),
    },
  },
});
