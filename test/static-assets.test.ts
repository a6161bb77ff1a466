/**
 * Files a browser fetches are Workers Static Assets (wrangler.toml `[assets]`, issue 54): served
 * from public/ without running the Worker, with the headers in public/_headers. The test pool's
 * SELF is the Worker alone (the pool does not put the assets' router in front of it), so the
 * files are fetched here through the ASSETS binding, which is the same asset server; that the
 * router answers them before the Worker under `wrangler dev` is checked from outside by
 * scripts/bundle-budget.mjs --serve (docs/performance.md).
 */
import { env, SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { BASE, call } from './helpers';

/** A static file, from the asset server the deployed Worker's router uses. */
const asset = (path: string) => env.ASSETS.fetch(new URL(path, 'https://assets.local'));
/** A request to the Worker itself. */
const get = (path: string, init?: RequestInit) => SELF.fetch(new URL(path, BASE), init);

/** The headers every static file carries (public/_headers), the same as the Worker's own. */
function expectStaticHeaders(res: Response) {
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  expect(res.headers.get('strict-transport-security')).toBe('max-age=63072000; includeSubDomains');
  expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('content-security-policy')).toBe(
    "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  );
}

describe('static assets', () => {
  it("serves the API reference's script, cached for a year (its URL changes with its hash)", async () => {
    const res = await asset('/docs/scalar.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expectStaticHeaders(res);
    expect(await res.text()).toContain('window.Scalar={createApiReference');
  });

  it("the Worker's own /docs/scalar.js (where the Worker runs first) is the same file", async () => {
    const [fromWorker, fromAssets] = await Promise.all([get('/docs/scalar.js'), asset('/docs/scalar.js')]);
    expect(fromWorker.status).toBe(200);
    expect(fromWorker.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await fromWorker.text()).toBe(await fromAssets.text());
  });

  it("the /docs page names the script the assets serve, by that file's integrity hash", async () => {
    const page = await call('/docs');
    const integrity = /integrity="(sha384-[^"]+)"/.exec(await page.text())?.[1];
    const bytes = await (await asset('/docs/scalar.js')).arrayBuffer();
    const digest = await crypto.subtle.digest('SHA-384', bytes);
    expect(integrity).toBe(`sha384-${btoa(String.fromCharCode(...new Uint8Array(digest)))}`);
  });

  it('serves the favicon, cached five minutes, with the security headers', async () => {
    const res = await asset('/favicon.ico');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expectStaticHeaders(res);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 4)]).toEqual([0, 0, 1, 0]); // an ICO header
  });

  it('does not serve public/_headers itself, nor guess x.html for /x', async () => {
    expect((await asset('/_headers')).status).toBe(404);
    expect((await asset('/favicon')).status).toBe(404);
  });
});

describe('the changelog (/changelog)', () => {
  it('is Markdown for a client that does not ask for HTML, as before', async () => {
    for (const accept of [undefined, '*/*', 'text/markdown', 'text/html;q=0, */*']) {
      const res = await call('/changelog', accept ? { headers: { accept } } : {});
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
      expect(res.headers.get('vary')).toContain('Accept');
      const text = await res.text();
      expect(text).toContain('# Changelog');
      expect(text).toContain('## [Unreleased]');
    }
  });

  it('is a page with a table of contents by version for a browser, under a CSP that allows only its stylesheet', async () => {
    const res = await call('/changelog', {
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'self'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    );
    const html = await res.text();
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<link rel="stylesheet" href="/assets/site.css">');
    expect(html).not.toMatch(/<script/i);
    // Every version and section heading has an anchor the table of contents links to.
    const toc = /<nav[^>]*class="toc">([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? '';
    expect(toc).toContain('<a href="#unreleased">[Unreleased]</a>');
    const anchors = [...toc.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]);
    expect(anchors.length).toBeGreaterThan(10);
    for (const id of anchors) expect(html).toContain(`id="${id}"`);
    expect(new Set(anchors).size).toBe(anchors.length);
    // Markdown rendered: headings, lists, code spans.
    expect(html).toContain('<h1 id="changelog">Changelog</h1>');
    expect(html).toMatch(/<li>[\s\S]*<code>\/api\/v1\/<\/code>/);
  });

  it('the static files behind it: /changelog.html and /changelog.md', async () => {
    const page = await asset('/changelog.html');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("style-src 'self'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    await page.arrayBuffer();
    const markdown = await asset('/changelog.md');
    expect(markdown.status).toBe(200);
    expect(markdown.headers.get('access-control-allow-origin')).toBe('*');
    expect(await markdown.text()).toContain('# Changelog');
  });
});
