import { z } from '@hono/zod-openapi';

export const ThumbprintParams = z.object({
  thumbprint: z
    .string()
    .max(43)
    .regex(/^[A-Za-z0-9_-]{43}$/)
    .openapi({
      param: { name: 'thumbprint', in: 'path' },
      description: 'RFC 7638 JWK thumbprint (SHA-256, base64url) of the key.',
      example: 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k',
    }),
});

export const IssuerParams = z.object({
  issuerId: z
    .string()
    .max(36)
    .regex(/^(platform|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/)
    .openapi({
      param: { name: 'issuerId', in: 'path' },
      description: 'An organisation id, or `platform` for the platform itself.',
      example: 'platform',
    }),
});

export const AchievementParams = z.object({
  briefId: z
    .string()
    .max(36)
    .uuid()
    .openapi({ param: { name: 'briefId', in: 'path' }, description: 'The brief whose achievement it is.' }),
});

export const StatusListParams = z.object({
  purpose: z
    .enum(['revocation'])
    .openapi({ param: { name: 'purpose', in: 'path' }, description: 'The status purpose of the list.' }),
  list: z
    .string()
    .max(7)
    .regex(/^(0|[1-9][0-9]{0,6})$/)
    .openapi({
      param: { name: 'list', in: 'path' },
      description: 'The list number (index ÷ 131,072).',
      example: '0',
    }),
});

export const JwkSchema = z
  .object({
    '@context': z
      .array(z.union([z.string(), z.record(z.string(), z.unknown())]))
      .optional()
      .openapi({
        description:
          'On `/ob/keys/{thumbprint}` only: JSON-LD terms for the JWK members (ignored by JOSE libraries).',
      }),
    kty: z.enum(['EC', 'OKP']),
    crv: z.enum(['P-256', 'Ed25519']),
    x: z.string(),
    y: z.string().optional().openapi({ description: 'P-256 keys only.' }),
    kid: z
      .string()
      .openapi({ description: 'Exactly the `kid` in the headers of the credentials it signed.' }),
    use: z.literal('sig'),
    alg: z.enum(['ES256', 'EdDSA']),
  })
  .openapi('Jwk', { description: 'One public signing key (never private members).' });

const Context = z.array(z.union([z.string(), z.record(z.string(), z.unknown())]));

export const ProfileSchema = z
  .object({
    '@context': Context,
    id: z.string().url(),
    type: z.array(z.string()),
    name: z.string().openapi({
      description: 'The organisation’s name now (it may differ from the name signed into older credentials).',
    }),
    url: z.string().optional(),
    description: z.string(),
    verification: z
      .object({
        state: z.enum(['unverified', 'pending', 'verified', 'rejected', 'suspended', 'platform']),
        method: z.enum(['dns', 'admin']).nullable(),
        domain: z.string().nullable(),
        verifiedAt: z.string().datetime().nullable(),
      })
      .openapi({
        description: 'Where the organisation stands with the platform (an extension to the OB Profile).',
      }),
  })
  .openapi('IssuerProfile', { description: 'An Open Badges 3.0 `Profile`.' });

export const AchievementSchema = z
  .object({
    '@context': Context,
    id: z.string().url(),
    type: z.array(z.string()),
    achievementType: z.string(),
    name: z.string(),
    description: z.string(),
    image: z
      .object({ id: z.string().url(), type: z.literal('Image'), caption: z.string() })
      .openapi({ description: 'A PNG of the badge, no credential baked in (`…/image.png`).' }),
    criteria: z.object({
      id: z.string().url().openapi({ description: 'The public Criteria document (`…/criteria`).' }),
      narrative: z.string(),
    }),
    resultDescription: z.array(
      z
        .object({ id: z.string(), type: z.array(z.string()), name: z.string(), resultType: z.string() })
        .passthrough(),
    ),
    validForMonths: z.number().int().optional(),
  })
  .openapi('Achievement', {
    description: 'An Open Badges 3.0 `Achievement`: what a certificate of the brief attests.',
  });

export const CriteriaSchema = z
  .object({
    '@context': Context,
    id: z.string().url(),
    type: z.array(z.string()),
    name: z.string(),
    narrative: z.string().openapi({ description: 'Markdown: what earns the achievement, and the rubric.' }),
  })
  .openapi('Criteria', {
    description: 'An Open Badges 3.0 `Criteria` document (an achievement’s `criteria.id`).',
  });
