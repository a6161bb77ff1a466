import { z } from '@hono/zod-openapi';

export const VerifyCredentialRequestSchema = z
  .object({
    credential: z
      .union([z.string().min(1).max(700_000), z.record(z.string(), z.unknown())])
      .optional()
      .openapi({
        description:
          'The credential as text: a compact VC-JWT (with or without a `vc` claim), or the JSON of a credential; ' +
          'or a JSON credential as an object (an embedded Data Integrity proof is not checked yet: verdict ' +
          '`unverifiable`). Nested at most 64 levels (deeper: 422).',
        example:
          'eyJhbGciOiJFUzI1NiIsImtpZCI6Imh0dHBzOi8vdW5pLmV4YW1wbGUvb2Iva2V5cy8xIiwidHlwIjoiSldUIn0.eyJ…',
      }),
    badge: z
      .string()
      .min(1)
      .max(700_000)
      .optional()
      .openapi({
        description:
          'A baked badge as base64 (standard or URL-safe) of its bytes: a PNG with an `iTXt` chunk ' +
          '`openbadgecredential`, or an SVG with an `<openbadges:credential>` element.',
      }),
    url: z
      .string()
      .min(1)
      .max(2048)
      .optional()
      .openapi({
        format: 'uri',
        description:
          'Where to fetch the credential: its answer may be a VC-JWT, a JSON credential (Data Integrity too) or a ' +
          'baked PNG or SVG badge, read as its `Content-Type` says (a web page or another image is not a credential: ' +
          'a failed `parse` check). Fetched under the outside-fetch rules (https, public addresses after DNS, ' +
          'same-origin redirects only, 3 s, 1 MiB) from the verification’s own budget of 6 fetches; a URL refused ' +
          'by them is a 422 `credential-url-refused`, one that gives no answer a 422 `credential-url-unreachable`.',
        example: 'https://badges.example.edu/credentials/42.png',
      }),
  })
  .strict()
  .openapi('VerifyCredentialRequest', { description: 'Exactly one of `credential`, `badge` and `url`.' });

const CheckSchema = z
  .object({
    check: z
      .enum(['parse', 'context', 'schema', 'signature', 'claims', 'times', 'status', 'issuer'])
      .openapi({
        description:
          'In the 1EdTech validator’s order: `parse` (VC-JWT or JSON, header policy), `context` (`@context` and ' +
          '`type`), `schema` (the AchievementCredential JSON Schema), `signature` (the `kid` URL’s key, or a did:web ' +
          '/ did:key issuer’s), `claims` (the JWT claims mirror the credential), `times`, `status` (Bitstring Status ' +
          'List), `issuer` (its Profile and its standing here).',
      }),
    outcome: z.enum(['passed', 'failed', 'warning', 'unverifiable', 'skipped']),
    detail: z.string(),
  })
  .openapi('CredentialCheck');

export const VerifyCredentialResultSchema = z
  .object({
    verdict: z.enum(['valid', 'revoked', 'suspended', 'expired', 'invalid', 'unverifiable']).openapi({
      description:
        '`invalid`: malformed, not an OB 3.0 AchievementCredential, bad signature or claims, or not valid yet. ' +
        '`unverifiable`: the signature or the status could not be checked (key or list unreachable, refused ' +
        'address, an embedded proof). Then `revoked`, `suspended` (its status bit, or its issuer suspended here), ' +
        '`expired`, `valid`. Warnings (e.g. the issuer’s Profile unreachable) do not change it.',
    }),
    summary: z.string().openapi({ description: 'One sentence: the verdict and the first failing check.' }),
    checks: z.array(CheckSchema),
    issuer: z.object({
      id: z.string().nullable(),
      name: z
        .string()
        .nullable()
        .openapi({ description: 'From its Profile when read, else as the credential names it.' }),
      url: z.string().nullable(),
      verifiedHere: z.boolean().openapi({
        description:
          'Whether the issuer is an organisation verified on this platform (one of ours, or an issuer whose domain ' +
          'a verified organisation proved by DNS).',
      }),
      standing: z.string().nullable().openapi({
        description:
          'Its verification state here (`verified`, `suspended`, …) when it is one of ours; null otherwise.',
      }),
    }),
    credential: z
      .object({
        id: z.string().nullable(),
        type: z.array(z.string()),
        name: z.string().nullable(),
        achievement: z.object({
          id: z.string().nullable(),
          name: z.string().nullable(),
          description: z.string().nullable(),
          achievementType: z.string().nullable(),
        }),
        subjectId: z.string().nullable(),
        validFrom: z.string().nullable(),
        validUntil: z.string().nullable(),
        evidence: z.array(z.string()),
      })
      .nullable()
      .openapi({ description: 'What the credential says (unverified when the verdict is not `valid`).' }),
    format: z.enum(['vc-jwt', 'json']).nullable(),
    verifiedCredential: z
      .string()
      .nullable()
      .openapi({
        description:
          'Exactly the credential these checks are about, as read from what was sent: the compact VC-JWT, or the ' +
          'JSON credential’s text. For a baked badge, the one credential in the image (an image carrying more than ' +
          'one is refused at `parse`). A display shows this credential’s claims and nothing else.',
      }),
    container: z.enum(['text', 'png', 'svg']).nullable(),
    algorithm: z.string().nullable(),
    kid: z.string().nullable(),
    checkedAt: z.string().datetime(),
    fetched: z
      .object({
        url: z.string().openapi({ description: 'The `url` as it was sent.' }),
        finalUrl: z.string().openapi({
          description: 'Where the answer came from (only a redirect on the same origin is followed).',
        }),
        mediaType: z.string().nullable().openapi({
          description: 'The answer’s `Content-Type` (its media type only), null when it named none.',
        }),
        size: z.number().int().openapi({ description: 'The answer’s size in bytes.' }),
      })
      .nullable()
      .openapi({ description: 'When the credential was named by `url`: what was fetched; otherwise null.' }),
  })
  .openapi('CredentialVerification');
