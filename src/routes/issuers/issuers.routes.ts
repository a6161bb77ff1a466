import { defineRoute } from '../../http/route';
import { GZIP_RESPONSE_HEADERS } from '../../lib/content-coding';
import { IssuerParams } from '../ob/ob.schemas';
import { DidDocumentSchema } from './issuers.schemas';

const HEADERS = {
  'Cache-Control': { schema: { type: 'string' as const } },
  'Access-Control-Allow-Origin': { schema: { type: 'string' as const } },
  ...GZIP_RESPONSE_HEADERS,
};

export const getIssuerDidDocument = defineRoute({
  method: 'get',
  path: '/issuers/{issuerId}/did.json',
  operationId: 'getIssuerDidDocument',
  tags: ['Open Badges'],
  summary: 'An issuer’s DID document (`did:web`, what wallets resolve)',
  description:
    'Public, CORS open. Where `did:web:{host}:issuers:{issuerId}` resolves (W3C did:web): the issuer’s Ed25519 key ' +
    '(Data Integrity, eddsa-rdfc-2022) and the platform’s ES256 keys (VC-JWT), each a verification method whose ' +
    'controller is the DID, the `issuer.id` of the credentials it signs.',
  security: [],
  request: { params: IssuerParams },
  errors: [503],
  responses: {
    200: {
      description: 'The DID document.',
      headers: HEADERS,
      content: {
        'application/did+json': { schema: DidDocumentSchema },
        'application/json': { schema: DidDocumentSchema },
      },
    },
  },
});
