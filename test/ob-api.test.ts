/**
 * The Open Badges API (OB 3.0 § "Open Badges API") and its OAuth 2.0 authorization server, driven
 * by an independent OAuth client (`oauth4webapi`) the way a backpack or wallet would: it reads the
 * Service Description Document, registers (RFC 7591), sends the holder through the authorization
 * page (authorization code + PKCE S256), reads the holder's credentials, refreshes, and is refused
 * after revocation. Every document is validated against the 1EdTech OpenAPI file
 * (test/fixtures/ob3/openapi.json).
 */

import { env, SELF } from 'cloudflare:test';
import * as oauth from 'oauth4webapi';
import { beforeAll, describe, expect, it } from 'vitest';
import { ERASURE_STEPS } from '../src/services/dsr/erasure';
import { oauthGrantsErasureStep } from '../src/services/portability/erasure-step';
import { grantsOf } from '../src/services/portability/grants';
import { candidateWithCertificate, signup } from './harness';
import { type Account, as, BASE, call, jsonInit } from './helpers';
import {
  authorise,
  authorizationUrl,
  decide,
  exchange,
  expectSpecResponse,
  expectSpecValid,
  http,
  issuer,
  openPage,
  REDIRECT,
  register,
  SCOPE_PROFILE,
  SCOPE_READ,
} from './ob-client';

/** The audit entries about one client's grants, oldest first. */
async function grantAudit(clientId: string) {
  const rows = await env.DB.prepare(
    "SELECT action, actor_id, details FROM audit_log WHERE target_type = 'oauth_client' AND target_id = ? ORDER BY created_at, rowid",
  )
    .bind(clientId)
    .all<{ action: string; actor_id: string; details: string }>();
  return rows.results.map((row) => ({
    action: row.action,
    actorId: row.actor_id,
    details: JSON.parse(row.details) as Record<string, unknown>,
  }));
}

const credentials = (token: string, query = '') =>
  call(`/ims/ob/v3p0/credentials${query}`, { headers: { authorization: `Bearer ${token}` } });

let holder: Account;
let certificateJwt: string;

beforeAll(async () => {
  const issued = await candidateWithCertificate('Asha Holder');
  holder = issued.candidate;
  const verified = await (await call(`/api/verify/${issued.certificateNo}`)).json<{
    credential: { jwt: string };
  }>();
  certificateJwt = verified.credential.jwt;
}, 60_000);

describe('GET /ims/ob/v3p0/discovery', () => {
  it('is a Service Description Document that validates against the spec and names the OAuth flow', async () => {
    const res = await call('/ims/ob/v3p0/discovery');
    expect(res.status).toBe(200);
    const sdd = await res.json<{
      info: Record<string, string>;
      components: {
        securitySchemes: {
          OAuth2ACG: {
            'x-imssf-registrationUrl': string;
            flows: { authorizationCode: { scopes: Record<string, string> } };
          };
        };
      };
    }>();
    expectSpecValid('ServiceDescriptionDocument', sdd);
    const scheme = sdd.components.securitySchemes.OAuth2ACG;
    expect(scheme['x-imssf-registrationUrl']).toBe(`${BASE}/oauth/register`);
    expect(scheme.flows.authorizationCode).toMatchObject({
      authorizationUrl: `${BASE}/oauth/authorize`,
      tokenUrl: `${BASE}/oauth/token`,
      refreshUrl: `${BASE}/oauth/token`,
    });
    expect(Object.keys(scheme.flows.authorizationCode.scopes)).toContain(SCOPE_READ);
    expect(sdd.info['x-imssf-privacyPolicyUrl']).toMatch(/^http:\/\/localhost:8787\/api\/consent\/notices\//);
    // The privacy policy it names answers.
    expect((await call(new URL(String(sdd.info['x-imssf-privacyPolicyUrl'])).pathname)).status).toBe(200);
  });

  it('answers a wrong method with Imsx_StatusInfo, not problem+json', async () => {
    const res = await call('/ims/ob/v3p0/discovery', { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expectSpecValid('Imsx_StatusInfo', await res.json());
  });
});

describe('an independent OAuth client (oauth4webapi)', { timeout: 30_000 }, () => {
  it('registers, is authorised by the holder with PKCE, reads the credentials, refreshes, and is refused after revocation', async () => {
    const r = await register();
    expect(r.as.code_challenge_methods_supported).toEqual(['S256']);
    const { params, verifier, page } = await authorise(holder, r);
    // The page named the client (escaped), where access goes and each scope.
    expect(page.html).toContain('Test Wallet &lt;b&gt;');
    expect(page.html).toContain('wallet.example');
    expect(page.html).toContain(SCOPE_READ);
    expect(page.html).toContain('https://wallet.example/privacy');
    const tokens = await oauth.processAuthorizationCodeResponse(
      r.as,
      r.client,
      await exchange(r, params, verifier),
    );
    expect(tokens.refresh_token).toBeTruthy();

    const res = await credentials(tokens.access_token);
    expect(res.status).toBe(200);
    const body = await res.json<{ compactJwsString: string[]; credential: Record<string, unknown>[] }>();
    expectSpecValid('GetOpenBadgeCredentialsResponse', body);
    expect(body.compactJwsString).toEqual([certificateJwt]);
    // The same credential secured the second way, in the `credential` array (issue 56).
    expect(body.credential).toHaveLength(1);
    expect(body.credential[0]).toMatchObject({
      id: JSON.parse(atob(certificateJwt.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))).id,
      proof: [{ type: 'DataIntegrityProof', cryptosuite: 'eddsa-rdfc-2022' }],
    });
    expect(res.headers.get('x-total-count')).toBe('1');
    expect(res.headers.get('link')).toContain('rel="first"');
    expect(res.headers.get('link')).toContain('rel="last"');
    expect(res.headers.get('link')).not.toContain('rel="next"');

    const profile = await call('/ims/ob/v3p0/profile', {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(profile.status).toBe(200);
    const profileBody = await profile.json<{ id: string; name: string }>();
    expectSpecValid('Profile', profileBody);
    expect(profileBody.name).toBe('Asha Holder');
    // JSON-LD readers too: it expands in safe mode with the official contexts (test/jsonld.test.ts).
    const expanded = await (
      await fetch('http://jsonld.test/expand', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ document: profileBody }),
      })
    ).json<{ ok: boolean; error?: string }>();
    expect(expanded, expanded.error).toMatchObject({ ok: true });

    // Refresh: a new access token that works; the refresh token rotates.
    const refreshed = await oauth.processRefreshTokenResponse(
      r.as,
      r.client,
      await oauth.refreshTokenGrantRequest(
        r.as,
        r.client,
        oauth.ClientSecretBasic(r.secret),
        tokens.refresh_token!,
        http,
      ),
    );
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect((await credentials(refreshed.access_token)).status).toBe(200);

    // Revocation (RFC 7009) of the refresh token ends the grant: its access tokens stop working.
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(
        r.as,
        r.client,
        oauth.ClientSecretBasic(r.secret),
        refreshed.refresh_token!,
        http,
      ),
    );
    const refused = await credentials(refreshed.access_token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expectSpecValid('Imsx_StatusInfo', await refused.json());
    // The grant the client ended is in the holder's audit record, said to be the client's doing.
    expect(await grantAudit(r.client.client_id)).toEqual([
      {
        action: 'oauth.grant.created',
        actorId: holder.id,
        details: expect.objectContaining({ clientName: 'Test Wallet <b>' }),
      },
      {
        action: 'oauth.grant.revoked',
        actorId: holder.id,
        details: expect.objectContaining({
          endedBy: 'client',
          reason: 'revoked-by-client',
          scope: expect.arrayContaining([SCOPE_READ]),
        }),
      },
    ]);
  });

  it('pages with limit and offset, with X-Total-Count and Link', async () => {
    const r = await register();
    const { params, verifier } = await authorise(holder, r);
    const tokens = await oauth.processAuthorizationCodeResponse(
      r.as,
      r.client,
      await exchange(r, params, verifier),
    );
    const empty = await credentials(tokens.access_token, '?limit=1&offset=1');
    expect(empty.status).toBe(200);
    expect((await empty.json<{ compactJwsString: string[] }>()).compactJwsString).toEqual([]);
    expect(empty.headers.get('link')).toContain('rel="prev"');
    const future = await credentials(tokens.access_token, '?since=2999-01-01T00:00:00Z');
    expect(future.headers.get('x-total-count')).toBe('0');
    // `since` keeps what was issued after it: a date before the certificate keeps it.
    const past = await credentials(tokens.access_token, '?since=2000-01-01T00:00:00Z');
    expect(past.headers.get('x-total-count')).toBe('1');
    expect((await past.json<{ compactJwsString: string[] }>()).compactJwsString).toEqual([certificateJwt]);
    for (const bad of ['?limit=0', '?limit=101', '?limit=x', '?offset=-1', '?since=yesterday']) {
      const res = await credentials(tokens.access_token, bad);
      expect(res.status, bad).toBe(400);
      expectSpecValid('Imsx_StatusInfo', await res.json());
    }
  });

  it('every answer on the Open Badges API paths is one the spec’s OpenAPI file documents for its operation, and validates there', async () => {
    const tokenFor = async (scope: string) => {
      const r = await register();
      const { params, verifier } = await authorise(holder, r, scope);
      return (
        await oauth.processAuthorizationCodeResponse(r.as, r.client, await exchange(r, params, verifier))
      ).access_token;
    };
    const both = await tokenFor(`${SCOPE_READ} ${SCOPE_PROFILE}`);
    const readOnly = await tokenFor(SCOPE_READ);
    const profileOnly = await tokenFor(SCOPE_PROFILE);
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    // [what is sent, the spec operation whose responses apply (a method the spec lacks: its GET's), status]
    const cases: [string, RequestInit, [string, string], number][] = [
      ['/ims/ob/v3p0/discovery', {}, ['get', '/discovery'], 200],
      ['/ims/ob/v3p0/discovery', { method: 'DELETE' }, ['get', '/discovery'], 405],
      ['/ims/ob/v3p0/credentials', { headers: bearer(both) }, ['get', '/credentials'], 200],
      [
        '/ims/ob/v3p0/credentials?limit=2&offset=0',
        { headers: bearer(readOnly) },
        ['get', '/credentials'],
        200,
      ],
      ['/ims/ob/v3p0/credentials?limit=0', { headers: bearer(both) }, ['get', '/credentials'], 400],
      ['/ims/ob/v3p0/credentials', {}, ['get', '/credentials'], 401],
      ['/ims/ob/v3p0/credentials', { headers: bearer('not-a-token') }, ['get', '/credentials'], 401],
      ['/ims/ob/v3p0/credentials', { headers: bearer(profileOnly) }, ['get', '/credentials'], 403],
      [
        '/ims/ob/v3p0/credentials',
        { method: 'POST', headers: { ...bearer(both), 'content-type': 'text/plain' }, body: certificateJwt },
        ['post', '/credentials'],
        405,
      ],
      ['/ims/ob/v3p0/profile', { headers: bearer(both) }, ['get', '/profile'], 200],
      ['/ims/ob/v3p0/profile', {}, ['get', '/profile'], 401],
      ['/ims/ob/v3p0/profile', { headers: bearer(readOnly) }, ['get', '/profile'], 403],
      [
        '/ims/ob/v3p0/profile',
        { method: 'PUT', headers: { ...bearer(both), 'content-type': 'application/json' }, body: '{}' },
        ['put', '/profile'],
        405,
      ],
    ];
    for (const [path, init, [method, specPath], status] of cases) {
      const res = await call(path, init);
      expect(res.status, `${init.method ?? 'GET'} ${path}`).toBe(status);
      await expectSpecResponse(method, specPath, res);
    }
  });

  it('the shared layers’ refusals under /ims/ are Imsx_StatusInfo too: an unknown path (404), the per-holder limit (429)', async () => {
    const unknown = await call('/ims/ob/v3p0/nothing-here');
    expect(unknown.status).toBe(404);
    expectSpecValid('Imsx_StatusInfo', await unknown.json());

    const person = (await candidateWithCertificate('Busy Holder')).candidate;
    const r = await register();
    const { params, verifier } = await authorise(person, r);
    const { access_token } = await oauth.processAuthorizationCodeResponse(
      r.as,
      r.client,
      await exchange(r, params, verifier),
    );
    let res = await credentials(access_token);
    for (let i = 0; i < 70 && res.status === 200; i++) res = await credentials(access_token);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = (await expectSpecResponse('get', '/credentials', res)) as {
      imsx_codeMinor: { imsx_codeMinorField: { imsx_codeMinorFieldValue: string }[] };
    };
    expect(body.imsx_codeMinor.imsx_codeMinorField[0]!.imsx_codeMinorFieldValue).toBe('server_busy');
  });

  it('refuses a token without the scope (403), a missing or unknown token (401)', async () => {
    const r = await register();
    const { params, verifier } = await authorise(holder, r, SCOPE_PROFILE);
    const tokens = await oauth.processAuthorizationCodeResponse(
      r.as,
      r.client,
      await exchange(r, params, verifier),
    );
    const res = await credentials(tokens.access_token);
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toContain('insufficient_scope');
    expectSpecValid('Imsx_StatusInfo', await res.json());
    const none = await call('/ims/ob/v3p0/credentials');
    expect(none.status).toBe(401);
    expect((await credentials('not-a-real-token')).status).toBe(401);
  });

  it('refuses an expired access token (401 invalid_token, Imsx_StatusInfo); the refresh token still works', async () => {
    const person = (await candidateWithCertificate('Expiring Holder')).candidate;
    const r = await register();
    const { params, verifier } = await authorise(person, r);
    const tokens = await oauth.processAuthorizationCodeResponse(
      r.as,
      r.client,
      await exchange(r, params, verifier),
    );
    expect(tokens.expires_in).toBe(3600);
    expect((await credentials(tokens.access_token)).status).toBe(200);
    // An hour passes: the token's record says it expired (the library's own check, not KV's TTL).
    const listed = await env.OAUTH_KV.list({ prefix: `token:${person.id}:` });
    expect(listed.keys).toHaveLength(1);
    const key = listed.keys[0]!.name;
    const record = await env.OAUTH_KV.get<{ expiresAt: number }>(key, 'json');
    await env.OAUTH_KV.put(key, JSON.stringify({ ...record, expiresAt: Math.floor(Date.now() / 1000) - 1 }));
    const expired = await credentials(tokens.access_token);
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expectSpecValid('Imsx_StatusInfo', await expired.json());
    const refreshed = await oauth.processRefreshTokenResponse(
      r.as,
      r.client,
      await oauth.refreshTokenGrantRequest(
        r.as,
        r.client,
        oauth.ClientSecretBasic(r.secret),
        tokens.refresh_token!,
        http,
      ),
    );
    expect((await credentials(refreshed.access_token)).status).toBe(200);
  });

  it('limits dynamic registration per client network: 20 an hour, then a 429 problem with Retry-After', async () => {
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { ...http, algorithm: 'oauth2' }),
    );
    const from = (ip: string) => ({
      [oauth.customFetch]: (url: string, init: RequestInit) =>
        SELF.fetch(url, {
          ...init,
          headers: { ...(init.headers as Record<string, string>), 'CF-Connecting-IP': ip },
        }),
      [oauth.allowInsecureRequests]: true,
    });
    const metadata = { client_name: 'Busy registrar', redirect_uris: [REDIRECT] };
    for (let i = 0; i < 20; i++)
      expect((await oauth.dynamicClientRegistrationRequest(as, metadata, from('198.51.100.20'))).status).toBe(
        201,
      );
    const limited = await oauth.dynamicClientRegistrationRequest(as, metadata, from('198.51.100.20'));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('content-type')).toBe('application/problem+json');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('ratelimit-policy')).toBe('"oauth-register";q=20;w=3600');
    expect(await limited.json()).toMatchObject({ type: '/problems/quota-exceeded', status: 429 });
    // Another network is not affected.
    expect((await oauth.dynamicClientRegistrationRequest(as, metadata, from('198.51.100.21'))).status).toBe(
      201,
    );
  });

  it('revoking an access token (RFC 7009) ends that token only: the grant stays and its refresh token still works', async () => {
    const r = await register();
    const { params, verifier } = await authorise(holder, r);
    const tokens = await oauth.processAuthorizationCodeResponse(
      r.as,
      r.client,
      await exchange(r, params, verifier),
    );
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(r.as, r.client, oauth.ClientSecretBasic(r.secret), tokens.access_token, {
        ...http,
        additionalParameters: { token_type_hint: 'access_token' },
      }),
    );
    expect((await credentials(tokens.access_token)).status).toBe(401);
    const refreshed = await oauth.processRefreshTokenResponse(
      r.as,
      r.client,
      await oauth.refreshTokenGrantRequest(
        r.as,
        r.client,
        oauth.ClientSecretBasic(r.secret),
        tokens.refresh_token!,
        http,
      ),
    );
    expect((await credentials(refreshed.access_token)).status).toBe(200);
    // The grant did not end, so no revocation is in the audit log.
    expect((await grantAudit(r.client.client_id)).map((e) => e.action)).toEqual(['oauth.grant.created']);
  });

  it('refuses a reused authorization code', async () => {
    const r = await register();
    const { params, verifier } = await authorise(holder, r);
    await oauth.processAuthorizationCodeResponse(r.as, r.client, await exchange(r, params, verifier));
    const again = await exchange(r, params, verifier);
    expect(again.status).toBe(400);
    expect((await again.json<{ error: string }>()).error).toBe('invalid_grant');
    // The library ends the grant a replayed code belongs to (RFC 6749 § 4.1.2); the audit log says so.
    expect((await grantAudit(r.client.client_id)).map((e) => [e.action, e.details.reason ?? null])).toEqual([
      ['oauth.grant.created', null],
      ['oauth.grant.revoked', 'code-reused'],
    ]);
    // A third try finds no grant: refused, and nothing more is recorded.
    expect((await exchange(r, params, verifier)).status).toBe(400);
    expect((await grantAudit(r.client.client_id)).length).toBe(2);
  });

  it('refuses a code exchanged with another redirect_uri than the authorization request named', async () => {
    const r = await register();
    const { params, verifier } = await authorise(holder, r);
    const res = await oauth.authorizationCodeGrantRequest(
      r.as,
      r.client,
      oauth.ClientSecretBasic(r.secret),
      params,
      'https://wallet.example/elsewhere',
      verifier,
      http,
    );
    expect(res.status).toBe(400);
    expect((await res.json<{ error: string }>()).error).toBe('invalid_grant');
  });

  it('refuses a registration asking for a scope this server does not know', async () => {
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { ...http, algorithm: 'oauth2' }),
    );
    const res = await oauth.dynamicClientRegistrationRequest(
      as,
      { client_name: 'Greedy', redirect_uris: [REDIRECT], scope: `${SCOPE_READ} https://example.com/admin` },
      http,
    );
    expect(res.status).toBe(400);
    expect((await res.json<{ error: string; error_description: string }>()).error_description).toContain(
      'https://example.com/admin',
    );
  });

  it('refuses a wrong code_verifier', async () => {
    const r = await register();
    const { params } = await authorise(holder, r);
    const res = await exchange(r, params, oauth.generateRandomCodeVerifier());
    expect(res.status).toBe(400);
    expect((await res.json<{ error: string }>()).error).toBe('invalid_grant');
  });

  it('refuses an unregistered redirect_uri with a page, never a redirect', async () => {
    const r = await register();
    const url = authorizationUrl(r, {
      state: 's',
      challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
      method: 'S256',
      redirect: 'https://attacker.example/callback',
    });
    const res = await call(url.pathname + url.search, {
      headers: { cookie: holder.cookie },
      redirect: 'manual',
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });

  it('refuses an overlong or non-ASCII client_id with a 400, never a 500 (found by fuzzing: a KV key is at most 512 bytes)', async () => {
    for (const clientId of ['x'.repeat(600), `Bibendum id, augue ${'é'.repeat(150)}`]) {
      const res = await call(
        `/oauth/authorize?client_id=${encodeURIComponent(clientId)}&response_type=code`,
        {
          redirect: 'manual',
        },
      );
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
    }
  });

  it('refuses a plain PKCE challenge and a request without PKCE on its own page, never redirecting before the holder saw anything', async () => {
    const r = await register();
    for (const params of [
      { state: 'plain', challenge: oauth.generateRandomCodeVerifier(), method: 'plain' },
      { state: 'none' },
    ]) {
      const url = authorizationUrl(r, params);
      for (const cookie of [holder.cookie, '']) {
        const res = await call(url.pathname + url.search, {
          headers: cookie ? { cookie } : {},
          redirect: 'manual',
        });
        expect(res.status, params.state).toBe(400);
        expect(res.headers.get('location')).toBeNull();
        expect(res.headers.get('content-type')).toContain('text/html');
        expect(await res.text()).toContain('invalid_request');
      }
    }
  });

  it('Deny sends access_denied back and grants nothing', async () => {
    const r = await register();
    const url = authorizationUrl(r, {
      state: 'deny',
      challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
      method: 'S256',
    });
    const page = await openPage(holder, url);
    const handle = /name="handle" value="([^"]+)"/.exec(page.html)![1]!;
    const res = await decide(holder, handle, page.cookies, 'deny');
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get('location')!).searchParams.get('error')).toBe('access_denied');
  });

  it('signed out, the page asks the holder to sign in; a cross-site decision is refused', async () => {
    const r = await register();
    const url = authorizationUrl(r, {
      state: 's',
      challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
      method: 'S256',
    });
    const anonymous = await call(url.pathname + url.search);
    expect(anonymous.status).toBe(200);
    expect(await anonymous.text()).toContain('Sign in to continue');
    const page = await openPage(holder, url);
    const handle = /name="handle" value="([^"]+)"/.exec(page.html)![1]!;
    const forged = await SELF.fetch(`${BASE}/oauth/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie: [holder.cookie, ...page.cookies].join('; '),
        origin: 'https://attacker.example',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ handle, decision: 'approve' }),
    });
    expect(forged.status).toBe(403);
  });

  it('refuses registration without a client name, or with an http redirect URI that is not loopback', async () => {
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { ...http, algorithm: 'oauth2' }),
    );
    const nameless = await oauth.dynamicClientRegistrationRequest(as, { redirect_uris: [REDIRECT] }, http);
    expect(nameless.status).toBe(400);
    const plainHttp = await oauth.dynamicClientRegistrationRequest(
      as,
      { client_name: 'x', redirect_uris: ['http://wallet.example/cb'] },
      http,
    );
    expect(plainHttp.status).toBe(400);
    const loopback = await oauth.dynamicClientRegistrationRequest(
      as,
      { client_name: 'Local app', redirect_uris: ['http://127.0.0.1:9000/cb'] },
      http,
    );
    expect(loopback.status).toBe(201);
  });

  it('a child account cannot grant access', async () => {
    const child = await signup('candidate', 'Young Person', undefined, {
      dateOfBirth: `${new Date().getUTCFullYear() - 12}-01-01`,
      guardianEmail: `guardian-${crypto.randomUUID().slice(0, 8)}@example.test`,
    });
    const r = await register();
    const url = authorizationUrl(r, {
      state: 'child',
      challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
      method: 'S256',
    });
    const res = await call(url.pathname + url.search, {
      headers: { cookie: child.cookie },
      redirect: 'manual',
    });
    // Shown here (the holder has seen no consent page yet), not redirected to the client.
    expect(res.status).toBe(403);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toContain('access_denied');
  });
});

describe('a child’s account and grants', { timeout: 30_000 }, () => {
  it('a guardian-approved child cannot grant either (a grant is not a purpose a child may have, decision 0260)', async () => {
    const guardian = await signup('candidate', 'Guardian Of Ward');
    const ward = await signup('candidate', 'Ward Holder', undefined, {
      dateOfBirth: `${new Date().getUTCFullYear() - 15}-01-01`,
      guardianEmail: guardian.email,
    });
    const { items } = await (await call('/api/guardian/requests', { headers: as(guardian) })).json<{
      items: { id: string }[];
    }>();
    expect(
      (
        await call(
          `/api/guardian/requests/${items[0]!.id}/approve`,
          jsonInit('POST', { relationship: 'parent' }, as(guardian)),
        )
      ).status,
    ).toBeLessThan(300);
    // The ward acts now (the guardian consented to the account), yet the page refuses a grant.
    expect((await call('/api/me/oauth-grants', { headers: as(ward) })).status).toBe(200);
    const r = await register();
    const url = authorizationUrl(r, {
      state: 'ward',
      challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
      method: 'S256',
    });
    const res = await call(url.pathname + url.search, {
      headers: { cookie: ward.cookie },
      redirect: 'manual',
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toContain('access_denied');
    expect(await grantsOf(env, ward.id)).toEqual([]);
  });
});

describe('grants are consents', { timeout: 60_000 }, () => {
  it('are listed under /api/me with client and scopes, revocable there (ending their tokens), and audit-logged', async () => {
    const person = (await candidateWithCertificate('Grant Holder')).candidate;
    const r = await register();
    const { params, verifier } = await authorise(person, r);
    const tokens = await oauth.processAuthorizationCodeResponse(
      r.as,
      r.client,
      await exchange(r, params, verifier),
    );
    const listed = await call('/api/me/oauth-grants', { headers: as(person) });
    expect(listed.status).toBe(200);
    const { grants } = await listed.json<{ grants: { id: string; clientName: string; scope: string[] }[] }>();
    expect(grants).toHaveLength(1);
    expect(grants[0]).toMatchObject({
      clientName: 'Test Wallet <b>',
      scope: expect.arrayContaining([SCOPE_READ]),
    });
    // Nobody else can see or revoke it.
    const other = await signup('candidate', 'Someone Else');
    expect(
      (await call(`/api/me/oauth-grants/${grants[0]!.id}`, { method: 'DELETE', headers: as(other) })).status,
    ).toBe(404);
    expect((await credentials(tokens.access_token)).status).toBe(200);
    const revoked = await call(`/api/me/oauth-grants/${grants[0]!.id}`, {
      method: 'DELETE',
      headers: as(person),
    });
    expect(revoked.status).toBe(204);
    expect((await credentials(tokens.access_token)).status).toBe(401);
    const refresh = await oauth.refreshTokenGrantRequest(
      r.as,
      r.client,
      oauth.ClientSecretBasic(r.secret),
      tokens.refresh_token!,
      http,
    );
    expect(refresh.status).toBe(400);
    const listedAfter = await (await call('/api/me/oauth-grants', { headers: as(person) })).json<{
      grants: unknown[];
    }>();
    expect(listedAfter.grants).toEqual([]);
    const audit = await env.DB.prepare(
      "SELECT action FROM audit_log WHERE actor_id = ? AND action LIKE 'oauth.grant.%' ORDER BY id",
    )
      .bind(person.id)
      .all<{ action: string }>();
    expect(audit.results.map((r) => r.action).sort()).toEqual(['oauth.grant.created', 'oauth.grant.revoked']);
  });

  it('are ended by the erasure cascade (its oauth_grants step), idempotently', async () => {
    expect(ERASURE_STEPS.map((s) => s.key)).toContain('oauth_grants');
    const person = (await candidateWithCertificate('Erased Holder')).candidate;
    const r = await register();
    const { params, verifier } = await authorise(person, r);
    const tokens = await oauth.processAuthorizationCodeResponse(
      r.as,
      r.client,
      await exchange(r, params, verifier),
    );
    const counts: Record<string, number> = {};
    const ctx = {
      env,
      person: { userId: person.id },
      count: async (key: string, n: number) => {
        counts[key] = (counts[key] ?? 0) + n;
      },
    };
    await oauthGrantsErasureStep.run(ctx);
    expect(counts).toEqual({ oauth_grants: 1 });
    expect(await grantsOf(env, person.id)).toEqual([]);
    expect((await credentials(tokens.access_token)).status).toBe(401);
    await oauthGrantsErasureStep.run(ctx);
    expect(counts).toEqual({ oauth_grants: 1 });
  });
});
