import { z } from '@hono/zod-openapi';

const VerificationMethodSchema = z.strictObject({
  id: z.string(),
  type: z.enum(['Multikey', 'JsonWebKey']),
  controller: z.string(),
  publicKeyMultibase: z.string().optional(),
  publicKeyJwk: z
    .object({ kty: z.literal('EC'), crv: z.literal('P-256'), x: z.string(), y: z.string() })
    .optional(),
});

export const DidDocumentSchema = z
  .object({
    '@context': z.array(z.string()),
    id: z.string().openapi({ example: 'did:web:example.org:issuers:platform' }),
    alsoKnownAs: z.array(z.string()),
    verificationMethod: z.array(VerificationMethodSchema),
    assertionMethod: z.array(z.string()),
    authentication: z.array(z.string()),
  })
  .openapi('DidDocument', {
    description:
      'The DID document of an issuer’s `did:web` (a credential’s `issuer.id`): its Ed25519 key of the Data Integrity ' +
      'proofs (`Multikey`, `#ed25519-key-1`) and the ES256 keys of the VC-JWTs (`JsonWebKey`, current then retired), ' +
      'all controlled by the DID. `alsoKnownAs` is the issuer’s Open Badges Profile.',
  });
