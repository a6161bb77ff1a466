// A holder's Open Badges 3.0 host for the tests (a backpack, wallet or ePortfolio): every host
// under `backpack.test` (e.g. `https://pack.backpack.test`) is a real OB 3.0 API host, in Node:
//
// - `GET /ims/ob/v3p0/discovery`: its Service Description Document (OAuth 2.0 authorization code
//   flow, registration URL, the OB scopes, upsert included);
// - `POST /register`: RFC 7591 dynamic client registration (client_name and https or loopback-http
//   redirect URIs required) → 201 with client_id and client_secret;
// - `GET /authorize`: approves at once (the holder "allows" in this double) after checking the
//   client, the exact redirect URI, `response_type=code`, the upsert scope and a PKCE S256
//   challenge (plain or none: `invalid_request` back at the client);
// - `POST /token`: client_secret_basic (or _post), single-use codes bound to client and redirect
//   URI, the PKCE verifier checked against the challenge;
// - `POST /ims/ob/v3p0/credentials`: bearer token with the upsert scope, `text/plain` compact
//   JWS, which it VERIFIES (jose, ES256/EdDSA) against the JWKS the test handed it, then stores:
//   201 when new, 200 when it replaces one with the same credential id (OB 3.0 upsertCredential).
//
// Control (from the tests, inside workerd): `PUT /__control/config` `{jwks?, deny?,
// refuseRegistration?, failToken?, refuseUpsert?, noDiscovery?, discovery?, discoveryDelayMs?,
// discoveryPadding?}` sets the host's behaviour (`discovery` replaces its SDD; `discoveryDelayMs`
// answers it that late, `discoveryPadding` appends that many spaces: a slow or an oversized host); `GET /__control/state` → `{registrations,
// credentials: [{id, jws, issuer}], log}`; `DELETE /__control` forgets the host.
// Names under backpack.test resolve (DoH double) to a public address unless a test publishes another.

import { createHash, randomBytes } from 'node:crypto';
import { createLocalJWKSet, jwtVerify } from 'jose';

const UPSERT = 'https://purl.imsglobal.org/spec/ob/v3p0/scope/credential.upsert';
const READ = 'https://purl.imsglobal.org/spec/ob/v3p0/scope/credential.readonly';

/**
 * @typedef {{ clientId: string, secret: string, name: string, redirectUris: string[], authMethod: string }} Registration
 * @typedef {{ config: Record<string, any>, clients: Map<string, Registration>,
 *   codes: Map<string, {clientId: string, redirectUri: string, challenge: string, scope: string}>,
 *   tokens: Map<string, {clientId: string, scope: string}>,
 *   credentials: Map<string, {id: string, jws: string, issuer: string}>, log: string[] }} HostState
 */
/** @type {Map<string, HostState>} */
const hosts = new Map();

/** @param {string} host @returns {HostState} */
function stateOf(host) {
  let s = hosts.get(host);
  if (!s) {
    s = {
      config: {},
      clients: new Map(),
      codes: new Map(),
      tokens: new Map(),
      credentials: new Map(),
      log: [],
    };
    hosts.set(host, s);
  }
  return s;
}

export const isBackpackHost = (/** @type {string} */ hostname) =>
  hostname === 'backpack.test' || hostname.endsWith('.backpack.test');

const random = () => randomBytes(24).toString('base64url');
const imsx = (/** @type {number} */ status, /** @type {string} */ description) =>
  Response.json(
    { imsx_codeMajor: 'failure', imsx_severity: 'error', imsx_description: description },
    { status },
  );
const oauthError = (
  /** @type {number} */ status,
  /** @type {string} */ error,
  /** @type {string} */ description,
) =>
  Response.json(
    { error, error_description: description },
    { status, headers: { 'cache-control': 'no-store' } },
  );

/** @param {string} uri */
function acceptableRedirect(uri) {
  try {
    const u = new URL(uri);
    if (u.hash) return false;
    if (u.protocol === 'https:') return true;
    return u.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname);
  } catch {
    return false;
  }
}

/** @param {string} origin */
function discovery(origin) {
  return {
    openapi: '3.0.1',
    info: {
      title: 'Test Backpack',
      version: '3.0',
      termsOfService: `${origin}/terms`,
      'x-imssf-privacyPolicyUrl': `${origin}/privacy`,
    },
    servers: [{ url: `${origin}/ims/ob/v3p0`, description: 'The test backpack.' }],
    paths: {},
    components: {
      securitySchemes: {
        OAuth2ACG: {
          type: 'oauth2',
          description: 'OAuth 2.0 Authorization Code Grant authorization',
          'x-imssf-registrationUrl': `${origin}/register`,
          flows: {
            authorizationCode: {
              authorizationUrl: `${origin}/authorize`,
              tokenUrl: `${origin}/token`,
              refreshUrl: `${origin}/token`,
              scopes: { [READ]: 'Read credentials.', [UPSERT]: 'Create or update credentials.' },
            },
          },
        },
      },
      schemas: {},
    },
  };
}

/** @param {Request} request @param {URL} url */
export async function obHostDouble(request, url) {
  const host = url.host;
  const s = stateOf(host);
  if (url.pathname.startsWith('/__control')) {
    if (url.pathname === '/__control/config' && request.method === 'PUT') {
      s.config = { ...s.config, .../** @type {Record<string, unknown>} */ (await request.json()) };
      return new Response(null, { status: 204 });
    }
    if (url.pathname === '/__control/state')
      return Response.json({
        registrations: [...s.clients.values()].map(({ secret: _secret, ...r }) => r),
        credentials: [...s.credentials.values()],
        log: s.log,
      });
    if (url.pathname === '/__control' && request.method === 'DELETE') {
      hosts.delete(host);
      return new Response(null, { status: 204 });
    }
    return new Response('unknown control', { status: 404 });
  }
  s.log.push(`${request.method} ${url.pathname}`);

  if (url.pathname === '/ims/ob/v3p0/discovery' && request.method === 'GET') {
    if (s.config.noDiscovery) return new Response('not found', { status: 404 });
    // A slow host, or an oversized answer (the document followed by that many spaces: still JSON).
    if (s.config.discoveryDelayMs)
      await new Promise((resolve) => setTimeout(resolve, s.config.discoveryDelayMs));
    if (s.config.discoveryPadding)
      return new Response(
        JSON.stringify(s.config.discovery ?? discovery(url.origin)) + ' '.repeat(s.config.discoveryPadding),
        {
          headers: { 'content-type': 'application/json' },
        },
      );
    return Response.json(s.config.discovery ?? discovery(url.origin));
  }

  if (url.pathname === '/register' && request.method === 'POST') {
    if (s.config.refuseRegistration)
      return oauthError(400, 'invalid_client_metadata', 'Registrations are closed on this host.');
    /** @type {any} */
    let body;
    try {
      body = await request.json();
    } catch {
      return oauthError(400, 'invalid_client_metadata', 'Not JSON.');
    }
    if (typeof body.client_name !== 'string' || !body.client_name)
      return oauthError(400, 'invalid_client_metadata', 'client_name is required.');
    if (!Array.isArray(body.redirect_uris) || body.redirect_uris.length === 0)
      return oauthError(400, 'invalid_redirect_uri', 'redirect_uris is required.');
    if (!body.redirect_uris.every(acceptableRedirect))
      return oauthError(400, 'invalid_redirect_uri', 'Redirect URIs must be https (or http on loopback).');
    const client = {
      clientId: random(),
      secret: random(),
      name: body.client_name,
      redirectUris: body.redirect_uris,
      authMethod: body.token_endpoint_auth_method ?? 'client_secret_basic',
    };
    s.clients.set(client.clientId, client);
    return Response.json(
      {
        ...body,
        client_id: client.clientId,
        client_secret: client.secret,
        client_id_issued_at: Math.floor(Date.now() / 1000),
        client_secret_expires_at: 0,
        token_endpoint_auth_method: client.authMethod,
      },
      { status: 201, headers: { 'cache-control': 'no-store' } },
    );
  }

  if (url.pathname === '/authorize' && request.method === 'GET') {
    const q = url.searchParams;
    const client = s.clients.get(q.get('client_id') ?? '');
    const redirectUri = q.get('redirect_uri') ?? '';
    // Never redirect to an unverified place: a page here.
    if (!client) return new Response('unknown client', { status: 400 });
    if (!client.redirectUris.includes(redirectUri))
      return new Response('unregistered redirect_uri', { status: 400 });
    const back = new URL(redirectUri);
    const state = q.get('state');
    if (state !== null) back.searchParams.set('state', state);
    const fail = (/** @type {string} */ error, /** @type {string} */ description) => {
      back.searchParams.set('error', error);
      back.searchParams.set('error_description', description);
      return new Response(null, { status: 302, headers: { location: back.href } });
    };
    if (q.get('response_type') !== 'code') return fail('unsupported_response_type', 'code only');
    if (q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge'))
      return fail('invalid_request', 'PKCE with S256 is required');
    const scope = q.get('scope') ?? '';
    if (!scope.split(' ').includes(UPSERT)) return fail('invalid_scope', 'the upsert scope is required');
    if (s.config.deny) return fail('access_denied', 'The holder said no.');
    const code = random();
    s.codes.set(code, {
      clientId: client.clientId,
      redirectUri,
      challenge: q.get('code_challenge') ?? '',
      scope,
    });
    back.searchParams.set('code', code);
    return new Response(null, { status: 302, headers: { location: back.href } });
  }

  if (url.pathname === '/token' && request.method === 'POST') {
    const form = new URLSearchParams(await request.text());
    let clientId = form.get('client_id');
    let secret = form.get('client_secret');
    const basic = /^Basic (.+)$/i.exec(request.headers.get('authorization') ?? '');
    if (basic) {
      const [id, pass] = Buffer.from(basic[1] ?? '', 'base64')
        .toString()
        .split(':');
      clientId = decodeURIComponent(id ?? '');
      secret = decodeURIComponent(pass ?? '');
    }
    const client = s.clients.get(clientId ?? '');
    if (!client || client.secret !== secret)
      return oauthError(401, 'invalid_client', 'Client authentication failed.');
    if (form.get('grant_type') !== 'authorization_code')
      return oauthError(400, 'unsupported_grant_type', 'authorization_code only');
    if (s.config.failToken) return oauthError(400, 'invalid_grant', 'This host refuses every code today.');
    const code = s.codes.get(form.get('code') ?? '');
    s.codes.delete(form.get('code') ?? '');
    if (!code || code.clientId !== client.clientId || code.redirectUri !== form.get('redirect_uri'))
      return oauthError(400, 'invalid_grant', 'Unknown, used or mismatched code.');
    const verifier = form.get('code_verifier') ?? '';
    if (createHash('sha256').update(verifier).digest('base64url') !== code.challenge)
      return oauthError(400, 'invalid_grant', 'PKCE verification failed.');
    const token = random();
    s.tokens.set(token, { clientId: client.clientId, scope: code.scope });
    return Response.json(
      { access_token: token, token_type: 'Bearer', expires_in: 3600, scope: code.scope },
      { headers: { 'cache-control': 'no-store' } },
    );
  }

  if (url.pathname === '/ims/ob/v3p0/credentials' && request.method === 'POST') {
    const bearer = /^Bearer (.+)$/i.exec(request.headers.get('authorization') ?? '');
    const grant = bearer ? s.tokens.get(bearer[1] ?? '') : undefined;
    if (!grant)
      return new Response(
        JSON.stringify({
          imsx_codeMajor: 'failure',
          imsx_severity: 'error',
          imsx_description: 'Unknown token.',
        }),
        {
          status: 401,
          headers: { 'content-type': 'application/json', 'www-authenticate': 'Bearer error="invalid_token"' },
        },
      );
    if (!grant.scope.split(' ').includes(UPSERT)) return imsx(403, 'The token lacks the upsert scope.');
    if (!(request.headers.get('content-type') ?? '').startsWith('text/plain'))
      return imsx(415, 'A compact JWS is sent as text/plain.');
    if (s.config.refuseUpsert) return imsx(400, 'This host does not accept credentials from this issuer.');
    const jws = (await request.text()).trim();
    if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+$/.test(jws)) return imsx(400, 'Not a compact JWS.');
    if (!s.config.jwks) return imsx(400, 'This host knows no issuer key to verify with.');
    /** @type {any} */
    let payload;
    try {
      ({ payload } = await jwtVerify(jws, createLocalJWKSet(s.config.jwks), {
        algorithms: ['ES256', 'EdDSA'],
      }));
    } catch (error) {
      return imsx(400, `The credential does not verify: ${error instanceof Error ? error.message : error}`);
    }
    const id = String(payload.id ?? payload.jti ?? payload.vc?.id ?? '');
    const types = payload.type ?? payload.vc?.type ?? [];
    if (
      !id ||
      !Array.isArray(types) ||
      !types.some((t) => t === 'OpenBadgeCredential' || t === 'AchievementCredential')
    )
      return imsx(400, 'Not an OpenBadgeCredential.');
    const issuer = String(payload.issuer?.id ?? payload.iss ?? '');
    const replaced = s.credentials.has(id);
    s.credentials.set(id, { id, jws, issuer });
    return new Response(jws, { status: replaced ? 200 : 201, headers: { 'content-type': 'text/plain' } });
  }

  return new Response('not found', { status: 404 });
}
