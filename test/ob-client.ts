/**
 * An independent OAuth 2.0 client (`oauth4webapi`) for the `/ims/` APIs, as a backpack or wallet
 * would be: discovery, registration (RFC 7591), the holder's authorization page (code + PKCE
 * S256), the code exchange; and the 1EdTech OB 3.0 OpenAPI file's schemas as validators. Shared by
 * test/ob-api.test.ts and test/learner-record.test.ts.
 */

import { SELF } from 'cloudflare:test';
import { Validator } from '@cfworker/json-schema';
import * as oauth from 'oauth4webapi';
import { expect } from 'vitest';
import obOpenApi from './fixtures/ob3/openapi.json';
import { type Account, BASE, freshIp, ORIGIN } from './helpers';

export const SCOPE_READ = 'https://purl.imsglobal.org/spec/ob/v3p0/scope/credential.readonly';
export const SCOPE_PROFILE = 'https://purl.imsglobal.org/spec/ob/v3p0/scope/profile.readonly';
export const REDIRECT = 'https://wallet.example/callback';

/** The spec's component schemas as one JSON Schema document, `$ref`s pointing into `$defs`. */
export const specSchemas = JSON.parse(
  JSON.stringify((obOpenApi as { components: { schemas: unknown } }).components.schemas).replaceAll(
    '#/components/schemas/',
    'https://ob.test/spec.json#/$defs/',
  ),
) as Record<string, object>;
export function specValidator(name: string) {
  const v = new Validator({ $ref: `https://ob.test/spec.json#/$defs/${name}` }, '2019-09', false);
  v.addSchema({ $id: 'https://ob.test/spec.json', $defs: specSchemas } as never);
  return v;
}
export function expectSpecValid(name: string, body: unknown) {
  const result = specValidator(name).validate(body);
  expect(result.errors.filter((e) => e.keyword !== '$ref' && e.keyword !== 'properties')).toEqual([]);
  expect(result.valid).toBe(true);
}

type SpecOperation = {
  operationId: string;
  responses: Record<
    string,
    { content?: Record<string, { schema: { $ref: string } }>; headers?: Record<string, unknown> }
  >;
};

/**
 * The 1EdTech OpenAPI file's own description of an answer: the operation at `method` and `path`
 * (relative to `/ims/ob/v3p0`) must document the status (or a `default`), and the body must
 * validate against the schema it names there, in the media type it names. Headers the spec names
 * for the status (`X-Total-Count`) must be present and integers. Returns the body.
 */
export async function expectSpecResponse(method: string, path: string, res: Response) {
  const operation = (obOpenApi as unknown as { paths: Record<string, Record<string, SpecOperation>> }).paths[
    path
  ]?.[method.toLowerCase()];
  expect(operation, `${method} ${path} is an operation of the spec`).toBeDefined();
  const documented = operation!.responses[String(res.status)] ?? operation!.responses.default;
  expect(documented, `${method} ${path} documents ${res.status}`).toBeDefined();
  const [mediaType, media] = Object.entries(documented!.content ?? {})[0]!;
  expect(res.headers.get('content-type') ?? '').toContain(mediaType);
  const body = await res.json();
  expectSpecValid(media.schema.$ref.replace('#/components/schemas/', ''), body);
  for (const header of Object.keys(documented!.headers ?? {}))
    expect(res.headers.get(header), `${method} ${path} ${res.status} ${header}`).toMatch(/^\d+$/);
  return body;
}

export const issuer = new URL(BASE);
/**
 * Requests from the client, each from an address of its own (test/helpers.ts `freshIp`), so that
 * the per-network registration limit (20 an hour) never makes tests depend on one another.
 */
export const http = {
  [oauth.customFetch]: (url: string, init: RequestInit) =>
    SELF.fetch(url, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), 'CF-Connecting-IP': freshIp() },
    }),
  [oauth.allowInsecureRequests]: true,
} as const;

export type Registered = { as: oauth.AuthorizationServer; client: oauth.Client; secret: string };

export async function register(scope = `${SCOPE_READ} ${SCOPE_PROFILE} offline_access`): Promise<Registered> {
  const as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { ...http, algorithm: 'oauth2' }),
  );
  const registered = await oauth.processDynamicClientRegistrationResponse(
    await oauth.dynamicClientRegistrationRequest(
      as,
      {
        client_name: 'Test Wallet <b>',
        client_uri: 'https://wallet.example/',
        policy_uri: 'https://wallet.example/privacy',
        tos_uri: 'https://wallet.example/terms',
        redirect_uris: [REDIRECT],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
        scope,
      },
      http,
    ),
  );
  return {
    as,
    client: { client_id: registered.client_id, token_endpoint_auth_method: 'client_secret_basic' },
    secret: String(registered.client_secret),
  };
}

export function cookiesFrom(res: Response): string[] {
  return res.headers.getSetCookie().map((c) => c.split(';')[0]!);
}

/** The holder opens the authorization URL; returns the page and its consent cookie. */
export async function openPage(holder: Account, url: URL) {
  const res = await SELF.fetch(url, { headers: { cookie: holder.cookie }, redirect: 'manual' });
  return { res, html: res.status === 200 ? await res.text() : '', cookies: cookiesFrom(res) };
}

export async function decide(
  holder: Account,
  handle: string,
  cookies: string[],
  decision: 'approve' | 'deny',
) {
  return SELF.fetch(`${BASE}/oauth/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      cookie: [holder.cookie, ...cookies].join('; '),
      origin: ORIGIN,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ handle, decision }),
  });
}

export function authorizationUrl(
  r: Registered,
  params: { scope?: string; challenge?: string; method?: string; state: string; redirect?: string },
) {
  const url = new URL(r.as.authorization_endpoint!);
  url.searchParams.set('client_id', r.client.client_id);
  url.searchParams.set('redirect_uri', params.redirect ?? REDIRECT);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', params.scope ?? `${SCOPE_READ} ${SCOPE_PROFILE} offline_access`);
  url.searchParams.set('state', params.state);
  if (params.challenge) url.searchParams.set('code_challenge', params.challenge);
  if (params.method) url.searchParams.set('code_challenge_method', params.method);
  return url;
}

/** The whole front channel: the page, Allow, and the code back at the client. */
export async function authorise(holder: Account, r: Registered, scope?: string) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = authorizationUrl(r, {
    ...(scope ? { scope } : {}),
    challenge: await oauth.calculatePKCECodeChallenge(verifier),
    method: 'S256',
    state,
  });
  const page = await openPage(holder, url);
  expect(page.res.status).toBe(200);
  const handle = /name="handle" value="([^"]+)"/.exec(page.html)?.[1];
  expect(handle).toBeTruthy();
  const decided = await decide(holder, handle!, page.cookies, 'approve');
  expect(decided.status).toBe(302);
  const callback = new URL(decided.headers.get('location')!);
  expect(callback.origin + callback.pathname).toBe(REDIRECT);
  const params = oauth.validateAuthResponse(r.as, r.client, callback, state);
  return { params, verifier, page };
}

export async function exchange(r: Registered, params: URLSearchParams, verifier: string) {
  return oauth.authorizationCodeGrantRequest(
    r.as,
    r.client,
    oauth.ClientSecretBasic(r.secret),
    params,
    REDIRECT,
    verifier,
    http,
  );
}
