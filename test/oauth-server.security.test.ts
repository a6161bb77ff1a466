/**
 * The authorization server under attack (issue 51, third security round): refresh-token reuse,
 * redirects before the holder has seen anything, body caps, scopes outside what is supported or
 * registered, misleading answers, impersonating client names and unrelated client websites.
 * docs/security.md lists each class with this file.
 */

import { env, SELF } from 'cloudflare:test';
import * as oauth from 'oauth4webapi';
import { beforeAll, describe, expect, it } from 'vitest';
import { grantsOf } from '../src/services/portability/grants';
import { signup, verifiedEmployer } from './harness';
import { type Account, BASE, call, freshIp, ORIGIN } from './helpers';
import {
  authorise,
  authorizationUrl,
  exchange,
  http,
  issuer,
  openPage,
  REDIRECT,
  register,
  SCOPE_PROFILE,
  SCOPE_READ,
} from './ob-client';

let holder: Account;

beforeAll(async () => {
  holder = await signup('candidate', 'Oauth Target');
}, 60_000);

const credentials = (token: string) =>
  call('/ims/ob/v3p0/profile', { headers: { authorization: `Bearer ${token}` } });

function refresh(r: Awaited<ReturnType<typeof register>>, token: string) {
  return oauth.refreshTokenGrantRequest(r.as, r.client, oauth.ClientSecretBasic(r.secret), token, http);
}

async function reasons(clientId: string) {
  const rows = await env.DB.prepare(
    "SELECT action, details FROM audit_log WHERE target_type = 'oauth_client' AND target_id = ? ORDER BY created_at, rowid",
  )
    .bind(clientId)
    .all<{ action: string; details: string }>();
  return rows.results.map((r) => [r.action, (JSON.parse(r.details) as { reason?: string }).reason ?? null]);
}

async function discovered() {
  return oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { ...http, algorithm: 'oauth2' }),
  );
}

async function registerRaw(metadata: Record<string, unknown>) {
  return SELF.fetch(`${BASE}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'CF-Connecting-IP': freshIp() },
    body: JSON.stringify({ redirect_uris: [REDIRECT], ...metadata }),
  });
}

const challenge = () => oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier());

describe('refresh-token reuse (RFC 9700 § 4.14.2)', { timeout: 60_000 }, () => {
  for (const stale of ['previous', 'older'] as const) {
    it(`a spent refresh token (${stale}) presented again revokes the whole grant, audited`, async () => {
      const r = await register();
      const { params, verifier } = await authorise(holder, r);
      const first = await oauth.processAuthorizationCodeResponse(
        r.as,
        r.client,
        await exchange(r, params, verifier),
      );
      const second = await oauth.processRefreshTokenResponse(
        r.as,
        r.client,
        await refresh(r, first.refresh_token!),
      );
      let live = second;
      if (stale === 'older')
        live = await oauth.processRefreshTokenResponse(
          r.as,
          r.client,
          await refresh(r, second.refresh_token!),
        );
      expect((await credentials(live.access_token)).status).toBe(200);

      // The attacker (or the client) presents the first refresh token again.
      const reused = await refresh(r, first.refresh_token!);
      expect(reused.status).toBe(400);
      const body = await reused.json<{ error: string; error_description: string }>();
      expect(body.error).toBe('invalid_grant');
      expect(body.error_description).toContain('revoked');
      // The whole grant is gone: the live access token and the live refresh token stop working.
      expect((await credentials(live.access_token)).status).toBe(401);
      expect((await refresh(r, live.refresh_token!)).status).toBe(400);
      expect(
        await grantsOf(env, holder.id).then((g) => g.filter((x) => x.clientId === r.client.client_id)),
      ).toEqual([]);
      expect(await reasons(r.client.client_id)).toEqual([
        ['oauth.grant.created', null],
        ['oauth.grant.revoked', 'refresh-token-reused'],
      ]);
    });
  }

  it('a refresh token that was never issued is refused without ending the grant', async () => {
    const r = await register();
    const { params, verifier } = await authorise(holder, r);
    const tokens = await oauth.processAuthorizationCodeResponse(
      r.as,
      r.client,
      await exchange(r, params, verifier),
    );
    const [user, grant] = tokens.refresh_token!.split(':');
    expect((await refresh(r, `${user}:${grant}:forgedforgedforgedforged`)).status).toBe(400);
    const ok = await oauth.processRefreshTokenResponse(
      r.as,
      r.client,
      await refresh(r, tokens.refresh_token!),
    );
    expect((await credentials(ok.access_token)).status).toBe(200);
  });
});

describe('errors before the holder has seen the page are shown here, never redirected', {
  timeout: 30_000,
}, () => {
  it('an unsupported response_type, no PKCE, an unknown scope, a bad resource: a 400 page, no Location', async () => {
    const r = await register();
    const c = await challenge();
    const cases: URL[] = [];
    const bad = authorizationUrl(r, { state: 'rt', challenge: c, method: 'S256' });
    bad.searchParams.set('response_type', 'token');
    cases.push(bad);
    cases.push(authorizationUrl(r, { state: 'nopkce' }));
    cases.push(authorizationUrl(r, { state: 'scope', challenge: c, method: 'S256', scope: 'admin' }));
    const resource = authorizationUrl(r, { state: 'res', challenge: c, method: 'S256' });
    resource.searchParams.set('resource', 'https://evil.example/');
    cases.push(resource);
    for (const url of cases)
      for (const cookie of [holder.cookie, undefined]) {
        const res = await SELF.fetch(url, { headers: cookie ? { cookie } : {}, redirect: 'manual' });
        expect(res.status, url.search).toBe(400);
        expect(res.headers.get('location'), url.search).toBeNull();
        expect(res.headers.get('content-type')).toContain('text/html');
      }
  });
});

describe('scopes: only supported and registered ones', { timeout: 30_000 }, () => {
  it('an unknown scope is invalid_scope on the page, and is never shown as a request', async () => {
    const r = await register();
    const res = await SELF.fetch(
      authorizationUrl(r, {
        state: 's',
        challenge: await challenge(),
        method: 'S256',
        scope: `${SCOPE_READ} https://evil.example/scope/everything`,
      }),
      { headers: { cookie: holder.cookie }, redirect: 'manual' },
    );
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('invalid_scope');
    expect(html).not.toContain('name="handle"');
  });

  it('a scope outside the client’s registered scope is invalid_scope; inside it, the page', async () => {
    const r = await register(SCOPE_READ);
    const outside = await SELF.fetch(
      authorizationUrl(r, {
        state: 's',
        challenge: await challenge(),
        method: 'S256',
        scope: `${SCOPE_READ} ${SCOPE_PROFILE}`,
      }),
      { headers: { cookie: holder.cookie }, redirect: 'manual' },
    );
    expect(outside.status).toBe(400);
    expect(await outside.text()).toContain('invalid_scope');
    const inside = await openPage(
      holder,
      authorizationUrl(r, { state: 's', challenge: await challenge(), method: 'S256', scope: SCOPE_READ }),
    );
    expect(inside.res.status).toBe(200);
    expect(inside.html).toContain('name="handle"');
  });
});

describe('body caps on /oauth/*', { timeout: 60_000 }, () => {
  const big = 'a='.concat('x'.repeat(1024 * 1024 + 10));
  for (const path of ['/oauth/token', '/oauth/register']) {
    it(`${path}: over 1 MiB by Content-Length or while streaming is a 413; a coded body a 415`, async () => {
      const declared = await SELF.fetch(`${BASE}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'CF-Connecting-IP': freshIp() },
        body: big,
      });
      expect(declared.status).toBe(413);
      expect((await declared.json<{ error: string }>()).error).toBe('invalid_request');
      const bytes = new TextEncoder().encode(big);
      const streamed = await SELF.fetch(`${BASE}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'CF-Connecting-IP': freshIp() },
        body: new ReadableStream({
          start(controller) {
            for (let i = 0; i < bytes.length; i += 64 * 1024)
              controller.enqueue(bytes.slice(i, i + 64 * 1024));
            controller.close();
          },
        }),
        // @ts-expect-error workerd's RequestInit has duplex
        duplex: 'half',
      });
      expect(streamed.status).toBe(413);
      const coded = await SELF.fetch(`${BASE}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-encoding': 'gzip',
          'CF-Connecting-IP': freshIp(),
        },
        body: 'a=b',
      });
      expect(coded.status).toBe(415);
    });
  }

  it('/oauth/authorize (the form): over 1 MiB is a 413; JSON is a 415 that asks for a form, not for JSON', async () => {
    const large = await SELF.fetch(`${BASE}/oauth/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: holder.cookie, origin: ORIGIN },
      body: big,
    });
    expect(large.status).toBe(413);
    const json = await SELF.fetch(`${BASE}/oauth/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: holder.cookie, origin: ORIGIN },
      body: JSON.stringify({ handle: 'x', decision: 'approve' }),
    });
    expect(json.status).toBe(415);
    const detail = (await json.json<{ detail: string }>()).detail;
    expect(detail).toContain('application/x-www-form-urlencoded');
    expect(detail).not.toContain('as JSON');
  });
});

describe('client names and websites', { timeout: 60_000 }, () => {
  it('refuses names that impersonate or hide characters: invalid_client_metadata, nothing stored', async () => {
    const org = `Trusted Hiring ${crypto.randomUUID().slice(0, 6)}`;
    await verifiedEmployer().then(async (employer) => {
      // Rename the verified organisation to a known name through the database (the API's rename waits for review).
      await env.DB.prepare(
        'UPDATE organisations SET name = ?, name_key = NULL WHERE id = (SELECT organisation_id FROM users WHERE id = ?)',
      )
        .bind(org, employer.id)
        .run();
    });
    const before = (await env.OAUTH_KV.list({ prefix: 'client:' })).keys.length;
    for (const name of [
      'Verification Platform',
      'verification platform',
      'Verification Platform Wallet',
      'Vеrification Platform', // Cyrillic е
      'ᴠᴇʀɪꜰɪᴄᴀᴛɪᴏɴ ᴘʟᴀᴛꜰᴏʀᴍ', // small capitals
      org,
      org.toUpperCase(),
      `\u202eWallet`,
      'Wal\u200blet',
      'Wallet\nVerified by the platform',
      'Wallet\u2028Official',
      '   ',
    ]) {
      const res = await registerRaw({ client_name: name });
      expect(res.status, JSON.stringify(name)).toBe(400);
      expect((await res.json<{ error: string }>()).error).toBe('invalid_client_metadata');
    }
    expect((await env.OAUTH_KV.list({ prefix: 'client:' })).keys.length).toBe(before);
    // An ordinary name is fine, Indic or accented too.
    for (const name of ['Asha’s Wallet', 'बैज वॉलेट', 'Portefeuille élève'])
      expect((await registerRaw({ client_name: name })).status, name).toBe(201);
  });

  it('shows client_uri only when it is on the redirect host’s domain', async () => {
    const as = await discovered();
    for (const [clientUri, shown] of [
      ['https://bank.example/', false],
      ['https://wallet.example.evil.test/', false],
      ['https://www.wallet.example/', true],
      ['https://wallet.example/about', true],
    ] as const) {
      const registered = await oauth.processDynamicClientRegistrationResponse(
        await oauth.dynamicClientRegistrationRequest(
          as,
          { client_name: 'Site Test', client_uri: clientUri, redirect_uris: [REDIRECT] },
          http,
        ),
      );
      const r = {
        as,
        client: { client_id: registered.client_id, token_endpoint_auth_method: 'client_secret_basic' },
        secret: String(registered.client_secret),
      };
      const page = await openPage(
        holder,
        authorizationUrl(r, { state: 's', challenge: await challenge(), method: 'S256' }),
      );
      expect(page.res.status).toBe(200);
      expect(page.html.includes(clientUri), clientUri).toBe(shown);
    }
  });
});
