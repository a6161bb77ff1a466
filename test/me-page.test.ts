/**
 * The holder's home (`/me`, HTML): the sign-in page when signed out, each section for a holder
 * with certificates, grants and consents, the forms (each changes state and comes back with a
 * 303), GETs that change nothing, the CSRF rule, and nobody else's data.
 */
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { grantsOf } from '../src/services/portability/grants';
import { candidateWithCertificate, signup } from './harness';
import { type Account, as, BASE, call, freshIp, jsonInit, sessionCookieFrom } from './helpers';
import { authorise, register } from './ob-client';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

const home = (account?: Account, query = '') =>
  call(`/me${query}`, { headers: { accept: BROWSER, ...(account ? { cookie: account.cookie } : {}) } });

/** A form as the page's browser posts it: same origin, urlencoded. */
function post(
  path: string,
  account: Account | null,
  fields: Record<string, string> = {},
  headers: Record<string, string> = {},
) {
  return call(path, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      accept: BROWSER,
      'content-type': 'application/x-www-form-urlencoded',
      ...(account ? as(account) : { origin: BASE }),
      ...headers,
    },
    body: new URLSearchParams(fields),
  });
}

function expectBack(res: Response, query: string, section?: string) {
  expect(res.status).toBe(303);
  expect(res.headers.get('location')).toBe(`/me?${query}${section ? `#${section}` : ''}`);
}

const section = (html: string, id: string) => {
  const start = html.indexOf(`<section id="${id}"`);
  expect(start, `section ${id}`).toBeGreaterThan(-1);
  return html.slice(start, html.indexOf('</section>', start));
};

const consentStates = async (account: Account) =>
  await (await call('/api/me/consents', { headers: as(account) })).json<{
    states: Record<string, { state: string }>;
    history: unknown[];
  }>();

describe('/me signed out', () => {
  it('is a sign-in page on the site’s layout, personal, without script, whose form posts to /me/sign-in', async () => {
    const res = await home();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-language')).toBe('en');
    expect(res.headers.get('content-security-policy')).toContain("form-action 'self'");
    const html = await res.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<link rel="stylesheet" href="/assets/site.css">');
    expect(html).toContain('<form method="post" action="/me/sign-in?lang=en"');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<style');
  });

  it('is in Hindi when the browser asks for it or ?lang=hi', async () => {
    const res = await call('/me', {
      headers: { accept: BROWSER, 'accept-language': 'hi-IN,hi;q=0.9,en;q=0.5' },
    });
    expect(res.headers.get('content-language')).toBe('hi');
    const html = await res.text();
    expect(html).toContain('<html lang="hi">');
    expect(html).toContain('अपने खाते में साइन इन करें');
    expect(await (await call('/me?lang=hi', { headers: { accept: BROWSER } })).text()).toContain(
      '<html lang="hi">',
    );
  });

  it('keeps the page’s language through its forms: a Hindi page’s forms post with ?lang=hi and come back in Hindi', async () => {
    const person = await signup('candidate', 'Bhasha Rakhne Wali');
    const html = await (await home(person, '?lang=hi')).text();
    expect(html).toContain('<html lang="hi">');
    for (const action of ['/me/consents', '/me/public-name', '/me/sign-out'])
      expect(html).toContain(`action="${action}?lang=hi"`);
    const granted = await post('/me/consents?lang=hi', person, { purpose: 'leaderboard', action: 'grant' });
    expectBack(granted, 'lang=hi&notice=consent-granted', 'consents');
    // The receipt names the notice in the language the page showed it in.
    const { history } = await consentStates(person);
    expect(history[0]).toMatchObject({ purpose: 'leaderboard', action: 'grant', language: 'hi' });
    const back = await (await home(person, '?lang=hi&notice=consent-granted')).text();
    expect(back).toContain('<html lang="hi">');
    // A refusal keeps it too, and a form sent without it goes back as before.
    expectBack(
      await post('/me/public-name?lang=hi', person, { publicAlias: 'x' }),
      'lang=hi&error=alias-invalid',
      'public-name',
    );
    expectBack(
      await post('/me/consents', person, { purpose: 'leaderboard', action: 'revoke' }),
      'notice=consent-withdrawn',
      'consents',
    );
    expectBack(await post('/me/sign-out?lang=hi', person), 'lang=hi&notice=signed-out');
    const ip = freshIp();
    expectBack(
      await post(
        '/me/sign-in?lang=hi',
        null,
        { email: person.email, password: 'wrong' },
        { 'CF-Connecting-IP': ip },
      ),
      'lang=hi&error=sign-in-failed',
    );
  });

  it('signs in with the form and comes back to /me; a wrong password comes back with an error', async () => {
    const person = await signup('candidate', 'Form Signer');
    const ip = freshIp();
    const wrong = await post(
      '/me/sign-in',
      null,
      { email: person.email, password: 'not-the-password' },
      { 'CF-Connecting-IP': ip },
    );
    expectBack(wrong, 'error=sign-in-failed');
    expect(sessionCookieFrom(wrong)).toBeNull();
    const page = await (await home(undefined, '?error=sign-in-failed')).text();
    expect(page).toContain('Sign-in failed');
    const ok = await post(
      '/me/sign-in',
      null,
      { email: person.email, password: person.password },
      { 'CF-Connecting-IP': ip },
    );
    expectBack(ok, 'notice=signed-in');
    const cookie = `session=${sessionCookieFrom(ok)}`;
    const signedIn = await (await home({ ...person, cookie }, '?notice=signed-in')).text();
    expect(signedIn).toContain('Hello, Form Signer');
    expect(signedIn).toContain('You are signed in.');
    // And out again: the session ends.
    expectBack(await post('/me/sign-out', { ...person, cookie }), 'notice=signed-out');
    expect(await (await home({ ...person, cookie })).text()).toContain('action="/me/sign-in?lang=en"');
  });

  it('sends every form of a signed-out browser back to the sign-in page', async () => {
    const res = await post('/me/consents', null, { purpose: 'leaderboard', action: 'grant' });
    expectBack(res, 'error=sign-in-required');
  });

  it('shows no banner text that is not its own', async () => {
    const html = await (await home(undefined, '?notice=%3Cscript%3E&error=nope')).text();
    expect(html).not.toContain('<script');
    expect(html).not.toContain('class="banner');
  });
});

describe('/me signed in', { timeout: 120_000 }, () => {
  let holder: Account;
  let certificateNo: string;
  let grantId: string;
  let consentPage: string;

  beforeAll(async () => {
    const issued = await candidateWithCertificate('Meera Holder', { title: 'Responsive <Checkout> Page' });
    holder = issued.candidate;
    certificateNo = issued.certificateNo;
    consentPage = (await authorise(holder, await register())).page.html;
    const [grant] = await grantsOf(env, holder.id);
    grantId = grant!.id;
  });

  it('shows every section: certificates, learner record, public name, consents, applications, email, wallets and DigiLocker', async () => {
    const res = await home(holder);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    expect(html).toContain('Hello, Meera Holder');
    const certs = section(html, 'certificates');
    expect(certs).toContain(`href="/verify/${certificateNo}"`);
    expect(certs).toContain('Responsive &lt;Checkout&gt; Page');
    expect(certs).toContain(`href="/api/me/certificates/${certificateNo}/pdf"`);
    expect(certs).toContain(`href="/api/certificates/${certificateNo}/badge.png"`);
    expect(certs).toContain(`href="/api/certificates/${certificateNo}/badge.svg"`);
    expect(certs).toContain('Valid');
    expect(section(html, 'learner-record')).toContain('href="/api/me/learner-record"');
    const apps = section(html, 'applications');
    expect(apps).toContain('Test Wallet &lt;b&gt;');
    expect(apps).toContain(`action="/me/applications/${encodeURIComponent(grantId)}/revoke?lang=en"`);
    const consents = section(html, 'consents');
    for (const purpose of ['public_verification', 'leaderboard', 'ai_evaluation'])
      expect(consents).toContain(`id="consent-${purpose}"`);
    expect(consents).toContain('name="action" value="revoke"');
    const name = section(html, 'public-name');
    expect(name).toContain('<strong>Meera Holder</strong>');
    expect(name).toContain('action="/me/public-name?lang=en"');
    const email = section(html, 'email');
    expect(email).toContain(holder.email);
    expect(email).toContain('Confirmed');
    expect(email).not.toContain('/me/email-confirmation');
    expect(section(html, 'wallets')).toContain(
      `action="/me/certificates/${certificateNo}/credential-offer?lang=en"`,
    );
    expect(section(html, 'digilocker')).toContain('not set up as a DigiLocker issuer');
    // The learner record and PDF links work with the same cookie.
    expect((await call('/api/me/learner-record', { headers: as(holder) })).status).toBe(200);
  });

  it('withdraws and grants public verification: what a verifier sees changes and the page says so', async () => {
    const withdrawn = await post('/me/consents', holder, {
      purpose: 'public_verification',
      action: 'revoke',
    });
    expectBack(withdrawn, 'notice=consent-withdrawn', 'public-name');
    expect((await consentStates(holder)).states.public_verification!.state).toBe('revoked');
    const verify = await (await call(`/api/verify/${certificateNo}`)).json<{ holder: unknown }>();
    expect(JSON.stringify(verify.holder ?? null)).not.toContain('Meera Holder');
    const page = await (await home(holder, '?notice=consent-withdrawn')).text();
    expect(section(page, 'public-name')).toContain('<strong>Not shown</strong>');
    expect(page).toContain('Consent withdrawn.');
    expectBack(
      await post('/me/consents', holder, { purpose: 'public_verification', action: 'grant' }),
      'notice=consent-granted',
      'public-name',
    );
    expect((await consentStates(holder)).states.public_verification!.state).toBe('granted');
  });

  it('grants and withdraws the leaderboard consent', async () => {
    expectBack(
      await post('/me/consents', holder, { purpose: 'leaderboard', action: 'revoke' }),
      'notice=consent-withdrawn',
      'consents',
    );
    expect((await consentStates(holder)).states.leaderboard!.state).toBe('revoked');
    expectBack(
      await post('/me/consents', holder, { purpose: 'leaderboard', action: 'grant' }),
      'notice=consent-granted',
      'consents',
    );
    expect((await consentStates(holder)).states.leaderboard!.state).toBe('granted');
  });

  it('sets, refuses and clears the leaderboard alias', async () => {
    expectBack(
      await post('/me/public-name', holder, { publicAlias: '  Meera M  ' }),
      'notice=alias-saved',
      'public-name',
    );
    const me = async () =>
      (await (await call('/api/me', { headers: as(holder) })).json<{ publicAlias: string | null }>())
        .publicAlias;
    expect(await me()).toBe('Meera M');
    expect(section(await (await home(holder)).text(), 'public-name')).toContain('value="Meera M"');
    expectBack(
      await post('/me/public-name', holder, { publicAlias: 'a\u202Eb' }),
      'error=alias-invalid',
      'public-name',
    );
    expect(await me()).toBe('Meera M');
    expectBack(
      await post('/me/public-name', holder, { publicAlias: '' }),
      'notice=alias-cleared',
      'public-name',
    );
    expect(await me()).toBeNull();
  });

  it('a GET changes nothing', async () => {
    const before = await consentStates(holder);
    const grants = await grantsOf(env, holder.id);
    for (const query of ['', '?notice=consent-granted', '?notice=application-revoked'])
      expect((await home(holder, query)).status).toBe(200);
    const after = await consentStates(holder);
    expect(after.states).toEqual(before.states);
    expect(after.history).toHaveLength(before.history.length);
    expect(await grantsOf(env, holder.id)).toEqual(grants);
    // The forms' routes answer only POST.
    expect((await call('/me/consents', { headers: { cookie: holder.cookie } })).status).toBe(405);
  });

  it('refuses a form without an allowed Origin (a page for a browser, problem+json otherwise) and changes nothing', async () => {
    const before = await consentStates(holder);
    const form = { 'content-type': 'application/x-www-form-urlencoded', cookie: holder.cookie };
    const body = () => new URLSearchParams({ purpose: 'leaderboard', action: 'revoke' });
    const noOrigin = await call('/me/consents', {
      method: 'POST',
      headers: { ...form, accept: BROWSER },
      body: body(),
    });
    expect(noOrigin.status).toBe(403);
    expect(noOrigin.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await noOrigin.text()).toContain('not sent from this site');
    const foreign = await call('/me/consents', {
      method: 'POST',
      headers: { ...form, origin: 'https://evil.example', accept: 'application/json' },
      body: body(),
    });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('content-type')).toBe('application/problem+json');
    const grant = await call(`/me/applications/${encodeURIComponent(grantId)}/revoke`, {
      method: 'POST',
      headers: { cookie: holder.cookie, origin: 'https://evil.example' },
    });
    expect(grant.status).toBe(403);
    expect((await consentStates(holder)).history).toHaveLength(before.history.length);
    expect(await grantsOf(env, holder.id)).toHaveLength(1);
  });

  it('never shows or changes another holder’s data', async () => {
    const other = await signup('candidate', 'Other Person');
    const html = await (await home(other)).text();
    expect(html).toContain('Hello, Other Person');
    expect(html).not.toContain(certificateNo);
    expect(html).not.toContain('Meera');
    expect(html).not.toContain('Test Wallet');
    expect(section(html, 'certificates')).toContain('You hold no certificates yet');
    expect(section(html, 'learner-record')).not.toContain('href="/api/me/learner-record"');
    expectBack(
      await post(`/me/applications/${encodeURIComponent(grantId)}/revoke`, other),
      'error=application-unknown',
      'applications',
    );
    expect(await grantsOf(env, holder.id)).toHaveLength(1);
  });

  it('is where the authorization page says access can be revoked', () => {
    expect(consentPage).toContain('<a href="/me?lang=en#applications">');
  });

  it('revokes a connected application', async () => {
    expectBack(
      await post(`/me/applications/${encodeURIComponent(grantId)}/revoke`, holder),
      'notice=application-revoked',
      'applications',
    );
    expect(await grantsOf(env, holder.id)).toEqual([]);
    expect(section(await (await home(holder)).text(), 'applications')).toContain('No application has access');
  });
});

describe('/me email confirmation', () => {
  it('shows an unconfirmed address with a form for a new link, which sends one', async () => {
    const email = `unconfirmed-${crypto.randomUUID().slice(0, 8)}@example.test`;
    const res = await call(
      '/api/auth/signup',
      jsonInit(
        'POST',
        {
          email,
          password: 'a-long-enough-password',
          name: 'Not Yet',
          role: 'candidate',
          dateOfBirth: '1990-01-01',
        },
        { 'CF-Connecting-IP': freshIp() },
      ),
    );
    expect(res.status).toBe(201);
    const account: Account = {
      cookie: `session=${sessionCookieFrom(res)}`,
      id: (await res.json<{ user: { id: string } }>()).user.id,
      email,
      password: 'a-long-enough-password',
    };
    const page = section(await (await home(account)).text(), 'email');
    expect(page).toContain('Not confirmed');
    expect(page).toContain('action="/me/email-confirmation?lang=en"');
    const before = await env.DB.prepare('SELECT count(*) AS n FROM email_confirmations WHERE user_id = ?')
      .bind(account.id)
      .first<{ n: number }>();
    expectBack(await post('/me/email-confirmation', account), 'notice=confirmation-sent', 'email');
    const after = await env.DB.prepare('SELECT count(*) AS n FROM email_confirmations WHERE user_id = ?')
      .bind(account.id)
      .first<{ n: number }>();
    expect(after!.n).toBe(before!.n + 1);
  });

  it('says so when the address is confirmed already', async () => {
    const person = await signup('candidate', 'Confirmed Person');
    expectBack(await post('/me/email-confirmation', person), 'error=already-confirmed', 'email');
  });
});
