import { z } from '@hono/zod-openapi';

/** OB 3.0 `Imsx_CodeMinorField` values (the spec's enumerated vocabulary). */
export const IMSX_CODE_MINOR = [
  'forbidden',
  'fullsuccess',
  'internal_server_error',
  'invalid_data',
  'invalid_query_parameter',
  'misdirected_request',
  'not_acceptable',
  'not_allowed',
  'not_found',
  'not_modified',
  'server_busy',
  'unauthorizedrequest',
  'unknown',
] as const;

export const ImsxStatusInfoSchema = z
  .object({
    imsx_codeMajor: z.enum(['failure', 'processing', 'success', 'unsupported']),
    imsx_severity: z.enum(['error', 'status', 'warning']),
    imsx_description: z.string().optional(),
    imsx_codeMinor: z
      .object({
        imsx_codeMinorField: z
          .array(
            z.object({
              imsx_codeMinorFieldName: z.string(),
              imsx_codeMinorFieldValue: z.enum(IMSX_CODE_MINOR),
            }),
          )
          .min(1),
      })
      .optional(),
  })
  .openapi('Imsx_StatusInfo', {
    description:
      'The Open Badges API error shape (OB 3.0 `Imsx_StatusInfo`): every error under `/ims/` uses it instead of ' +
      'problem+json, as the 1EdTech specification requires.',
    example: {
      imsx_codeMajor: 'failure',
      imsx_severity: 'error',
      imsx_description: 'The access token is missing, expired or revoked.',
      imsx_codeMinor: {
        imsx_codeMinorField: [
          { imsx_codeMinorFieldName: 'TargetEndSystem', imsx_codeMinorFieldValue: 'unauthorizedrequest' },
        ],
      },
    },
  });

export const CredentialsQuery = z.object({
  limit: z
    .string()
    .max(3)
    .optional()
    .openapi({
      param: { name: 'limit', in: 'query' },
      description: 'Credentials per page, 1–100 (default 20).',
      example: '20',
    }),
  offset: z
    .string()
    .max(9)
    .optional()
    .openapi({
      param: { name: 'offset', in: 'query' },
      description: 'Index of the first credential to return (zero indexed; default 0).',
      example: '0',
    }),
  since: z
    .string()
    .max(40)
    .optional()
    .openapi({
      param: { name: 'since', in: 'query' },
      description:
        'Only credentials issued after this time (ISO 8601 date-time, e.g. `2026-01-01T00:00:00Z`).',
      example: '2026-01-01T00:00:00Z',
    }),
});

export const GetOpenBadgeCredentialsResponseSchema = z
  .object({
    credential: z.array(z.record(z.string(), z.unknown())).openapi({
      description:
        'The same credentials secured with an embedded Data Integrity proof (eddsa-rdfc-2022, the issuer’s `did:web` ' +
        'Ed25519 key), oldest first; those signed before Data Integrity existed are here once re-signed.',
    }),
    compactJwsString: z
      .array(z.string().regex(/^[a-zA-Z0-9_-]+\.[a-zA-Z0-9_-]*\.[a-zA-Z0-9_-]+$/))
      .openapi({ description: 'The credentials, each a VC-JWT (compact JWS), oldest first.' }),
  })
  .openapi('GetOpenBadgeCredentialsResponse', {
    description:
      'OB 3.0 `GetOpenBadgeCredentialsResponse`: every credential is signed as a VC-JWT (`compactJwsString`) and, ' +
      'when it has one, also given with its embedded Data Integrity proof (`credential`).',
  });

export const GetClrCredentialsResponseSchema = z
  .object({
    compactJwsString: z
      .array(z.string().regex(/^[a-zA-Z0-9_-]+\.[a-zA-Z0-9_-]*\.[a-zA-Z0-9_-]+$/))
      .max(1)
      .openapi({ description: 'The learner record as a VC-JWT (compact JWS), or nothing.' }),
  })
  .openapi('GetClrCredentialsResponse', {
    description:
      'CLR 2.0 `GetClrCredentialsResponse`: the learner record is signed as a VC-JWT, so it is in `compactJwsString`.',
  });

export const HolderProfileSchema = z
  .object({
    '@context': z.array(z.string()),
    id: z
      .string()
      .openapi({ description: 'The id the holder’s credentials name as `credentialSubject.id`.' }),
    type: z.array(z.string()),
    name: z.string(),
  })
  .openapi('HolderProfile', {
    description:
      'The authenticated holder as an OB 3.0 `Profile`: the id their credentials name, and their name.',
    example: {
      '@context': ['https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json'],
      id: 'urn:uuid:9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a',
      type: ['Profile'],
      name: 'Asha Rao',
    },
  });

const Loose = z.record(z.string(), z.unknown());

export const ServiceDescriptionSchema = z
  .object({
    openapi: z.string(),
    info: z
      .object({
        title: z.string(),
        version: z.string(),
        termsOfService: z.string(),
        'x-imssf-privacyPolicyUrl': z.string(),
        description: z.string(),
      })
      .openapi({ description: 'Metadata about the resource server (OB 3.0 `OpenApiInfo`).' }),
    servers: z.array(z.object({ url: z.string(), description: z.string() })),
    tags: z.array(Loose),
    paths: Loose,
    components: z.object({
      securitySchemes: z.object({
        OAuth2ACG: z.object({
          type: z.literal('oauth2'),
          description: z.string(),
          'x-imssf-registrationUrl': z.string(),
          flows: z.object({
            authorizationCode: z.object({
              authorizationUrl: z.string(),
              tokenUrl: z.string(),
              refreshUrl: z.string(),
              scopes: z.record(z.string(), z.string()),
            }),
          }),
        }),
      }),
      schemas: Loose,
    }),
  })
  .openapi('ServiceDescriptionDocument', {
    description:
      'The Service Description Document (OB 3.0 § "Service Discovery Endpoint"): a profile of the specification’s ' +
      'OpenAPI 3.0 file with this server’s endpoints, its OAuth 2.0 flow, scopes and registration URL.',
  });
