import { z } from '@hono/zod-openapi';
import { defineRoute } from '../../http/route';
import { json } from '../../lib/content';
import { errorResponses } from '../../lib/problem';

const html = (description: string) => ({ 'text/html': { schema: z.string().openapi({ description }) } });
const text = (description: string) => ({ description, schema: { type: 'string' as const } });

const optional = (name: string, description: string) =>
  z
    .string()
    .max(4096)
    .optional()
    .openapi({ param: { name, in: 'query' }, description });

export const AuthorizeQuery = z.object({
  response_type: optional('response_type', 'Must be `code`.'),
  // Looked up as a KV key (at most 512 bytes): longer or non-ASCII ids are refused before any lookup.
  client_id: z
    .string()
    .max(200)
    .regex(/^[\x20-\x7e]*$/, 'Printable ASCII only')
    .optional()
    .openapi({
      param: { name: 'client_id', in: 'query' },
      description: 'The `client_id` from registration (at most 200 printable ASCII characters).',
    }),
  redirect_uri: optional('redirect_uri', 'One of the client’s registered redirect URIs, exactly.'),
  scope: optional('scope', 'Space-separated scopes (see the `OAuth2ACG` security scheme).'),
  state: optional('state', 'Returned unchanged to the client.'),
  code_challenge: optional('code_challenge', 'PKCE (RFC 7636) challenge: required.'),
  code_challenge_method: optional('code_challenge_method', 'Must be `S256`; `plain` is refused.'),
  resource: optional('resource', 'RFC 8707 resource indicator; if given, `{base}/ims`.'),
  lang: z
    .enum(['en', 'hi'])
    .optional()
    .openapi({
      param: { name: 'lang', in: 'query' },
      description:
        'The page’s language: `en` or `hi` (not an OAuth parameter; a client may pass the holder’s). Without it, the best of the two in `Accept-Language`, else English.',
    }),
});

export const AuthorizeForm = z.object({
  handle: z.string().min(1).max(200).openapi({ description: 'The page’s one-time consent handle.' }),
  decision: z.enum(['approve', 'deny']).openapi({ description: 'The holder’s choice.' }),
  lang: z
    .enum(['en', 'hi'])
    .optional()
    .openapi({ description: 'The language of the page the form was on: a refusal is shown in it.' }),
});

const PAGE_HEADERS = {
  'Content-Security-Policy': text(
    'The page’s own policy: the site’s stylesheet and script, forms to here or the client.',
  ),
  'Cache-Control': text('`no-store`.'),
  'Content-Language': text('The language the page is in (`en` or `hi`), by `lang`, else `Accept-Language`.'),
};
const REDIRECT = {
  description:
    'Back to the client’s `redirect_uri` with `code`, `state` and `iss` (RFC 9207), or with `error` ' +
    '(`access_denied`, `invalid_request`, …) and `state`.',
  headers: { Location: text('The client’s redirect URI with the result.') },
};

export const authorizePage = defineRoute({
  method: 'get',
  path: '/oauth/authorize',
  operationId: 'getAuthorizationPage',
  tags: ['Portability'],
  summary: 'The authorization page: the holder allows or denies a client (HTML)',
  description:
    'OAuth 2.0 authorization endpoint (authorization code with PKCE, S256 only). Signed out, the page asks the ' +
    'holder to sign in. Signed in, it shows the client’s name, its website, privacy policy and terms, where access ' +
    'will be sent and each scope asked for, with Allow and Deny. Until the holder has seen that page, every refusal ' +
    'is shown here and never redirects to the client (an unknown client or redirect URI, no PKCE or a plain ' +
    'challenge: 400; a scope this server does not support or the client did not register: 400 `invalid_scope`; a ' +
    'child’s account: 403). The website (`client_uri`) is shown only when it is on the redirect host’s domain.',
  security: [],
  request: { query: AuthorizeQuery },
  responses: {
    200: {
      description: 'The page.',
      headers: PAGE_HEADERS,
      content: html('A self-contained HTML document.'),
    },
    400: {
      description:
        'An invalid authorization request (an error page naming the OAuth error), or a malformed query (a problem).',
      content: { ...html('An error page.'), ...errorResponses(400)[400].content },
    },
    403: {
      description: 'A child’s account: access cannot be granted (an error page).',
      content: html('An error page.'),
    },
  },
});

export const authorizeDecision = defineRoute({
  method: 'post',
  path: '/oauth/authorize',
  operationId: 'decideAuthorization',
  tags: ['Portability'],
  summary: 'The holder’s Allow or Deny on the authorization page',
  description:
    'Posted by the page’s form (same origin only: `Origin` or `Sec-Fetch-Site: same-origin`; the handle works once, ' +
    'for ten minutes, in the browser that opened the page). Allow stores the grant (a consent: listed at ' +
    '`GET /api/me/oauth-grants`, revocable there) and redirects to the client with a code; Deny redirects with ' +
    '`error=access_denied`.',
  security: [],
  request: {
    body: { required: true, content: { 'application/x-www-form-urlencoded': { schema: AuthorizeForm } } },
  },
  responses: {
    302: REDIRECT,
    400: {
      description:
        'The page expired or was already used (an error page), or the form was not a form (a problem, as for any malformed body).',
      content: { ...html('An error page.'), ...errorResponses(400)[400].content },
    },
    401: { description: 'Not signed in.', content: html('An error page.') },
    403: { description: 'Not from this site’s own page.', content: html('An error page.') },
  },
});

const OAUTH_ERROR = z
  .object({ error: z.string(), error_description: z.string().optional() })
  .openapi('OAuthError', { description: 'An RFC 6749 § 5.2 / RFC 7591 § 3.2.2 error.' });
const oauthErrors = {
  400: {
    description: 'An OAuth error (`invalid_request`, `invalid_grant`, `invalid_client_metadata`, …).',
    content: json(OAUTH_ERROR),
  },
  401: { description: 'Client authentication failed (`invalid_client`).', content: json(OAUTH_ERROR) },
};

/**
 * Served by the OAuth library, not by the app (src/index.ts routes these paths to it), and
 * documented here: registration, the token endpoint (which also revokes) and the metadata.
 */
export const registerClient = defineRoute({
  method: 'post',
  path: '/oauth/register',
  operationId: 'registerOAuthClient',
  tags: ['Portability'],
  summary: 'Dynamic client registration (RFC 7591)',
  description:
    'No initial access token. `client_name` (1–100 characters) and `redirect_uris` (https, or http on a loopback ' +
    'address) are required; `token_endpoint_auth_method` `client_secret_basic` (the default, as OB 3.0 asks), ' +
    '`client_secret_post` or `none` (a public client); `grant_types` `authorization_code` and `refresh_token`. ' +
    'Answers the metadata as stored with `client_id`, `client_secret` (confidential clients) and their times. A ' +
    'registration unused for 90 days expires. `client_name` is shown to holders, so it follows the rules of names ' +
    'shown here: no control, bidirectional or zero-width characters or line breaks, no word mixing scripts, and it ' +
    'may not read as this platform’s name or a verified organisation’s (400 `invalid_client_metadata`). A `scope`, ' +
    'when given, names only supported scopes and is enforced: the client may later ask for nothing outside it. ' +
    'Bodies over 1 MiB are a 413, bodies in a content coding a 415.',
  security: [],
  request: { body: { required: true, content: json(z.record(z.string(), z.unknown())) } },
  responses: {
    201: { description: 'The registered client.', content: json(z.record(z.string(), z.unknown())) },
    400: oauthErrors[400],
    413: { description: 'The body is over 1 MiB.', content: json(OAUTH_ERROR) },
    415: { description: 'The body is sent in a content coding.', content: json(OAUTH_ERROR) },
  },
});

export const token = defineRoute({
  method: 'post',
  path: '/oauth/token',
  operationId: 'oauthToken',
  tags: ['Portability'],
  summary: 'Token endpoint: codes and refresh tokens for access tokens; revocation (RFC 7009)',
  description:
    'Form-encoded, client authenticated (HTTP Basic for `client_secret_basic`). `grant_type=authorization_code` ' +
    'with `code`, `redirect_uri` and the PKCE `code_verifier` (a code works once); `grant_type=refresh_token` (refresh ' +
    'tokens rotate and each works once: presenting one that was already exchanged revokes the whole grant, its ' +
    'access tokens with it, and answers `invalid_grant`, as RFC 9700 § 4.14.2 asks). Without `grant_type`, a ' +
    'request with `token` revokes it (RFC 7009; 200 whether or not it was valid). Access tokens live an hour. ' +
    'Bodies over 1 MiB are a 413, bodies in a content coding a 415.',
  security: [],
  request: {
    body: {
      required: true,
      content: {
        'application/x-www-form-urlencoded': { schema: z.record(z.string(), z.string().max(4096)) },
      },
    },
  },
  responses: {
    200: {
      description:
        'The tokens (`access_token`, `token_type`, `expires_in`, `refresh_token`, `scope`), or an empty revocation answer.',
      content: json(z.record(z.string(), z.unknown())),
    },
    ...oauthErrors,
    413: { description: 'The body is over 1 MiB.', content: json(OAUTH_ERROR) },
    415: { description: 'The body is sent in a content coding.', content: json(OAUTH_ERROR) },
  },
});

export const metadata = defineRoute({
  method: 'get',
  path: '/.well-known/oauth-authorization-server',
  operationId: 'getOAuthServerMetadata',
  tags: ['Portability'],
  summary: 'OAuth 2.0 authorization server metadata (RFC 8414)',
  description: 'Issuer, endpoints, scopes, `code_challenge_methods_supported: ["S256"]` and the rest.',
  security: [],
  responses: {
    200: { description: 'The metadata.', content: json(z.record(z.string(), z.unknown())) },
  },
});
