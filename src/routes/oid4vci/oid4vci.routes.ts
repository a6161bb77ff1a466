import { defineRoute } from '../../http/route';
import { sessionAuth } from '../../http/route-auth';
import { json } from '../../lib/content';
import { errorResponses, RATE_LIMIT_HEADERS } from '../../lib/problem';
import { CertificateNoParams } from '../certificates/certificates.schemas';
import {
  AuthorizationServerMetadataSchema,
  CredentialOfferCreatedSchema,
  CredentialOfferRequestSchema,
  CredentialOfferSchema,
  CredentialRequestSchema,
  CredentialResponseSchema,
  IssuerMetadataSchema,
  NonceResponseSchema,
  OAuthErrorSchema,
  OfferParams,
  TokenForm,
  TokenResponseSchema,
} from './oid4vci.schemas';

const TAG = 'Portability';
const NO_STORE = { 'Cache-Control': { schema: { type: 'string' as const } } };

/** OID4VCI / OAuth 2.0 error objects (what wallets read), or a problem for a body that is not one at all. */
const OAUTH_ERROR = { ...json(OAuthErrorSchema), ...errorResponses(400)[400].content };
const BEARER_CHALLENGE = {
  'WWW-Authenticate': {
    description: 'RFC 6750: `Bearer realm="oid4vci", error="invalid_token"`.',
    schema: { type: 'string' as const },
  },
};

export const getIssuerMetadata = defineRoute({
  method: 'get',
  path: '/.well-known/openid-credential-issuer',
  operationId: 'getCredentialIssuerMetadata',
  tags: [TAG],
  summary: 'OID4VCI Credential Issuer Metadata',
  description: 'Public, CORS open. What a wallet reads first: the configurations offered and the endpoints.',
  security: [],
  responses: { 200: { description: 'The metadata.', content: json(IssuerMetadataSchema) } },
});

export const getAuthorizationServerMetadata = defineRoute({
  method: 'get',
  path: '/oid4vci/.well-known/oauth-authorization-server',
  operationId: 'getOid4vciAuthorizationServerMetadata',
  tags: [TAG],
  summary: 'The pre-authorized code grant’s authorization server metadata (RFC 8414)',
  description:
    'Public. The token endpoint of the pre-authorized code grant (the issuer metadata’s `authorization_servers`).',
  security: [],
  responses: { 200: { description: 'The metadata.', content: json(AuthorizationServerMetadataSchema) } },
});

export const getCredentialOffer = defineRoute({
  method: 'get',
  path: '/oid4vci/offers/{offerId}',
  operationId: 'getCredentialOffer',
  tags: [TAG],
  summary: 'A credential offer (the `credential_offer_uri`)',
  description:
    'Public: whoever holds the link may read it; the pre-authorized code it holds works once. 404 once redeemed or expired.',
  security: [],
  request: { params: OfferParams },
  errors: [404],
  responses: { 200: { description: 'The offer.', headers: NO_STORE, content: json(CredentialOfferSchema) } },
});

export const postToken = defineRoute({
  method: 'post',
  path: '/oid4vci/token',
  operationId: 'oid4vciToken',
  tags: [TAG],
  summary: 'Token endpoint: the pre-authorized code (and transaction code) for an access token',
  description:
    'Grant type `urn:ietf:params:oauth:grant-type:pre-authorized_code`. The code works once and until the offer ' +
    'expires (ten minutes); a wrong `tx_code` is counted, and the fifth spends the offer. Errors are OAuth 2.0 ' +
    'error responses (`invalid_grant`, `invalid_request`, `unsupported_grant_type`).',
  security: [],
  request: {
    body: { required: true, content: { 'application/x-www-form-urlencoded': { schema: TokenForm } } },
  },
  responses: {
    200: {
      description: 'An access token for the credential endpoint.',
      headers: NO_STORE,
      content: json(TokenResponseSchema),
    },
    400: { description: 'An OAuth 2.0 error.', headers: NO_STORE, content: OAUTH_ERROR },
  },
});

export const postNonce = defineRoute({
  method: 'post',
  path: '/oid4vci/nonce',
  operationId: 'oid4vciNonce',
  tags: [TAG],
  summary: 'Nonce endpoint: a fresh `c_nonce` for the proof of possession',
  description: 'Valid five minutes.',
  security: [],
  responses: { 200: { description: 'A nonce.', headers: NO_STORE, content: json(NonceResponseSchema) } },
});

export const postCredential = defineRoute({
  method: 'post',
  path: '/oid4vci/credential',
  operationId: 'oid4vciCredential',
  tags: [TAG],
  summary: 'Credential endpoint: the certificate’s credential, bound to the wallet’s key',
  description:
    '`Authorization: Bearer` with the access token from the token endpoint. `credential_configuration_id` chooses the VC-JWT or the Data ' +
    'Integrity form; one `jwt` proof (`typ: openid4vci-proof+jwt`, `aud` this issuer, `nonce` a fresh `c_nonce`) ' +
    'proves the wallet holds the key named by its `kid` (`did:key`, `did:jwk`) or `jwk`; `credentialSubject.id` is ' +
    'that key’s DID. Once per offer. Errors are OID4VCI error responses.',
  security: [],
  request: { body: { required: true, content: json(CredentialRequestSchema) } },
  responses: {
    200: { description: 'The credential.', headers: NO_STORE, content: json(CredentialResponseSchema) },
    400: {
      description: 'An OID4VCI error (`invalid_proof`, `invalid_nonce`, …).',
      headers: NO_STORE,
      content: OAUTH_ERROR,
    },
    401: {
      description: 'No valid access token (`invalid_token`).',
      headers: { ...NO_STORE, ...BEARER_CHALLENGE },
      content: OAUTH_ERROR,
    },
  },
});

export const postCredentialOffer = defineRoute({
  method: 'post',
  path: '/api/me/certificates/{certificateNo}/credential-offer',
  operationId: 'createCredentialOffer',
  tags: ['Certificates'],
  summary: 'Offer one of your certificates to your wallet (OID4VCI)',
  description:
    'A credential offer for a wallet (OpenID for Verifiable Credential Issuance 1.0, pre-authorized code): show ' +
    '`credentialOfferUri` as a QR code, scan it with the wallet, and type `txCode` when asked. Works once, for ten ' +
    'minutes. Only for your own active certificates.',
  ...sessionAuth(),
  request: {
    params: CertificateNoParams,
    body: { required: false, content: json(CredentialOfferRequestSchema) },
  },
  errors: [404, 409],
  responses: {
    201: {
      description: 'The offer.',
      headers: { ...RATE_LIMIT_HEADERS, ...NO_STORE },
      content: json(CredentialOfferCreatedSchema),
    },
  },
});
