import type { RouteConfig } from '@hono/zod-openapi';
import { defineRoute } from '../../http/route';
import { json } from '../../lib/content';
import { CLR_SCOPES, OB_SCOPES } from '../../services/portability/oauth';
import {
  CredentialsQuery,
  GetClrCredentialsResponseSchema,
  GetOpenBadgeCredentialsResponseSchema,
  HolderProfileSchema,
  ImsxStatusInfoSchema,
  ServiceDescriptionSchema,
} from './ims.schemas';

/** The tag of every `/ims/` operation, and of nothing else (the OAuth endpoints are under "Portability"). */
export const IMS_TAG = 'Open Badges API';

const IMSX = json(ImsxStatusInfoSchema);

const BEARER_CHALLENGE = {
  'WWW-Authenticate': {
    description:
      'RFC 6750: `Bearer realm="ims"`, with `error="invalid_token"` when a token was sent but is unknown, expired or ' +
      'revoked, and `error="insufficient_scope", scope="…"` on a 403.',
    schema: { type: 'string' as const },
  },
};

const IMSX_ERRORS = {
  400: { description: 'An invalid query parameter (`invalid_query_parameter`).', content: IMSX },
  401: {
    description: 'No access token, or one that is unknown, expired or revoked (`unauthorizedrequest`).',
    headers: BEARER_CHALLENGE,
    content: IMSX,
  },
  403: {
    description: 'The access token lacks the operation’s scope (`forbidden`).',
    headers: BEARER_CHALLENGE,
    content: IMSX,
  },
  405: { description: 'The method is not offered on this path (`not_allowed`).', content: IMSX },
  429: { description: 'Too many requests (`server_busy`); see `Retry-After`.', content: IMSX },
  500: { description: 'An internal error, without internals (`internal_server_error`).', content: IMSX },
} satisfies RouteConfig['responses'];

/**
 * An `/ims/` operation: defined like every route, then documented with the Open Badges API's own
 * error shape (`Imsx_StatusInfo`, not problem+json; the Worker entry converts, src/index.ts) and, for
 * protected ones, the OAuth 2.0 security scheme with the operation's scope.
 */
function ims<R extends { responses: RouteConfig['responses'] }>(
  route: R,
  options: { scope?: string; statuses: (keyof typeof IMSX_ERRORS)[] },
): R {
  const errors = Object.fromEntries(options.statuses.map((s) => [s, IMSX_ERRORS[s]]));
  const success = Object.fromEntries(
    Object.entries(route.responses).filter(([status]) => Number(status) < 400),
  );
  return {
    ...route,
    ...(options.scope ? { security: [{ OAuth2ACG: [options.scope] }] } : {}),
    responses: { ...success, ...errors },
  };
}

export const getServiceDescription = ims(
  defineRoute({
    method: 'get',
    path: '/ims/ob/v3p0/discovery',
    operationId: 'getServiceDescription',
    tags: [IMS_TAG],
    summary: 'The Open Badges API’s Service Description Document',
    description:
      'Public (OB 3.0 § "Service Discovery Endpoint"). A profile of the 1EdTech OpenAPI file: this server’s Open Badges ' +
      'endpoints, the OAuth 2.0 authorization code flow (authorization, token and refresh URLs), the dynamic client ' +
      'registration URL (`x-imssf-registrationUrl`), the scopes, the privacy policy and the terms of service. A ' +
      'backpack or wallet given this server’s base URL starts here.',
    security: [],
    responses: {
      200: {
        description: 'The Service Description Document.',
        headers: { 'Cache-Control': { schema: { type: 'string' as const } } },
        content: json(ServiceDescriptionSchema),
      },
    },
  }),
  { statuses: [405, 500] },
);

export const getClrServiceDescription = ims(
  defineRoute({
    method: 'get',
    path: '/ims/clr/v2p0/discovery',
    operationId: 'getClrServiceDescription',
    tags: [IMS_TAG],
    summary: 'The CLR 2.0 API’s Service Description Document',
    description:
      'Public (CLR 2.0 § "Service Discovery Endpoint"; the same shape as the Open Badges one). The learner-record ' +
      'endpoint (`/ims/clr/v2p0/credentials`), the same OAuth 2.0 authorization server and registration URL as the ' +
      'Open Badges API, the CLR read scope, the privacy policy and the terms of service.',
    security: [],
    responses: {
      200: {
        description: 'The Service Description Document.',
        headers: { 'Cache-Control': { schema: { type: 'string' as const } } },
        content: json(ServiceDescriptionSchema),
      },
    },
  }),
  { statuses: [405, 500] },
);

export const getCredentials = ims(
  defineRoute({
    method: 'get',
    path: '/ims/ob/v3p0/credentials',
    operationId: 'getCredentials',
    tags: [IMS_TAG],
    summary: 'The holder’s credentials, for a client the holder authorised',
    description:
      'OAuth 2.0 bearer token with the scope `https://purl.imsglobal.org/spec/ob/v3p0/scope/credential.readonly`. ' +
      'The authenticated holder’s certificates that are signed and not revoked (expired ones included: a verifier ' +
      'checks `validUntil`), each as its VC-JWT, oldest first. Paged by `limit` and `offset`; `X-Total-Count` is the ' +
      'number matching (with `since`), and `Link` gives `first`, `last`, and `next`/`prev` where they exist.',
    request: { query: CredentialsQuery },
    responses: {
      200: {
        description: 'One page of the holder’s credentials.',
        headers: {
          'X-Total-Count': {
            description: 'How many credentials match, on all pages.',
            schema: { type: 'integer' as const },
          },
          Link: {
            description: 'RFC 8288 links with `rel` `first`, `last`, and `next` and `prev` when they exist.',
            schema: { type: 'string' as const },
          },
        },
        content: json(GetOpenBadgeCredentialsResponseSchema),
      },
    },
  }),
  { scope: OB_SCOPES.credentialReadonly, statuses: [400, 401, 403, 405, 429, 500] },
);

export const getProfile = ims(
  defineRoute({
    method: 'get',
    path: '/ims/ob/v3p0/profile',
    operationId: 'getProfile',
    tags: [IMS_TAG],
    summary: 'The holder’s profile, for a client the holder authorised',
    description:
      'OAuth 2.0 bearer token with the scope `https://purl.imsglobal.org/spec/ob/v3p0/scope/profile.readonly`. The ' +
      'holder as an OB 3.0 `Profile`: the id their credentials name as `credentialSubject.id`, and their name.',
    responses: {
      200: { description: 'The holder’s Profile.', content: json(HolderProfileSchema) },
    },
  }),
  { scope: OB_SCOPES.profileReadonly, statuses: [401, 403, 405, 429, 500] },
);

export const getClrCredentials = ims(
  defineRoute({
    method: 'get',
    path: '/ims/clr/v2p0/credentials',
    operationId: 'getClrCredentials',
    tags: [IMS_TAG],
    summary: 'The holder’s learner record (CLR 2.0), for a client the holder authorised',
    description:
      'OAuth 2.0 bearer token with the scope `https://purl.imsglobal.org/spec/clr/v2p0/scope/credential.readonly` ' +
      '(CLR 2.0 § "Comprehensive Learner Record Standard API"). The holder’s learner record, one `ClrCredential` ' +
      'signed as a VC-JWT now (as `GET /api/me/learner-record`), holding their certificates that are neither revoked ' +
      'nor expired; an empty list when there is none. `X-Total-Count` is 1 or 0.',
    responses: {
      200: {
        description: 'The learner record, or none.',
        headers: {
          'X-Total-Count': {
            description: 'How many ClrCredentials there are (1 or 0).',
            schema: { type: 'integer' as const },
          },
        },
        content: json(GetClrCredentialsResponseSchema),
      },
    },
  }),
  { scope: CLR_SCOPES.credentialReadonly, statuses: [401, 403, 405, 429, 500] },
);
