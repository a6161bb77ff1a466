import { describe, expect, it } from 'vitest';
import { cspHash } from '../src/domain/pages/html';
import { type CertifyOptions, candidateWithCertificate, consent, DEMO_BRIEF } from './harness';
import { as, call, expectProblem, jsonInit } from './helpers';

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
    expect(html).toContain('<td class="alias">Embed Asha</td>');
    expect(html).not.toMatch(/\b(src|href)=/); // no external requests, no links
    expect(new TextEncoder().encode(html).length).toBeLessThan(6000);

    const dark = await (await embed('?domain=embed-domain&theme=dark')).text();
    expect(dark).toContain('<html lang="en" class="dark">');
  });

  it('honours leaderboard consent like the JSON route', async () => {
    const shown = await certified('Shown Person', { domain: 'consent-embed' });
    await certified('Never Consented', { domain: 'consent-embed', consents: ['ai_evaluation'] });
    const aliases = async () =>
      [...(await (await embed('?domain=consent-embed')).text()).matchAll(/<td class="alias">([^<]*)</g)].map(
        (m) => m[1],
      );
    expect(await aliases()).toEqual(['Shown Person']);
    await consent(shown.candidate, 'leaderboard', 'revoke');
    expect(await aliases()).toEqual([]);
    expect(await (await embed('?domain=consent-embed')).text()).toContain('No candidates to show yet.');
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
    expect(js).toContain("frame.setAttribute('sandbox', 'allow-scripts')");
    expect(js).toContain('frame.title');
  });
});

describe('GET /verify/{certificateNo}', () => {
  it('shows a valid certificate with its credential, under a CSP that allows its own script and the JWKS only', async () => {
    const { certificateNo } = await certified('Verified Person', { employerName: 'Acme Tools' });
    const res = await page(certificateNo);
    expect(res.status).toBe(200);
    expectHtml(res);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toMatch(/script-src 'sha256-[^']+'; connect-src 'self'; frame-ancestors 'none'/);
    expect(csp).not.toContain('unsafe');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const html = await res.text();
    await inlineAssetsAllowed(html, csp);
    expect(html).toContain('<html lang="en">');
    expect(html).toContain(`<h1>Certificate ${certificateNo}</h1>`);
    expect(html).toContain('<strong>Valid certificate</strong>');
    expect(html).toContain('<dd id="holder">Verified Person</dd>');
    expect(html).toContain(`<dd>${DEMO_BRIEF.title}</dd>`);
    expect(html).toContain('<dd>Acme Tools</dd>');
    expect(html).toContain('data-jwks="/.well-known/jwks.json"');
    expect(html).toContain('<svg xmlns="http://www.w3.org/2000/svg"'); // the QR code
    expect(html).toContain(`value="http://localhost:8787/verify/${certificateNo}"`);
    const api = await (await call(`/api/verify/${certificateNo}`)).json<{ credential: { jwt: string } }>();
    expect(html).toContain(`<code class="jwt" id="credential-jwt">${api.credential.jwt}</code>`);

    // Lower case and no hyphens are read as the same number.
    expect((await page(certificateNo.toLowerCase().replaceAll('-', ''))).status).toBe(200);
    const again = await page(certificateNo, { 'If-None-Match': res.headers.get('etag')! });
    expect(again.status).toBe(304);
    expect(again.headers.get('content-security-policy')).toBe(csp);
  });

  it('shows a revoked certificate as revoked (still 200)', async () => {
    const { certificateNo, employer } = await certified('Revoked Person');
    await page(certificateNo); // warm the cache: revocation must still show at once
    const revoke = await call(
      `/api/certificates/${certificateNo}/revoke`,
      jsonInit('POST', { reason: 'Plagiarised work' }, as(employer)),
    );
    expect(revoke.status).toBe(200);
    const res = await page(certificateNo);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<strong>Revoked certificate</strong>');
    expect(html).toContain('<dt>Revoked</dt>');
    expect(html).not.toContain('Plagiarised'); // the reason is not public
  });

  it('shows the holder’s name only while public_verification consent is active', async () => {
    const { certificateNo, candidate } = await certified('Private Person');
    expect(await (await page(certificateNo)).text()).toContain('<dd id="holder">Private Person</dd>');
    await consent(candidate, 'public_verification', 'revoke');
    const html = await (await page(certificateNo)).text();
    expect(html).not.toContain('<dd id="holder">Private Person</dd>');
    expect(html).toContain('the holder has not agreed to show their name publicly');
  });

  it('escapes the brief title and employer name in text and attributes', async () => {
    const title = '<script>alert("brief")</script> & "friends"';
    const { certificateNo } = await certified('Escaped Person', { title, employerName: 'Evil "Corp" <b>' });
    const html = await (await page(certificateNo)).text();
    const escapedTitle = '&lt;script&gt;alert(&quot;brief&quot;)&lt;/script&gt; &amp; &quot;friends&quot;';
    expect(html).toContain(`<dd>${escapedTitle}</dd>`);
    expect(html).toContain(`data-title="${escapedTitle}"`);
    expect(html).toContain('data-employer="Evil &quot;Corp&quot; &lt;b&gt;"');
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<b>');
  });

  it('answers an unknown number with a 404 page and a mistyped one with a 400 page', async () => {
    const { certificateNo } = await certified('Typo Person');
    const unknown = await page('VP-7K3M-Q9TD-2XWV');
    expect(unknown.status).toBe(404);
    expectHtml(unknown);
    expect(unknown.headers.get('vary')).toContain('Accept');
    const unknownHtml = await unknown.text();
    await inlineAssetsAllowed(unknownHtml, unknown.headers.get('content-security-policy')!);
    expect(unknownHtml).toContain('<h1>No certificate has this number</h1>');
    expect(unknownHtml).toContain('<form id="lookup" hidden>');

    const chars = certificateNo.split('');
    chars[4] = chars[4] === 'A' ? 'B' : 'A';
    const typo = await page(chars.join(''));
    expect(typo.status).toBe(400);
    expectHtml(typo);
    expect(await typo.text()).toContain('<h1>This certificate number has a typo</h1>');
    const notANumber = await page('%3Cscript%3Ehello');
    expect(notANumber.status).toBe(400);
    const notHtml = await notANumber.text();
    expect(notHtml).toContain('<h1>This is not a certificate number</h1>');
    expect(notHtml).toContain('<code>&lt;script&gt;hello</code>');

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

describe('links to the pages', () => {
  it('the OpenAPI description behind /docs links both pages', async () => {
    const yaml = new TextDecoder().decode(await (await call('/openapi.yaml')).arrayBuffer());
    expect(yaml).toContain('(/verify/VP-DEM0-CERT-1FY3)');
    expect(yaml).toContain('(/embed/leaderboard)');
  });
});
