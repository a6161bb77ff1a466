import { base64url, exportJWK, generateKeyPair } from 'jose';
import * as oauth from 'oauth4webapi';
import { describe, expect, it } from 'vitest';
import { cspHash } from '../src/domain/pages/html';
import { consentPage, errorPage, signInPage } from '../src/routes/oauth/oauth.templates';
import {
  confirmationCsp,
  confirmationErrorPage,
  confirmedPage,
  confirmPage,
} from '../src/routes/pages/confirmation.templates';
import { chooseLanguage, fromAcceptLanguage } from '../src/routes/pages/i18n';
import { en } from '../src/routes/pages/i18n/en';
import { hi } from '../src/routes/pages/i18n/hi';
import { runErasureJob } from './erasure-run';
import { credentialFrom, signAs } from './foreign-issuers';
import { type CertifyOptions, candidateWithCertificate, consent, DEMO_BRIEF, signup } from './harness';
import { as, BASE, call, expectProblem, jsonInit } from './helpers';
import { authorizationUrl, type Registered, register, SCOPE_READ } from './ob-client';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
let ipCounter = 0;
/** A fresh client address per call site, so the per-IP limit of one test does not touch another. */
const freshIp = () => `192.0.2.${++ipCounter}`;

/** A candidate with one certificate from a one-milestone brief, with the consents asked for. */
const certified = (name: string, options: CertifyOptions & { employerName?: string } = {}) =>
  candidateWithCertificate(name, { domain: 'pages-domain', ...options });

const embed = (query: string, headers: Record<string, string> = {}) =>
  call(`/embed/leaderboard${query}`, { headers: { 'CF-Connecting-IP': freshIp(), ...headers } });

const page = (certificateNo: string, headers: Record<string, string> = { accept: BROWSER }) =>
  call(`/verify/${certificateNo}`, { headers });

/** The text of each inline `<script>` and `<style>`, and whether the CSP allows it by hash. */
async function inlineAssetsAllowed(html: string, csp: string) {
  const blocks = [...html.matchAll(/<(script|style)>([\s\S]*?)<\/\1>/g)];
  expect(blocks.length).toBeGreaterThan(0);
  for (const [, tag, body] of blocks) {
    const directive = tag === 'script' ? 'script-src' : 'style-src';
    const sources = new RegExp(`${directive} ([^;]*)`).exec(csp)?.[1] ?? '';
    expect(sources.split(' '), `${tag} hash`).toContain(await cspHash(body!));
  }
}

function expectHtml(res: Response) {
  expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
}

describe('GET /embed/leaderboard', () => {
  it('is a small accessible table that any site may frame, and nothing else may load', async () => {
    await certified('Embed Asha', { domain: 'embed-domain' });
    const res = await embed('?domain=embed-domain');
    expect(res.status).toBe(200);
    expectHtml(res);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toMatch(/^default-src 'none'; /);
    expect(csp).toContain('frame-ancestors *');
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("form-action 'none'");
    expect(csp).not.toMatch(/unsafe|connect-src|img-src/);
    expect(res.headers.get('x-frame-options')).toBeNull();
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(res.headers.get('ratelimit-policy')).toBe('"ip";q=60;w=60');
    const html = await res.text();
    await inlineAssetsAllowed(html, csp);
    expect(html).toMatch(/^<!doctype html>\n<html lang="en" class="light">/);
    expect(html).toContain('<caption>Leaderboard: embed-domain</caption>');
    expect(html).toContain('<th scope="col">Candidate</th>');
    expect(html).toMatch(
      /<td class="alias"><a href="\/verify\/VP-[0-9A-Z-]{14}" target="_blank" rel="noopener">Embed Asha</,
    );
    expect(html).not.toMatch(/\bsrc=/); // no external requests
    expect([...html.matchAll(/\bhref="([^"]*)"/g)].map((m) => m[1])).toEqual([
      expect.stringMatching(/^\/verify\/VP-/),
    ]);
    expect(new TextEncoder().encode(html).length).toBeLessThan(6000);

    const dark = await (await embed('?domain=embed-domain&theme=dark')).text();
    expect(dark).toContain('<html lang="en" class="dark">');
  });

  it('is in Hindi by ?lang= (the loader’s data-lang) or the visitor’s Accept-Language, with its own ETag', async () => {
    await certified('Embed Hindi', { domain: 'embed-hindi' });
    const english = await embed('?domain=embed-hindi');
    const hindi = await embed('?domain=embed-hindi&lang=hi');
    expect(hindi.headers.get('content-language')).toBe('hi');
    expect(hindi.headers.get('vary')).toContain('Accept-Language');
    expect(hindi.headers.get('etag')).not.toBe(english.headers.get('etag'));
    const html = await hindi.text();
    expect(html).toContain('<html lang="hi" class="light">');
    expect(html).toContain('<caption>लीडरबोर्ड: embed-hindi</caption>');
    expect(html).toMatch(
      /<a href="\/verify\/VP-[0-9A-Z-]{14}\?lang=hi" target="_blank" rel="noopener">Embed Hindi</,
    );
    const browser = await (
      await embed('?domain=embed-hindi', { 'Accept-Language': 'hi-IN,hi;q=0.9' })
    ).text();
    expect(browser).toContain('<html lang="hi" class="light">');
    expect(await (await call('/embed/leaderboard.js')).text()).toContain(
      "['domain', 'limit', 'theme', 'lang']",
    );
  });

  it('honours leaderboard consent like the JSON route', async () => {
    const shown = await certified('Shown Person', { domain: 'consent-embed' });
    await certified('Never Consented', { domain: 'consent-embed', consents: ['ai_evaluation'] });
    const aliases = async () =>
      [
        ...(await (await embed('?domain=consent-embed')).text()).matchAll(
          /<td class="alias">(?:<a [^>]*>)?([^<]*)</g,
        ),
      ].map((m) => m[1]);
    expect(await aliases()).toEqual(['Shown Person']);
    await consent(shown.candidate, 'leaderboard', 'revoke');
    expect(await aliases()).toEqual([]);
    expect(await (await embed('?domain=consent-embed')).text()).toContain('No candidates to show yet.');
  });

  it('links a row to its certificate page (a new tab) only while its holder shows their own name; withdrawal, an alias and erasure take the link and the number away', async () => {
    const domain = 'link-embed';
    const named = await certified('Linked Lata', { domain });
    const hidden = await certified('Hidden Hari', { domain, consents: ['ai_evaluation', 'leaderboard'] });
    const aliased = await certified('Aliased Anu', { domain });
    expect(
      (await call('/api/me', jsonInit('PATCH', { publicAlias: 'Anu Codes' }, as(aliased.candidate)))).status,
    ).toBe(200);
    const link = `<a href="/verify/${named.certificateNo}" target="_blank" rel="noopener">Linked Lata<span class="vh"> (certificate ${named.certificateNo}, opens in a new tab)</span></a>`;
    const board = async () => {
      const res = await call(`/api/leaderboard?domain=${domain}`, {
        headers: { 'CF-Connecting-IP': freshIp() },
      });
      return (await res.json<{ entries: { alias: string; certificateNo?: string }[] }>()).entries;
    };
    const html = await (await embed(`?domain=${domain}`)).text();
    expect(html).toContain(link);
    expect(html).toContain('<td class="alias">Hidden Hari</td>');
    expect(html).toContain('<td class="alias">Anu Codes</td>');
    for (const other of [hidden, aliased]) expect(html).not.toContain(other.certificateNo);
    // The JSON board carries the same optional number, and only for that row.
    const entries = await board();
    expect(entries).toHaveLength(3);
    expect(entries.find((e) => e.alias === 'Linked Lata')?.certificateNo).toBe(named.certificateNo);
    expect(entries.filter((e) => 'certificateNo' in e).map((e) => e.alias)).toEqual(['Linked Lata']);

    await consent(named.candidate, 'public_verification', 'revoke');
    const withdrawn = await (await embed(`?domain=${domain}`)).text();
    expect(withdrawn).toContain('<td class="alias">Linked Lata</td>');
    expect(withdrawn).not.toContain(named.certificateNo);

    await consent(named.candidate, 'public_verification', 'grant');
    expect(await (await embed(`?domain=${domain}`)).text()).toContain(link);
    const erasure = await call('/api/dsr/erasure', { method: 'DELETE', headers: as(named.candidate) });
    expect(erasure.status).toBe(202);
    await runErasureJob((await erasure.json<{ requestId: string }>()).requestId);
    const erased = await (await embed(`?domain=${domain}`)).text();
    expect(erased).not.toContain('Linked Lata');
    expect(erased).not.toContain(named.certificateNo);
    expect(JSON.stringify(await board())).not.toContain(named.certificateNo);
  });

  it('escapes aliases: markup in a public alias is shown as text', async () => {
    const { candidate } = await certified('Plain Name', { domain: 'xss-embed' });
    const alias = '<script>alert(1)</script>';
    expect((await call('/api/me', jsonInit('PATCH', { publicAlias: alias }, as(candidate)))).status).toBe(
      200,
    );
    const html = await (await embed('?domain=xss-embed')).text();
    expect(html).toContain('<td class="alias">&lt;script&gt;alert(1)&lt;/script&gt;</td>');
    expect(html).not.toContain('<script>alert');
  });

  it('bounds limit like the JSON route: 1–100, default 10, else 400 (problem+json, or a page for browsers)', async () => {
    for (const bad of ['0', '101', 'abc', '2.5']) {
      const problem = await expectProblem(await embed(`?limit=${bad}`), 400, 'invalid-parameters');
      expect(problem.errors?.[0]?.pointer).toBe('#/query/limit');
    }
    await expectProblem(await embed('?theme=blue'), 400, 'invalid-parameters');
    const res = await embed('?limit=0&theme=dark', { accept: BROWSER });
    expect(res.status).toBe(400);
    expectHtml(res);
    expect(res.headers.get('vary')).toContain('Accept');
    // The error page stays framable, so a partner sees it inside their iframe.
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain('frame-ancestors *');
    expect(res.headers.get('x-frame-options')).toBeNull();
    const html = await res.text();
    await inlineAssetsAllowed(html, csp);
    expect(html).toContain('<html lang="en" class="dark">');
    expect(html).toContain('<code>#/query/limit</code>');
    expect((await embed('?limit=1')).status).toBe(200);
    expect((await embed('?limit=100')).status).toBe(200);
  });

  it('answers If-None-Match with a 304 that keeps the framing policy', async () => {
    const ip = freshIp();
    const first = await call('/embed/leaderboard?domain=etag-domain', {
      headers: { 'CF-Connecting-IP': ip },
    });
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/".*-html"$/);
    const again = await call('/embed/leaderboard?domain=etag-domain', {
      headers: { 'CF-Connecting-IP': ip, 'If-None-Match': etag },
    });
    expect(again.status).toBe(304);
    expect(again.headers.get('content-security-policy')).toContain('frame-ancestors *');
    expect(again.headers.get('x-frame-options')).toBeNull();
  });

  it('shares the per-IP limit of GET /api/leaderboard (60 a minute), with a framable 429 page', async () => {
    const ip = { 'CF-Connecting-IP': '198.51.100.77' };
    const burst = await Promise.all(
      Array.from({ length: 60 }, () => call('/api/leaderboard', { headers: ip })),
    );
    expect(burst.every((r) => r.status === 200)).toBe(true);
    await expectProblem(await call('/embed/leaderboard', { headers: ip }), 429, 'quota-exceeded');
    const res = await call('/embed/leaderboard', { headers: { ...ip, accept: BROWSER } });
    expect(res.status).toBe(429);
    expectHtml(res);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(res.headers.get('ratelimit-policy')).toBe('"ip";q=60;w=60');
    expect(res.headers.get('content-security-policy')).toContain('frame-ancestors *');
    expect(await res.text()).toContain('<h1>Too many requests</h1>');
  }, 30_000);
});

describe('GET /embed/leaderboard.js', () => {
  it('is a cross-origin script that inserts a titled, sandboxed iframe of the embed', async () => {
    const res = await call('/embed/leaderboard.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    const js = await res.text();
    expect(js).toContain("new URL('/embed/leaderboard', script.src)");
    // Scripts for the height message; new tabs (unsandboxed) for the certificate links.
    expect(js).toContain(
      "frame.setAttribute('sandbox', 'allow-scripts allow-popups allow-popups-to-escape-sandbox')",
    );
    expect(js).toContain('frame.title');
  });
});

/** The layout pages: one stylesheet and static scripts, nothing inline, never framed. */
function expectLayoutPage(res: Response, lang: 'en' | 'hi' = 'en') {
  expectHtml(res);
  const csp = res.headers.get('content-security-policy')!;
  expect(csp).toContain("style-src 'self'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain('unsafe');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('content-language')).toBe(lang);
  expect(res.headers.get('vary')).toContain('Accept-Language');
}

async function layoutHtml(res: Response, lang: 'en' | 'hi' = 'en') {
  expectLayoutPage(res, lang);
  const html = await res.text();
  expect(html).toContain(`<html lang="${lang}">`);
  expect(html).toContain('<link rel="stylesheet" href="/assets/site.css">');
  expect(html).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
  expect(html).toContain('<a class="skip-link" href="#main">');
  expect(html).not.toMatch(/<style>|<script>(?!<\/script>)/); // nothing inline: the CSP allows 'self' only
  expect(html).not.toMatch(/ style="/);
  return html;
}

/** The `data-tone` of the page's verdict, and where it starts (the state comes first). */
const toneOf = (html: string) => /class="verdict verdict--(\w+)"[^>]*data-tone="(\w+)"/.exec(html)?.[2];

describe('chooseLanguage', () => {
  const req = (url: string, acceptLanguage?: string) =>
    new Request(url, { headers: acceptLanguage ? { 'Accept-Language': acceptLanguage } : {} });
  it('takes ?lang= first, then Accept-Language by q-value, else English', () => {
    expect(chooseLanguage(req('https://x/verify'))).toBe('en');
    expect(chooseLanguage(req('https://x/verify', 'hi-IN,hi;q=0.9,en;q=0.8'))).toBe('hi');
    expect(chooseLanguage(req('https://x/verify', 'en-GB,en;q=0.9,hi;q=0.8'))).toBe('en');
    expect(chooseLanguage(req('https://x/verify', 'fr;q=1, hi;q=0.5, en;q=0.4'))).toBe('hi');
    expect(chooseLanguage(req('https://x/verify', 'hi;q=0, en;q=0.1'))).toBe('en');
    expect(chooseLanguage(req('https://x/verify', 'fr, de'))).toBe('en');
    expect(chooseLanguage(req('https://x/verify?lang=hi', 'en'))).toBe('hi');
    expect(chooseLanguage(req('https://x/verify?lang=en', 'hi'))).toBe('en');
    expect(chooseLanguage(req('https://x/verify?lang=xx', 'hi'))).toBe('hi');
    expect(fromAcceptLanguage('*')).toBe('en');
    expect(fromAcceptLanguage('hi;q=abc')).toBe('hi');
  });

  it('the Hindi catalogue has every key of the English one, translated', () => {
    const keys = (o: object, prefix = ''): string[] =>
      Object.entries(o).flatMap(([k, v]) =>
        v && typeof v === 'object' ? keys(v, `${prefix}${k}›`) : [`${prefix}${k}`],
      );
    expect(keys(hi).sort()).toEqual(keys(en).sort());
    // Most strings differ (names like "VC-JWT" or "PNG" may not).
    const same = keys(en).filter((k) => {
      const get = (o: object) => k.split('›').reduce<unknown>((a, p) => (a as Record<string, unknown>)[p], o);
      return typeof get(en) === 'string' && get(en) === get(hi);
    });
    expect(same).toEqual([]);
  });
});

describe('GET /verify/{certificateNo}', () => {
  it('a valid certificate: the verdict first (green, how the issuer was verified), the achievement as the headline, share and the credential folded away', async () => {
    const { certificateNo } = await certified('Verified Person', { employerName: 'Acme Tools' });
    const res = await page(certificateNo);
    expect(res.status).toBe(200);
    const html = await layoutHtml(res);
    expect(toneOf(html)).toBe('verified');
    expect(html).toContain('data-status="active"');
    expect(html).toContain('Valid certificate');
    expect(html).toContain('Issued by Acme Tools, an organisation the platform has verified');
    expect(html.indexOf('id="verdict"')).toBeLessThan(html.indexOf('<h1'));
    expect(html).toContain(`<h1 class="certificate__title" id="title">${DEMO_BRIEF.title}</h1>`);
    expect(html).toMatch(/<dd class="summary-list__value" id="holder">Verified Person<\/dd>/);
    expect(html).toMatch(
      /id="issuer">Acme Tools · <a href="http:\/\/localhost:8787\/ob\/issuers\/[0-9a-f-]{36}">issuer profile<\/a>/,
    );
    expect(html).toMatch(/id="issued"><time datetime="[^"]+">\d{1,2} \w+ \d{4}<\/time>/);
    expect(html).toContain('<img src="http://localhost:8787/ob/achievements/');
    expect(html).toContain('id="criteria"');
    expect(html).toContain('<span title="pages-domain">Pages domain</span>'); // the field in words
    expect(html).toContain('<svg class="share__qr"'); // the QR code
    expect(html).toContain(`value="http://localhost:8787/verify/${certificateNo}"`);
    expect(html).toContain('id="linkedin"');
    expect(html).toContain('id="wallet-slot"');
    expect(html).toContain('<details class="details" id="technical">');
    expect(html).toContain('<script src="/assets/verify.js" defer></script>');
    expect(html).toContain('data-jwks="/.well-known/jwks.json"');
    const api = await (await call(`/api/verify/${certificateNo}`)).json<{ credential: { jwt: string } }>();
    expect(html).toContain(`<code class="jwt" id="credential-jwt">${api.credential.jwt}</code>`);
    expect(html).toContain('id="credential-json"');

    // Open Graph and Twitter card, with the badge as image.
    expect(html).toContain(
      `<meta property="og:url" content="http://localhost:8787/verify/${certificateNo}">`,
    );
    expect(html).toMatch(
      /<meta property="og:image" content="http:\/\/localhost:8787\/ob\/achievements\/[0-9a-f-]+\/image\.png">/,
    );
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image">');
    expect(html).toContain(`<meta property="og:title" content="${DEMO_BRIEF.title} · ${certificateNo}">`);

    // Lower case and no hyphens are read as the same number.
    expect((await page(certificateNo.toLowerCase().replaceAll('-', ''))).status).toBe(200);
    const again = await page(certificateNo, { accept: BROWSER, 'If-None-Match': res.headers.get('etag')! });
    expect(again.status).toBe(304);
    expect(again.headers.get('content-security-policy')).toBe(res.headers.get('content-security-policy'));
  });

  it('in Hindi by Accept-Language or ?lang=, with its own ETag', async () => {
    const { certificateNo } = await certified('Hindi Person', { employerName: 'Acme Hindi' });
    const en = await page(certificateNo);
    const hiRes = await page(certificateNo, {
      accept: BROWSER,
      'Accept-Language': 'hi-IN,hi;q=0.9,en;q=0.5',
    });
    const html = await layoutHtml(hiRes, 'hi');
    expect(html).toContain('मान्य प्रमाणपत्र');
    expect(html).toContain('हस्ताक्षरित');
    expect(hiRes.headers.get('etag')).not.toBe(en.headers.get('etag'));
    const forced = await call(`/verify/${certificateNo}?lang=en`, {
      headers: { accept: BROWSER, 'Accept-Language': 'hi' },
    });
    expect(await layoutHtml(forced, 'en')).toContain('Valid certificate');
    // The language switch links the other language.
    expect(html).toContain(`href="/verify/${certificateNo}?lang=en"`);
  });

  it('a revoked certificate: red, the state first (still 200), the reason not public, nothing to carry', async () => {
    const { certificateNo, employer } = await certified('Revoked Person');
    await page(certificateNo); // warm the cache: revocation must still show at once
    const revoke = await call(
      `/api/certificates/${certificateNo}/revoke`,
      jsonInit('POST', { reason: 'Plagiarised work' }, as(employer)),
    );
    expect(revoke.status).toBe(200);
    const res = await page(certificateNo);
    expect(res.status).toBe(200);
    const html = await layoutHtml(res);
    expect(toneOf(html)).toBe('invalid');
    expect(html).toContain('data-status="revoked"');
    expect(html).toMatch(/<span>Revoked<\/span>/);
    expect(html).toContain('The issuer revoked this certificate on');
    expect(html.indexOf('id="verdict"')).toBeLessThan(html.indexOf('<h1'));
    expect(html).toContain('id="revoked"');
    expect(html).not.toContain('Plagiarised'); // the reason is not public
    expect(html).not.toContain('id="linkedin"');
    expect(html).toContain('<meta property="og:description" content="This certificate is revoked.">');
  });

  it('shows the holder’s name only while public_verification consent is active, and tells a holder how to show it', async () => {
    const { certificateNo, candidate } = await certified('Private Person');
    expect(await (await page(certificateNo)).text()).toMatch(/id="holder">Private Person</);
    await consent(candidate, 'public_verification', 'revoke');
    const html = await (await page(certificateNo)).text();
    expect(html).not.toMatch(/id="holder">Private Person/);
    expect(html).toContain('The holder has not chosen to show their name on this page.');
    expect(html).toContain('<a href="/me?lang=en#public-name" id="holder-action">');
    expect(html).not.toContain('id="holder-control"');
  });

  it('the holder, signed in, sees why their name is hidden and a button that shows it and comes back; nobody else gets the button', async () => {
    const { certificateNo, candidate } = await certified('Shy Holder');
    await consent(candidate, 'public_verification', 'revoke');
    const signedOut = await page(certificateNo);
    const mine = await page(certificateNo, { accept: BROWSER, cookie: candidate.cookie });
    expect(mine.headers.get('cache-control')).toBe('private, no-cache');
    expect(mine.headers.get('vary')).toContain('Cookie');
    expect(mine.headers.get('etag')).not.toBe(signedOut.headers.get('etag'));
    const html = await mine.text();
    expect(html).toContain('You have not chosen to show your name on this certificate');
    expect(html).toContain(
      '<form method="post" action="/me/consents?lang=en" class="holder-control" id="holder-control">',
    );
    expect(html).toContain(`<input type="hidden" name="return" value="/verify/${certificateNo}">`);
    expect(html).toContain('id="nav-account">Your certificates</a>');
    const stranger = await signup('candidate', 'Nosy Stranger');
    const theirs = await (await page(certificateNo, { accept: BROWSER, cookie: stranger.cookie })).text();
    expect(theirs).toContain('The holder has not chosen to show their name on this page.');
    expect(theirs).not.toContain('id="holder-control"');
    expect(theirs).not.toContain('id="holder-action"');

    // The button, in Hindi: the name is shown, and the browser comes back to the page in Hindi.
    const pressed = await call('/me/consents?lang=hi', {
      method: 'POST',
      redirect: 'manual',
      headers: { accept: BROWSER, 'content-type': 'application/x-www-form-urlencoded', ...as(candidate) },
      body: new URLSearchParams({
        purpose: 'public_verification',
        action: 'grant',
        return: `/verify/${certificateNo}`,
      }),
    });
    expect(pressed.status).toBe(303);
    expect(pressed.headers.get('location')).toBe(`/verify/${certificateNo}?lang=hi#holder`);
    expect(await (await page(certificateNo)).text()).toMatch(/id="holder">Shy Holder</);
    // A return anywhere else is not a form this route takes.
    const elsewhere = await call('/me/consents', {
      method: 'POST',
      redirect: 'manual',
      headers: { accept: BROWSER, 'content-type': 'application/x-www-form-urlencoded', ...as(candidate) },
      body: new URLSearchParams({
        purpose: 'public_verification',
        action: 'grant',
        return: 'https://evil.example/',
      }),
    });
    expect(elsewhere.status).toBeGreaterThanOrEqual(400);
    expect(elsewhere.headers.get('location')).toBeNull();
  });

  it('escapes the brief title and employer name in text and attributes', async () => {
    const title = '<script>alert("brief")</script> & "friends"';
    const { certificateNo } = await certified('Escaped Person', { title, employerName: 'Evil "Corp" <b>' });
    const html = await (await page(certificateNo)).text();
    const escapedTitle = '&lt;script&gt;alert(&quot;brief&quot;)&lt;/script&gt; &amp; &quot;friends&quot;';
    expect(html).toContain(`id="title">${escapedTitle}</h1>`);
    expect(html).toContain(`data-title="${escapedTitle}"`);
    expect(html).toContain(`<meta property="og:title" content="${escapedTitle} · ${certificateNo}">`);
    expect(html).toContain('data-employer="Evil &quot;Corp&quot; &lt;b&gt;"');
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<b>');
  });

  it('answers an unknown number with a 404 page and a mistyped one with a 400 page', async () => {
    const { certificateNo } = await certified('Typo Person');
    const unknown = await page('VP-7K3M-Q9TD-2XWV');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('vary')).toContain('Accept');
    const unknownHtml = await layoutHtml(unknown);
    expect(unknownHtml).toContain('<h1>No certificate has this number</h1>');
    expect(unknownHtml).toContain('<form method="get" action="/verify" id="lookup">');

    const chars = certificateNo.split('');
    chars[4] = chars[4] === 'A' ? 'B' : 'A';
    const typo = await page(chars.join(''));
    expect(typo.status).toBe(400);
    expect(await layoutHtml(typo)).toContain('<h1>This certificate number has a typo</h1>');
    const notANumber = await page('%3Cscript%3Ehello');
    expect(notANumber.status).toBe(400);
    const notHtml = await notANumber.text();
    expect(notHtml).toContain('<h1>This is not a certificate number</h1>');
    expect(notHtml).toContain('<code>&lt;script&gt;hello</code>');
    const hindi = await page('VP-7K3M-Q9TD-2XWV', { accept: BROWSER, 'Accept-Language': 'hi' });
    expect(await layoutHtml(hindi, 'hi')).toContain('इस नंबर का कोई प्रमाणपत्र नहीं है');

    // Clients that do not ask for HTML get the API's problem+json.
    await expectProblem(await page('VP-7K3M-Q9TD-2XWV', {}), 404, 'not-found');
    const problem = await expectProblem(await page(chars.join(''), {}), 400, 'invalid-parameters');
    expect(problem.errors?.[0]).toEqual({
      pointer: '#/path/certificateNo',
      detail: 'Check character mismatch',
    });
    await expectProblem(await page('VP-7K3M-Q9TD-2XWV', { accept: 'application/json' }), 404, 'not-found');
  });
});

/** base58btc (the did:key encoding). */
function base58(bytes: Uint8Array): string {
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  let n = 0n;
  for (const b of bytes) n = n * 256n + BigInt(b);
  let out = '';
  while (n > 0n) {
    out = alphabet[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = `1${out}`;
  }
  return out;
}

/** A credential signed by a fresh did:key that calls itself `name`: genuine, and nobody vetted it. */
async function selfSigned(name: string, extra: Record<string, unknown> = {}) {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const raw = base64url.decode((await exportJWK(publicKey)).x!);
  const did = `did:key:z${base58(new Uint8Array([0xed, 0x01, ...raw]))}`;
  const credential = credentialFrom({ id: did, name }, extra);
  const jwt = await signAs(
    { alg: 'EdDSA', kid: `${did}#${did.slice(8)}`, privateKey: privateKey as CryptoKey },
    credential,
  );
  return { did, jwt };
}

/** Submits the /verify form as a browser does (multipart/form-data). */
function submit(fields: Record<string, string | Blob>, headers: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return call('/verify', {
    method: 'POST',
    body: form,
    headers: { accept: BROWSER, origin: 'http://localhost:8787', 'CF-Connecting-IP': freshIp(), ...headers },
  });
}

describe('GET and POST /verify', () => {
  it('GET is a form that posts to the server, and a look-up by number that answers 303; it sets nothing', async () => {
    const res = await call('/verify', { headers: { accept: BROWSER } });
    expect(res.status).toBe(200);
    const html = await layoutHtml(res);
    expect(html).toContain(
      '<form method="post" action="/verify" enctype="multipart/form-data" id="verifier" novalidate>',
    );
    expect(html).toContain('name="badge" type="file"');
    expect(html).toContain('name="credential"');
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const lookup = await call('/verify?no=VP-7K3M-Q9TD-2XWV', {
      headers: { accept: BROWSER },
      redirect: 'manual',
    });
    expect(lookup.status).toBe(303);
    expect(lookup.headers.get('location')).toBe('/verify/VP-7K3M-Q9TD-2XWV');
    const typo = await call('/verify?no=VP-7K3M-Q9TD-2XWA', {
      headers: { accept: BROWSER },
      redirect: 'manual',
    });
    expect(typo.status).toBe(400);
    expect(await layoutHtml(typo)).toContain('<h1>This certificate number has a typo</h1>');
    await expectProblem(await call('/verify?no=hello'), 400, 'invalid-parameters');
  });

  it('a genuine signature by an issuer nobody here vetted is amber: the DID shown, its name marked as its own claim', async () => {
    const { did, jwt } = await selfSigned('Indian Institute of Technology Bombay');
    const res = await submit({ credential: jwt });
    expect(res.status).toBe(200);
    const html = await layoutHtml(res);
    expect(toneOf(html)).toBe('unvetted');
    expect(html).toContain('Signature valid, issuer identity not confirmed');
    expect(html).toContain(`<code>${did}</code>`);
    expect(html).toContain('<span class="claim">“Indian Institute of Technology Bombay”</span>');
    expect(html).toContain('(its own claim, not confirmed)');
    expect(html).not.toContain('Valid credential from a verified issuer');
    // No credentialStatus: said so, not "not revoked".
    expect(html).toContain('The issuer offers no revocation');
    expect(html).not.toContain('Not revoked');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('an altered credential is red, the state first, and its forged claims are not restated', async () => {
    const { jwt } = await selfSigned('Honest College');
    const [header, payload, sig] = jwt.split('.');
    const claims = JSON.parse(atob(payload!.replace(/-/g, '+').replace(/_/g, '/')));
    claims.credentialSubject.achievement.name = 'Forged Doctorate';
    const forgedPayload = btoa(JSON.stringify(claims))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
    const html = await (await submit({ credential: `${header}.${forgedPayload}.${sig}` })).text();
    expect(toneOf(html)).toBe('invalid');
    expect(html).toContain('Not valid: altered or not genuine');
    expect(html).not.toContain('Forged Doctorate');
    expect(html).not.toContain('Honest College');
    expect(html.indexOf('id="verdict"')).toBeLessThan(html.indexOf('id="checks"'));
  });

  it('a certificate of this platform, as its PNG badge: green, with how the issuer was verified', async () => {
    const { certificateNo } = await certified('Badge Person', { employerName: 'Badge Corp' });
    const png = await (await call(`/api/certificates/${certificateNo}/badge.png`)).arrayBuffer();
    const res = await submit({ badge: new File([png], 'badge.png', { type: 'image/png' }) });
    const html = await layoutHtml(res);
    expect(toneOf(html)).toBe('verified');
    expect(html).toContain('Valid credential from a verified issuer');
    expect(html).toContain('id="issuer-how"');
    expect(html).toContain('Badge Corp');
  });

  it('nothing sent is a 400 page with the form and an error summary; Hindi too', async () => {
    const res = await submit({ credential: '   ' });
    expect(res.status).toBe(400);
    const html = await layoutHtml(res);
    expect(html).toContain('<div class="error-summary" role="alert"');
    expect(html).toContain(
      '<a href="#badge">Choose a badge image, paste a credential or give a link to the badge</a>',
    );
    expect(html).toContain('id="verifier"');
    const hindi = await submit({ credential: '' }, { 'Accept-Language': 'hi' });
    expect(await layoutHtml(hindi, 'hi')).toContain('बैज चित्र चुनें, क्रेडेंशियल चिपकाएँ या बैज का लिंक दें');
  });
});

describe('GET /', () => {
  it('the landing page says what this is and offers the look-up, docs and sign-in, in both languages', async () => {
    const res = await call('/', { headers: { accept: BROWSER } });
    expect(res.status).toBe(200);
    const html = await layoutHtml(res);
    expect(html).toContain('<form method="get" action="/verify" id="home-lookup">');
    expect(html).toContain('href="/docs"');
    expect(html).toContain('href="/me?lang=en"');
    expect(res.headers.get('set-cookie')).toBeNull();
    const hindi = await call('/?lang=hi', { headers: { accept: BROWSER } });
    expect(await layoutHtml(hindi, 'hi')).toContain('प्रमाणपत्र जाँचें');
  });
});

describe('the layout knows who is looking', () => {
  it('header and footer say “Sign in” signed out and “Your certificates” signed in, on every page, in both languages; signed-in pages are private', async () => {
    const person = await signup('candidate', 'Footer Reader');
    const { certificateNo } = await certified('Footer Holder');
    const accounts = (html: string) => [
      /id="nav-account">([^<]*)</.exec(html)?.[1],
      /id="footer-account">([^<]*)</.exec(html)?.[1],
    ];
    const paths = ['/', '/verify', `/verify/${certificateNo}`, '/verify/VP-0000-0000-0000', '/me'];
    for (const path of paths) {
      const out = await call(path, { headers: { accept: BROWSER } });
      expect(accounts(await out.text()), path).toEqual(['Sign in', 'Sign in']);
      const signedIn = await call(path, { headers: { accept: BROWSER, cookie: person.cookie } });
      const html = await signedIn.text();
      expect(accounts(html), path).toEqual(['Your certificates', 'Your certificates']);
      expect(signedIn.headers.get('cache-control'), path).toMatch(/^(private, no-cache|no-store)$/);
      // The links keep the page's language.
      expect(html, path).toContain('<a href="/me?lang=en" id="footer-account">');
      const hindi = await call(path, {
        headers: { accept: BROWSER, cookie: person.cookie, 'Accept-Language': 'hi' },
      });
      expect(accounts(await hindi.text()), path).toEqual(['आपके प्रमाणपत्र', 'आपके प्रमाणपत्र']);
    }
    // A cookie that is no session is a signed-out visitor, and the page stays shareable.
    const stale = await call('/', { headers: { accept: BROWSER, cookie: 'session=not-a-session' } });
    expect(accounts(await stale.text())).toEqual(['Sign in', 'Sign in']);
    expect(stale.headers.get('cache-control')).toBe('public, max-age=300');
    // A form post of /verify answers with the same header.
    const posted = await submit({ credential: 'eyJ.not.valid' }, { cookie: person.cookie });
    expect(accounts(await posted.text())).toEqual(['Your certificates', 'Your certificates']);
  });
});

describe('OAuth pages (templates)', () => {
  it('sign-in names the platform and the app; consent makes Allow the primary action and offers “not you? sign out”; errors say what to do next', () => {
    const signIn = signInPage('Wallet <App>');
    expect(signIn).toContain('<h1>Sign in to let Wallet &lt;App&gt; use your account</h1>');
    expect(signIn).toContain('<span>Verification Platform</span>');
    expect(signIn).toContain('<script src="/assets/oauth.js" defer></script>');
    expect(signIn).not.toMatch(/<script>|<style>/);
    const consent = consentPage(
      {
        clientName: 'Wallet App',
        clientUri: 'https://wallet.example',
        redirectHost: 'wallet.example',
        redirectIsLoopback: false,
        scope: ['offline_access'],
      } as unknown as Parameters<typeof consentPage>[0],
      null,
      'h1',
      'holder@example.test',
    );
    expect(consent).toContain(
      '<button type="submit" class="button" id="allow" name="decision" value="approve">Allow access</button>',
    );
    expect(consent).toContain(
      '<button type="submit" class="button button--secondary" id="deny" name="decision" value="deny">Deny</button>',
    );
    expect(consent).toContain('Not you?');
    expect(consent).toContain('id="sign-out"');
    expect(consent).toContain('href="/me?lang=en#applications"');
    expect(consent).toContain('<input type="hidden" name="lang" value="en">');
    expect(consent).toContain('id="nav-account">Your certificates<');
    const error = errorPage({ kind: 'request', code: 'invalid_request', detail: 'Invalid redirect URI' });
    expect(error).toContain('What you can do');
    expect(error).toContain(`<p id="oauth-error">${en.oauth.errors.request}</p>`);
    expect(error).toContain(
      '<code lang="en" id="oauth-error-detail">Invalid redirect URI (invalid_request)</code>',
    );
    const hindi = signInPage('Wallet App', 'hi');
    expect(hindi).toContain('<html lang="hi">');
    expect(hindi).toContain(hi.oauth.signInHeading('Wallet App'));
  });
});

describe('OAuth pages (served)', () => {
  const url = async (r: Registered, extra: Record<string, string> = {}) => {
    const u = authorizationUrl(r, {
      state: 's',
      challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
      method: 'S256',
    });
    for (const [k, v] of Object.entries(extra)) u.searchParams.set(k, v);
    return `${u.pathname}${u.search}`;
  };

  it('are in Hindi by ?lang= or Accept-Language (sign-in, consent, errors), with <html lang> and the language kept through the form', async () => {
    const r = await register();
    const holder = await signup('candidate', 'OAuth Hindi Holder');
    // Signed out: the sign-in page, by ?lang= and by Accept-Language.
    for (const [path, headers] of [
      [await url(r, { lang: 'hi' }), {}],
      [await url(r), { 'Accept-Language': 'hi-IN,hi;q=0.9' }],
    ] as const) {
      const res = await call(path, { headers: { accept: BROWSER, ...headers } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-language')).toBe('hi');
      const html = await res.text();
      expect(html).toContain('<html lang="hi">');
      expect(html).toContain(hi.oauth.signInTitle);
    }
    // Signed in: the consent page, whose form sends the language back.
    const consentRes = await call(await url(r, { lang: 'hi' }), {
      headers: { accept: BROWSER, cookie: holder.cookie },
    });
    const consent = await consentRes.text();
    expect(consent).toContain('<html lang="hi">');
    expect(consent).toContain(hi.oauth.allow);
    expect(consent).toContain('<input type="hidden" name="lang" value="hi">');
    expect(consent).toContain(hi.scopes[SCOPE_READ]!);
    // Errors: a human message in the page's language, the OAuth detail kept for the app's makers.
    const noPkce = authorizationUrl(r, { state: 'x' });
    noPkce.searchParams.set('lang', 'hi');
    const error = await call(`${noPkce.pathname}${noPkce.search}`, { headers: { accept: BROWSER } });
    expect(error.status).toBe(400);
    const errorHtml = await error.text();
    expect(errorHtml).toContain('<html lang="hi">');
    expect(errorHtml).toContain(hi.oauth.errors.pkce);
    expect(errorHtml).toContain('(invalid_request)</code>');
    expect(errorHtml).toContain(hi.oauth.errorNext);
    // A decision posted signed out: its refusal in the form's language, with the way to sign in.
    const decided = await call('/oauth/authorize', {
      method: 'POST',
      redirect: 'manual',
      headers: { accept: BROWSER, origin: BASE, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ handle: 'h', decision: 'approve', lang: 'hi' }),
    });
    expect(decided.status).toBe(401);
    const refused = await decided.text();
    expect(refused).toContain('<html lang="hi">');
    expect(refused).toContain(hi.oauth.errors.signInFirst);
    expect(refused).toContain('<a href="/me?lang=hi">');
  });
});

describe('confirmation link pages (templates)', () => {
  it('the GET page changes nothing: its one form POSTs the token; the confirmed page is a panel', async () => {
    const page = confirmPage('tok<en>', 'a@example.test', 'signup');
    expect(page).toContain('<form method="post" action="/api/auth/email-confirmation?lang=en">');
    expect(page).toContain('<input type="hidden" name="token" value="tok&lt;en&gt;">');
    expect(page).toContain(
      '<button type="submit" class="button" id="confirm">Confirm a@example.test</button>',
    );
    expect(page).toContain('<link rel="stylesheet" href="/assets/site.css">');
    expect(confirmedPage('a@example.test', 'change')).toContain('<div class="panel" id="confirmed">');
    expect(confirmationErrorPage('This link cannot be used', 'Ask for a new one.')).toContain(
      'Ask for a new one.',
    );
    expect(await confirmationCsp()).toContain("form-action 'self'");
    expect(confirmPage('t', 'a@example.test', 'signup', 'hi')).toContain('<html lang="hi">');
  });
});

describe('links to the pages', () => {
  it('the OpenAPI description behind /docs links both pages', async () => {
    const yaml = new TextDecoder().decode(await (await call('/openapi.yaml')).arrayBuffer());
    expect(yaml).toContain('(/verify/VP-DEM0-CERT-1FY3)');
    expect(yaml).toContain('(/embed/leaderboard)');
  });
});
