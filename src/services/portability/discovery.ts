import { CLR_SCOPES, OB_SCOPES, oauthUrl, privacyPolicyUrl, SCOPE_DESCRIPTIONS } from './oauth';

const IMSX = { $ref: '#/components/schemas/Imsx_StatusInfo' };
const errors = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((s) => [
      String(s),
      { description: `Error ${s}.`, content: { 'application/json': { schema: IMSX } } },
    ]),
  );

/**
 * The Service Description Document (OB 3.0 § "Request the Service Description Document"): a
 * profile of the specification's OpenAPI 3.0 file naming this deployment's endpoints, OAuth 2.0
 * authorization code flow, registration URL and scopes, with the privacy policy and terms the
 * holder may be shown. Only the operations this server offers are listed.
 */
export function serviceDescription(env: Pick<Env, 'PUBLIC_BASE_URL'>) {
  const base = env.PUBLIC_BASE_URL.replace(/\/+$/, '');
  return {
    openapi: '3.0.1',
    info: {
      title: 'Verification Platform',
      version: '3.0',
      description:
        'Open Badges API of the Verification Platform: a holder’s certificates, with their permission.',
      termsOfService: privacyPolicyUrl(env),
      'x-imssf-privacyPolicyUrl': privacyPolicyUrl(env),
    },
    servers: [{ url: `${base}/ims/ob/v3p0`, description: 'This deployment.' }],
    tags: [
      { name: 'OpenBadgeCredentials', description: 'A holder’s OpenBadgeCredentials and Profile.' },
      { name: 'Discovery' },
    ],
    paths: {
      '/credentials': {
        get: {
          tags: ['OpenBadgeCredentials'],
          operationId: 'getCredentials',
          parameters: [
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
            { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0 } },
            { name: 'since', in: 'query', schema: { type: 'string', format: 'date-time' } },
          ],
          responses: {
            '200': {
              description: 'The holder’s credentials.',
              headers: { 'X-Total-Count': { schema: { type: 'integer' } } },
              content: {
                'application/json': {
                  schema: { $ref: '#/components/schemas/GetOpenBadgeCredentialsResponse' },
                },
              },
            },
            ...errors(400, 401, 403, 405, 500),
          },
          security: [{ OAuth2ACG: [OB_SCOPES.credentialReadonly] }],
        },
      },
      '/profile': {
        get: {
          tags: ['OpenBadgeCredentials'],
          operationId: 'getProfile',
          responses: {
            '200': {
              description: 'The holder’s Profile.',
              content: { 'application/json': { schema: { type: 'object' } } },
            },
            ...errors(401, 403, 405, 500),
          },
          security: [{ OAuth2ACG: [OB_SCOPES.profileReadonly] }],
        },
      },
      '/discovery': DISCOVERY_PATH,
    },
    components: {
      securitySchemes: securitySchemes(env, Object.values(OB_SCOPES)),
      schemas: { Imsx_StatusInfo: IMSX_STATUS_INFO, GetOpenBadgeCredentialsResponse: CREDENTIALS_LIST },
    },
  };
}

/**
 * The CLR 2.0 API's Service Description Document (CLR 2.0 § "Service Discovery Endpoint", the same
 * shape as Open Badges'): the learner-record endpoint, the same OAuth 2.0 server, registration URL
 * and privacy policy, and the CLR scope this server grants (read only; the learner record is built
 * here, never received).
 */
export function clrServiceDescription(env: Pick<Env, 'PUBLIC_BASE_URL'>) {
  const base = env.PUBLIC_BASE_URL.replace(/\/+$/, '');
  return {
    openapi: '3.0.1',
    info: {
      title: 'Verification Platform',
      version: '2.0',
      description:
        'Comprehensive Learner Record API of the Verification Platform: a holder’s learner record, with their permission.',
      termsOfService: privacyPolicyUrl(env),
      'x-imssf-privacyPolicyUrl': privacyPolicyUrl(env),
    },
    servers: [{ url: `${base}/ims/clr/v2p0`, description: 'This deployment.' }],
    tags: [
      { name: 'ClrCredentials', description: 'A holder’s learner record (one ClrCredential).' },
      { name: 'Discovery' },
    ],
    paths: {
      '/credentials': {
        get: {
          tags: ['ClrCredentials'],
          operationId: 'getCredentials',
          responses: {
            '200': {
              description: 'The holder’s learner record, or none.',
              headers: { 'X-Total-Count': { schema: { type: 'integer' } } },
              content: {
                'application/json': { schema: { $ref: '#/components/schemas/GetClrCredentialsResponse' } },
              },
            },
            ...errors(401, 403, 405, 500),
          },
          security: [{ OAuth2ACG: [CLR_SCOPES.credentialReadonly] }],
        },
      },
      '/discovery': DISCOVERY_PATH,
    },
    components: {
      securitySchemes: securitySchemes(env, Object.values(CLR_SCOPES)),
      schemas: { Imsx_StatusInfo: IMSX_STATUS_INFO, GetClrCredentialsResponse: COMPACT_JWS_LIST },
    },
  };
}

const DISCOVERY_PATH = {
  get: {
    tags: ['Discovery'],
    operationId: 'getServiceDescription',
    responses: {
      '200': {
        description: 'This document.',
        content: { 'application/json': { schema: { type: 'object' } } },
      },
      default: {
        description: 'An error.',
        content: { 'application/json': { schema: IMSX } },
      },
    },
  },
};

/** The one authorization server both APIs share (one grant can carry OB and CLR scopes). */
function securitySchemes(env: Pick<Env, 'PUBLIC_BASE_URL'>, scopes: string[]) {
  const token = oauthUrl(env, 'token');
  return {
    OAuth2ACG: {
      type: 'oauth2' as const,
      description: 'OAuth 2.0 Authorization Code Grant authorization (PKCE with S256 required)',
      'x-imssf-registrationUrl': oauthUrl(env, 'register'),
      flows: {
        authorizationCode: {
          authorizationUrl: oauthUrl(env, 'authorize'),
          tokenUrl: token,
          refreshUrl: token,
          scopes: Object.fromEntries(scopes.map((scope) => [scope, SCOPE_DESCRIPTIONS[scope] ?? scope])),
        },
      },
    },
  };
}

const IMSX_STATUS_INFO = {
  type: 'object',
  required: ['imsx_codeMajor', 'imsx_severity'],
  properties: {
    imsx_codeMajor: { type: 'string', enum: ['failure', 'processing', 'success', 'unsupported'] },
    imsx_severity: { type: 'string', enum: ['error', 'status', 'warning'] },
    imsx_description: { type: 'string' },
    imsx_codeMinor: { type: 'object' },
  },
};

/** OB 3.0 `GetOpenBadgeCredentialsResponse`: each credential as a VC-JWT, and as JSON with a Data Integrity proof. */
const CREDENTIALS_LIST = {
  type: 'object',
  properties: {
    credential: { type: 'array', items: { type: 'object' } },
    compactJwsString: {
      type: 'array',
      items: { type: 'string', pattern: '^[a-zA-Z0-9_-]+\\.[a-zA-Z0-9_-]*\\.[a-zA-Z0-9_-]+$' },
    },
  },
  additionalProperties: false,
};

const COMPACT_JWS_LIST = {
  type: 'object',
  properties: {
    compactJwsString: {
      type: 'array',
      items: { type: 'string', pattern: '^[a-zA-Z0-9_-]+\\.[a-zA-Z0-9_-]*\\.[a-zA-Z0-9_-]+$' },
    },
  },
  additionalProperties: false,
};
