import { z } from '@hono/zod-openapi';

export const IssuerMetadataSchema = z
  .object({
    credential_issuer: z.string(),
    authorization_servers: z.array(z.string()),
    credential_endpoint: z.string(),
    nonce_endpoint: z.string(),
    display: z.array(z.strictObject({ name: z.string(), locale: z.string() })),
    credential_configurations_supported: z.record(z.string(), z.record(z.string(), z.unknown())),
  })
  .openapi('CredentialIssuerMetadata', {
    description:
      'OpenID for Verifiable Credential Issuance 1.0 Credential Issuer Metadata: the certificate as an Open Badges 3.0 ' +
      '`OpenBadgeCredential` in two configurations, `OpenBadgeCredential_jwt_vc_json` (VC-JWT, ES256) and ' +
      '`OpenBadgeCredential_ldp_vc` (Data Integrity, eddsa-rdfc-2022), bound to a `did:key` or `did:jwk` proved with ' +
      'a `jwt` proof.',
  });

export const AuthorizationServerMetadataSchema = z
  .object({
    issuer: z.string(),
    token_endpoint: z.string(),
    grant_types_supported: z.array(z.string()),
    token_endpoint_auth_methods_supported: z.array(z.string()),
    'pre-authorized_grant_anonymous_access_supported': z.boolean(),
    response_types_supported: z.array(z.string()),
  })
  .openapi('Oid4vciAuthorizationServerMetadata', {
    description: 'RFC 8414 metadata of the authorization server of the pre-authorized code grant.',
  });

export const CredentialOfferSchema = z
  .object({
    credential_issuer: z.string(),
    credential_configuration_ids: z.array(z.string()),
    grants: z.record(z.string(), z.record(z.string(), z.unknown())),
  })
  .openapi('CredentialOffer', {
    description:
      'An OID4VCI credential offer with a pre-authorized code (and `tx_code` when the holder asked for a transaction ' +
      'code). Served until it is redeemed or expires.',
  });

export const OfferParams = z.strictObject({
  offerId: z
    .string()
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/)
    .openapi({ param: { name: 'offerId', in: 'path' }, example: 'q3N7dXb1kq2Zs0x9pL4a1A' }),
});

// RFC 6749 § 3.2: unrecognised parameters are ignored (wallets send `client_id`, `resource`, …).
export const TokenForm = z.object({
  grant_type: z.string().max(200).optional(),
  'pre-authorized_code': z.string().max(200).optional(),
  tx_code: z.string().max(50).optional(),
});

export const TokenResponseSchema = z.strictObject({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
});

export const OAuthErrorSchema = z
  .object({ error: z.string(), error_description: z.string().optional() })
  .openapi('Oid4vciError', {
    description: 'An OAuth 2.0 / OID4VCI error response (not problem+json: what wallets read).',
  });

export const NonceResponseSchema = z.strictObject({ c_nonce: z.string() });

export const CredentialRequestSchema = z.strictObject({
  credential_configuration_id: z.string().max(100).optional(),
  proof: z.strictObject({ proof_type: z.string().max(20), jwt: z.string().max(8192).optional() }).optional(),
  proofs: z.strictObject({ jwt: z.array(z.string().max(8192)).max(1).optional() }).optional(),
});

export const CredentialResponseSchema = z.strictObject({
  credentials: z.array(
    z.strictObject({
      credential: z.union([z.string(), z.record(z.string(), z.unknown())]),
    }),
  ),
});

export const CredentialOfferRequestSchema = z.strictObject({
  txCode: z
    .boolean()
    .optional()
    .openapi({
      description:
        'Protect the offer with a transaction code (default true): the wallet must also type `txCode`. Use it whenever ' +
        'the QR code is shown on a screen other people may see.',
    }),
});

export const CredentialOfferCreatedSchema = z
  .object({
    credentialOfferUri: z.string().openapi({
      description: '`openid-credential-offer://?credential_offer_uri=…`: what the QR code encodes.',
    }),
    offerUrl: z
      .string()
      .openapi({ description: 'Where the offer document is (the `credential_offer_uri`).' }),
    txCode: z.string().nullable().openapi({
      description:
        'The transaction code to type into the wallet (6 digits), or null for an offer without one.',
    }),
    expiresAt: z.string().openapi({ description: 'The offer works once, until then (ten minutes).' }),
  })
  .openapi('CredentialOfferCreated');
