/**
 * "Send to my host": the holder hands a certificate to their own Open Badges 3.0 host through the
 * OB 3.0 API (this service as the OAuth client, oauth4webapi). The host is a real OB host double
 * (test/doubles/ob-host.mjs): discovery, RFC 7591 registration, authorization code with PKCE S256,
 * token, and an upsert that verifies the JWS with this service's JWKS before storing it. The test
 * plays the holder's browser: it follows the authorization URL to the host and the host's
 * redirect back to the callback.
 */

import { env } from 'cloudflare:test';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { clock, resetClock } from '../src/lib/clock';
import { certify, loginAdmin, signup } from './harness';
import { type Account, as, BASE, call, expectProblem, jsonInit } from './helpers';

let jwks: unknown;
let holder: Account;
let certificateNo: string;
let certificateJwt: string;

const hostNo = () => `h${crypto.randomUUID().slice(0, 8)}`;
const origin = (name: string) => `https://${name}.backpack.test`;

async function configure(name: string, config: Record<string, unknown>) {
  const res = await fetch(`${origin(name)}/__control/config`, {
    method: 'PUT',
    body: JSON.stringify({ jwks, ...config }),
  });
  expect(res.status).toBe(204);
}

async function hostState(name: string) {
  return (await fetch(`${origin(name)}/__control/state`)).json<{
    registrations: { name: string; redirectUris: string[] }[];
    credentials: { id: string; jws: string }[];
    log: string[];
  }>();
}

function start(who: Account, number: string, hostUrl: string) {
  return call(`/api/me/certificates/${number}/send-to-host`, jsonInit('POST', { hostUrl }, as(who)));
}

/** The binding cookie of a started send (`send_to_host=…`). */
function bindingOf(res: Response): string {
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('send_to_host='));
  expect(cookie).toBeTruthy();
  expect(cookie).toMatch(/HttpOnly/i);
  expect(cookie).toMatch(/SameSite=Lax/i);
  expect(cookie).toMatch(/Path=\/api\/send-to-host\/callback/);
  return cookie!.split(';')[0]!;
}

/** The browser at the host: the host redirects back to us (approves, or says why not). */
async function atHost(authorizationUrl: string): Promise<URL> {
  const res = await fetch(authorizationUrl, { redirect: 'manual' });
  expect(res.status).toBe(302);
  const back = new URL(res.headers.get('location')!);
  expect(back.origin + back.pathname).toBe(`${BASE}/api/send-to-host/callback`);
  return back;
}

function callback(back: URL, binding: string | null) {
  return call(back.pathname + back.search, binding ? { headers: { cookie: binding } } : {});
}

/** Start, go to the host, come back: the callback's answer. */
async function send(name: string, who = holder, number = certificateNo) {
  const started = await start(who, number, origin(name));
  expect(started.status).toBe(202);
  const body = await started.json<{ authorizationUrl: string; expiresAt: string }>();
  return callback(await atHost(body.authorizationUrl), bindingOf(started));
}

async function auditedSends(userId: string) {
  const rows = await env.DB.prepare(
    "SELECT details FROM audit_log WHERE actor_id = ? AND action = 'certificate.sent_to_host' ORDER BY id",
  )
    .bind(userId)
    .all<{ details: string }>();
  return rows.results.map((r) => JSON.parse(r.details) as Record<string, unknown>);
}

beforeAll(async () => {
  jwks = await (await call('/.well-known/jwks.json')).json();
  const employer = await signup('employer', 'Recruiter', 'Send Employer');
  holder = await signup('candidate', 'Priya Sender');
  ({ certificateNo } = await certify(employer, holder));
  certificateJwt = (
    await (await call(`/api/verify/${certificateNo}`)).json<{ credential: { jwt: string } }>()
  ).credential.jwt;
}, 120_000);

afterEach(() => resetClock());

describe('send to my host', { timeout: 30_000 }, () => {
  it('upserts the credential at the host, which verifies it; a second send replaces it; one registration; audit-logged', async () => {
    const name = hostNo();
    await configure(name, {});
    const started = await start(holder, certificateNo, `${origin(name)}/`);
    expect(started.status).toBe(202);
    expect(started.headers.get('cache-control')).toBe('no-store');
    const { authorizationUrl, expiresAt } = await started.json<{
      authorizationUrl: string;
      expiresAt: string;
    }>();
    const auth = new URL(authorizationUrl);
    expect(auth.origin + auth.pathname).toBe(`${origin(name)}/authorize`);
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
    expect(auth.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(auth.searchParams.get('scope')).toBe(
      'https://purl.imsglobal.org/spec/ob/v3p0/scope/credential.upsert',
    );
    expect(auth.searchParams.get('redirect_uri')).toBe(`${BASE}/api/send-to-host/callback`);
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(9 * 60_000);
    // Nothing is at the host before the holder comes back.
    expect((await hostState(name)).credentials).toEqual([]);

    const res = await callback(await atHost(authorizationUrl), bindingOf(started));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ certificateNo, host: origin(name), result: 'created' });
    const state = await hostState(name);
    // The host verified the JWS with our JWKS before storing it (it refuses what does not verify).
    expect(state.credentials.map((c) => c.jws)).toEqual([certificateJwt]);
    expect(state.registrations).toEqual([
      expect.objectContaining({
        name: 'Verification Platform',
        redirectUris: [`${BASE}/api/send-to-host/callback`],
      }),
    ]);

    // Again: the host replaces it (200), and the registration is reused.
    const again = await send(name);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ result: 'replaced' });
    const after = await hostState(name);
    expect(after.registrations).toHaveLength(1);
    expect(after.credentials).toHaveLength(1);
    expect(after.log.filter((l) => l === 'POST /register')).toHaveLength(1);

    const audit = (await auditedSends(holder.id)).filter((a) => a.host === origin(name));
    expect(audit.map((a) => a.result).sort()).toEqual(['created', 'replaced']);
    for (const entry of audit) expect(entry).toMatchObject({ certificateNo, host: origin(name) });
  });

  it('a state works once, only in the browser that started it, and only for 10 minutes', async () => {
    const name = hostNo();
    await configure(name, {});
    // Reused.
    const started = await start(holder, certificateNo, origin(name));
    const binding = bindingOf(started);
    const back = await atHost((await started.json<{ authorizationUrl: string }>()).authorizationUrl);
    expect((await callback(back, binding)).status).toBe(200);
    await expectProblem(await callback(back, binding), 400, 'send-state-invalid');

    // Another browser (no binding cookie, or another one): refused, and the state is spent.
    const other = await start(holder, certificateNo, origin(name));
    const otherBack = await atHost((await other.json<{ authorizationUrl: string }>()).authorizationUrl);
    await expectProblem(await callback(otherBack, null), 400, 'send-state-invalid');
    await expectProblem(await callback(otherBack, bindingOf(other)), 400, 'send-state-invalid');
    await expectProblem(await callback(otherBack, 'send_to_host=forged'), 400, 'send-state-invalid');

    // Unknown or missing state.
    await expectProblem(
      await call('/api/send-to-host/callback?state=made-up&code=x', { headers: { cookie: binding } }),
      400,
      'send-state-invalid',
    );
    await expectProblem(await call('/api/send-to-host/callback?code=x'), 400, 'send-state-invalid');

    // Expired: the holder came back after 10 minutes.
    const late = await start(holder, certificateNo, origin(name));
    const lateBack = await atHost((await late.json<{ authorizationUrl: string }>()).authorizationUrl);
    const now = Date.now();
    clock.now = () => new Date(now + 11 * 60_000);
    await expectProblem(await callback(lateBack, bindingOf(late)), 400, 'send-state-invalid');
    resetClock();
    // Only the one good send reached the host.
    expect((await hostState(name)).log.filter((l) => l === 'POST /ims/ob/v3p0/credentials')).toHaveLength(1);
  });

  it('denied at the host: 403 host-access-denied, nothing sent or audited', async () => {
    const name = hostNo();
    await configure(name, { deny: true });
    const before = (await auditedSends(holder.id)).length;
    const res = await send(name);
    await expectProblem(res, 403, 'host-access-denied');
    expect((await hostState(name)).log).not.toContain('POST /token');
    expect((await hostState(name)).credentials).toEqual([]);
    expect(await auditedSends(holder.id)).toHaveLength(before);
  });

  it('a host without discovery, one that refuses registration, or names no upsert scope: 502, nothing kept', async () => {
    const none = hostNo();
    await configure(none, { noDiscovery: true });
    const noDiscovery = await expectProblem(
      await start(holder, certificateNo, origin(none)),
      502,
      'host-discovery-failed',
    );
    expect(noDiscovery.detail).toContain('404');

    const closed = hostNo();
    await configure(closed, { refuseRegistration: true });
    const refused = await expectProblem(
      await start(holder, certificateNo, origin(closed)),
      502,
      'host-registration-refused',
    );
    expect(refused.detail).toContain('invalid_client_metadata');
    // A refused registration is not cached: the next try registers again.
    await configure(closed, { refuseRegistration: false });
    expect((await start(holder, certificateNo, origin(closed))).status).toBe(202);

    const readOnly = hostNo();
    await configure(readOnly, {
      discovery: {
        openapi: '3.0.1',
        servers: [{ url: `${origin(readOnly)}/ims/ob/v3p0` }],
        components: {
          securitySchemes: {
            OAuth2ACG: {
              type: 'oauth2',
              'x-imssf-registrationUrl': `${origin(readOnly)}/register`,
              flows: {
                authorizationCode: {
                  authorizationUrl: `${origin(readOnly)}/authorize`,
                  tokenUrl: `${origin(readOnly)}/token`,
                  scopes: { 'https://purl.imsglobal.org/spec/ob/v3p0/scope/credential.readonly': 'Read' },
                },
              },
            },
          },
        },
      },
    });
    await expectProblem(await start(holder, certificateNo, origin(readOnly)), 502, 'host-discovery-failed');
    expect((await hostState(readOnly)).log).not.toContain('POST /register');

    // Not JSON at all.
    const garbage = hostNo();
    await configure(garbage, { discovery: 'nonsense' });
    await expectProblem(await start(holder, certificateNo, origin(garbage)), 502, 'host-discovery-failed');
  });

  it('the outbound rules: a host slower than 3 s or an answer over 256 KiB is given up, nothing registered', async () => {
    const slow = hostNo();
    await configure(slow, { discoveryDelayMs: 3_500 });
    const late = await expectProblem(
      await start(holder, certificateNo, origin(slow)),
      502,
      'host-discovery-failed',
    );
    expect(late.detail).toContain('3000 ms');
    expect((await hostState(slow)).log).not.toContain('POST /register');

    const large = hostNo();
    await configure(large, { discoveryPadding: 256 * 1024 });
    const oversized = await expectProblem(
      await start(holder, certificateNo, origin(large)),
      502,
      'host-discovery-failed',
    );
    expect(oversized.detail).toContain(`${256 * 1024} bytes`);
    expect((await hostState(large)).log).not.toContain('POST /register');
    // The same host, answered in time and within the cap, is used.
    await configure(large, { discoveryPadding: 0 });
    expect((await start(holder, certificateNo, origin(large))).status).toBe(202);
  });

  it('a refused code exchange: 502 host-token-failed; a refused upsert: 502 host-upsert-refused; neither audited', async () => {
    const before = (await auditedSends(holder.id)).length;
    const tokenless = hostNo();
    await configure(tokenless, { failToken: true });
    const token = await expectProblem(await send(tokenless), 502, 'host-token-failed');
    expect(token.detail).toContain('invalid_grant');

    const refusing = hostNo();
    await configure(refusing, { refuseUpsert: true });
    const upsert = await expectProblem(await send(refusing), 502, 'host-upsert-refused');
    expect(upsert.detail).toContain('does not accept credentials');

    // A host that cannot verify the credential (it knows no key) refuses it too, and says why.
    const keyless = hostNo();
    await configure(keyless, { jwks: null });
    const unverified = await expectProblem(await send(keyless), 502, 'host-upsert-refused');
    expect(unverified.detail).toContain('knows no issuer key');

    for (const name of [tokenless, refusing, keyless])
      expect((await hostState(name)).credentials).toEqual([]);
    expect(await auditedSends(holder.id)).toHaveLength(before);
  });

  it('the outbound rules: a private address after DNS, plain http, an unusable URL: refused before anything is sent', async () => {
    const name = hostNo();
    await configure(name, {});
    await fetch('http://doh.test/records', {
      method: 'PUT',
      body: JSON.stringify({ name: `${name}.backpack.test`, values: ['10.1.2.3'], type: 'A' }),
    });
    const privateAddress = await expectProblem(
      await start(holder, certificateNo, origin(name)),
      422,
      'host-address-refused',
    );
    expect(privateAddress.detail).toContain('10.1.2.3');
    expect((await hostState(name)).log).toEqual([]);

    // Tests run with production's rule (WEBHOOKS_ALLOW_HTTP_LOCALHOST=false): https only.
    const plain = hostNo();
    await configure(plain, {});
    await expectProblem(
      await start(holder, certificateNo, `http://${plain}.backpack.test`),
      422,
      'host-address-refused',
    );
    await expectProblem(
      await start(holder, certificateNo, 'http://127.0.0.1:9000'),
      422,
      'host-address-refused',
    );
    await expectProblem(
      await start(holder, certificateNo, 'https://169.254.169.254/'),
      422,
      'host-address-refused',
    );
    await expectProblem(await start(holder, certificateNo, 'not a url'), 422, 'validation-failed');

    // A discovery document whose endpoints point at a private address is refused too.
    const sneaky = hostNo();
    await configure(sneaky, {
      discovery: {
        servers: [{ url: `${origin(sneaky)}/ims/ob/v3p0` }],
        components: {
          securitySchemes: {
            OAuth2ACG: {
              type: 'oauth2',
              'x-imssf-registrationUrl': 'https://10.0.0.1/register',
              flows: {
                authorizationCode: {
                  authorizationUrl: `${origin(sneaky)}/authorize`,
                  tokenUrl: `${origin(sneaky)}/token`,
                  scopes: { 'https://purl.imsglobal.org/spec/ob/v3p0/scope/credential.upsert': 'Upsert' },
                },
              },
            },
          },
        },
      },
    });
    await expectProblem(await start(holder, certificateNo, origin(sneaky)), 422, 'host-address-refused');
  });

  it('a discovery document cannot point at another host: registration, token, authorization or API URL elsewhere is refused, nothing registered or sent', async () => {
    const victim = hostNo();
    await configure(victim, {});
    // The victim host is used once: its registration is cached here.
    expect((await start(holder, certificateNo, origin(victim))).status).toBe(202);
    expect((await hostState(victim)).log.filter((l) => l === 'POST /register')).toHaveLength(1);

    const sdd = (
      self: string,
      over: { registration?: string; token?: string; authorize?: string; api?: string },
    ) => ({
      servers: [{ url: over.api ?? `${self}/ims/ob/v3p0` }],
      components: {
        securitySchemes: {
          OAuth2ACG: {
            type: 'oauth2',
            'x-imssf-registrationUrl': over.registration ?? `${self}/register`,
            flows: {
              authorizationCode: {
                authorizationUrl: over.authorize ?? `${self}/authorize`,
                tokenUrl: over.token ?? `${self}/token`,
                scopes: { 'https://purl.imsglobal.org/spec/ob/v3p0/scope/credential.upsert': 'Upsert' },
              },
            },
          },
        },
      },
    });
    const cases: ((evil: string) => Parameters<typeof sdd>[1])[] = [
      // The attack: the victim's registration URL (its cached secret) with the attacker's token URL.
      () => ({ registration: `${origin(victim)}/register` }),
      () => ({ token: `${origin(victim)}/token` }),
      () => ({ authorize: `${origin(victim)}/authorize` }),
      () => ({ api: `${origin(victim)}/ims/ob/v3p0` }),
      // The same host name on another port is another origin too.
      (evil) => ({ token: `${origin(evil)}:8443/token` }),
    ];
    for (const overOf of cases) {
      const evil = hostNo();
      await configure(evil, { discovery: sdd(origin(evil), overOf(evil)) });
      const refused = await expectProblem(
        await start(holder, certificateNo, origin(evil)),
        502,
        'host-discovery-failed',
      );
      expect(refused.detail).toContain('not on the origin of its discovery document');
      const evilLog = (await hostState(evil)).log;
      expect(evilLog).not.toContain('POST /register');
      expect(evilLog).not.toContain('POST /token');
    }
    // The victim saw no second registration and no token request from any of them.
    const after = (await hostState(victim)).log;
    expect(after.filter((l) => l === 'POST /register')).toHaveLength(1);
    expect(after).not.toContain('POST /token');
  });

  it('a hostUrl of another scheme (javascript:, mailto:, data:, urn:, ftp:) is a 422 by the address rule, never a 500', async () => {
    for (const hostUrl of [
      'javascript:alert(1)',
      'mailto:someone@example.test',
      'data:text/plain,hello',
      'urn:isbn:0451450523',
      'ftp://files.example.test/',
      'file:///etc/passwd',
      'about:blank',
    ]) {
      const problem = await expectProblem(
        await start(holder, certificateNo, hostUrl),
        422,
        'host-address-refused',
      );
      expect(problem.detail).toContain('hostUrl');
    }
  });

  it('only the holder, only a live certificate, never a child’s account', async () => {
    const name = hostNo();
    await configure(name, {});
    const stranger = await signup('candidate', 'Not The Holder');
    await expectProblem(await start(stranger, certificateNo, origin(name)), 404, 'not-found');
    expect(
      (
        await call(
          `/api/me/certificates/${certificateNo}/send-to-host`,
          jsonInit('POST', { hostUrl: origin(name) }),
        )
      ).status,
    ).toBe(401);

    // Revoked: 410, and a send started before the revocation does not finish.
    const employer = await signup('employer', 'Recruiter', 'Revoking Employer');
    const { certificateNo: doomed } = await certify(employer, holder, { title: 'Doomed brief' });
    const started = await start(holder, doomed, origin(name));
    expect(started.status).toBe(202);
    const back = await atHost((await started.json<{ authorizationUrl: string }>()).authorizationUrl);
    const admin = await loginAdmin();
    expect(
      (
        await call(
          `/api/certificates/${doomed}/revoke`,
          jsonInit('POST', { reason: 'Plagiarised work' }, as(admin)),
        )
      ).status,
    ).toBe(200);
    await expectProblem(await callback(back, bindingOf(started)), 410, 'certificate-revoked');
    await expectProblem(await start(holder, doomed, origin(name)), 410, 'certificate-revoked');
    expect((await hostState(name)).credentials).toEqual([]);

    const child = await signup('candidate', 'Young Sender', undefined, {
      dateOfBirth: `${new Date().getUTCFullYear() - 12}-01-01`,
      guardianEmail: `guardian-${crypto.randomUUID().slice(0, 8)}@example.test`,
    });
    // Without the guardian's consent the session middleware refuses; with it, the grants' rule still applies.
    await expectProblem(await start(child, certificateNo, origin(name)), 403, 'guardian-consent-required');
    const guardian = await signup('candidate', 'Guardian Person');
    const ward = await signup('candidate', 'Ward Sender', undefined, {
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
    const forbidden = await expectProblem(await start(ward, certificateNo, origin(name)), 403, 'forbidden');
    expect(forbidden.detail).toContain('child');
  });
});
