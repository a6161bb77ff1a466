/**
 * The /verify result shows the baked badge that was checked (decision 0358): its own bytes as a
 * `data:` URL in an `<img>` (an SVG never inlined into the page), typed by what the reader found;
 * never the URL a credential names for its image. The form's link field (decision 0357): a badge by
 * URL, and a link that gives no credential answered with the form again.
 */

import { describe, expect, it } from 'vitest';
import BADGE_PNG from '../src/assets/badge/badge.png';
import { badgeSvg, bakePng, bakeSvg } from '../src/domain/certificates/badge';
import { base64Of, credentialFrom, fetchedFrom, foreignIssuer, publish, signAs } from './foreign-issuers';
import { call, freshIp } from './helpers';

const T = { timeout: 60_000 };
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

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

/** A valid foreign credential whose achievement names an image on a host of its own (never to be loaded). */
async function foreignBadge(extra: Record<string, unknown> = {}) {
  const issuer = await foreignIssuer('ES256', 'Image College');
  const credential = credentialFrom(issuer, extra);
  const achievement = (credential.credentialSubject as { achievement: Record<string, unknown> }).achievement;
  achievement.image = { id: 'https://tracker.issuer.test/pixel.png', type: 'Image' };
  return { issuer, jwt: await signAs(issuer, credential) };
}

const srcOf = (html: string) => /<img id="badge-image" src="([^"]*)"/.exec(html)?.[1] ?? null;

describe('the baked badge’s image on the /verify result', () => {
  it(
    'a baked PNG: its own bytes as a data: URL beside the claims; the CSP allows img-src data:',
    T,
    async () => {
      const { jwt } = await foreignBadge();
      const png = bakePng(new Uint8Array(BADGE_PNG), jwt);
      const res = await submit({ badge: new File([png], 'badge.png', { type: 'image/png' }) });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-security-policy')).toMatch(/img-src [^;]*\bdata:/);
      expect(res.headers.get('content-security-policy')).not.toMatch(/img-src [^;]*(\*|https:)/);
      const html = await res.text();
      expect(html).toContain('data-verdict="valid"');
      expect(srcOf(html)).toBe(`data:image/png;base64,${base64Of(png)}`);
      expect(html).toContain('alt="The badge image that was checked: Data Structures"');
      // Next to the name, description and dates, inside the same block.
      const block = html.slice(html.indexOf('id="badge-image-block"'));
      expect(block.indexOf('Data Structures')).toBeGreaterThan(0);
      expect(block).toContain('Passed the data structures course.');
      expect(html).toContain('id="badge-image-note"');
      // The achievement's own image URL is neither shown nor fetched.
      expect(html).not.toContain('tracker.issuer.test');
      expect(await fetchedFrom('tracker.issuer.test')).toEqual([]);
    },
  );

  it(
    'a baked SVG is shown as an image of its bytes, never inlined: its script and markup stay out of the page',
    T,
    async () => {
      const { jwt } = await foreignBadge();
      const svg = bakeSvg(
        badgeSvg({ title: 'DS', organisation: 'X', certificateNo: 'n/a', issuedAt: new Date() }),
        jwt,
      ).replace('</svg>', '<script id="svg-marker">document.title = "owned"</script></svg>');
      const bytes = new TextEncoder().encode(svg);
      // Sent as an octet stream: the type shown is what the reader found (an SVG), not what was declared.
      const res = await submit({
        badge: new File([bytes], 'badge.bin', { type: 'application/octet-stream' }),
      });
      const html = await res.text();
      expect(html).toContain('data-verdict="valid"');
      expect(srcOf(html)).toBe(`data:image/svg+xml;base64,${base64Of(bytes)}`);
      expect(html).not.toContain('svg-marker');
      expect(html).not.toContain('owned');
      expect(html).not.toContain('openbadges:credential');
    },
  );

  it('no image for pasted text, nor for a badge whose claims are not shown (invalid)', T, async () => {
    const { jwt } = await foreignBadge();
    const pasted = await (await submit({ credential: jwt })).text();
    expect(pasted).toContain('data-verdict="valid"');
    expect(pasted).not.toContain('id="badge-image"');

    const [head, payload, signature] = jwt.split('.');
    const flipped = `${head}.${payload}.${signature?.startsWith('A') ? 'B' : 'A'}${signature?.slice(1)}`;
    const png = bakePng(new Uint8Array(BADGE_PNG), flipped);
    const res = await submit({ badge: new File([png], 'badge.png', { type: 'image/png' }) });
    const html = await res.text();
    expect(html).toContain('data-verdict="invalid"');
    expect(html).not.toContain('id="badge-image"');
    expect(html).not.toContain('data:image/png');
  });
});

describe('the image a credential carries in itself (achievement.image as a data: URL)', () => {
  /** A valid foreign credential whose achievement's image is the `data:` URL `image`. */
  async function carrying(image: string) {
    const issuer = await foreignIssuer('ES256', 'Image College');
    const credential = credentialFrom(issuer);
    const achievement = (credential.credentialSubject as { achievement: Record<string, unknown> })
      .achievement;
    achievement.image = { id: image, type: 'Image' };
    return signAs(issuer, credential);
  }

  it('is shown from its own bytes beside the claims, named as the credential’s own image', T, async () => {
    const png = base64Of(new Uint8Array(BADGE_PNG));
    const html = await (await submit({ credential: await carrying(`data:image/png;base64,${png}`) })).text();
    expect(html).toContain('data-verdict="valid"');
    expect(srcOf(html)).toBe(`data:image/png;base64,${png}`);
    expect(html).toContain('alt="The badge image the credential carries: Data Structures"');
    expect(html).toContain('The image the credential carries in itself, shown from its own bytes.');
    // In Hindi too.
    const hi = await (
      await submit(
        { credential: await carrying(`data:image/png;base64,${png}`) },
        { 'accept-language': 'hi' },
      )
    ).text();
    expect(hi).toContain('alt="क्रेडेंशियल में रखा बैज चित्र: Data Structures"');
  });

  it(
    'is typed by its bytes, not by what the URL declares; what is not an image is not shown',
    T,
    async () => {
      const svg =
        '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>';
      const svg64 = base64Of(new TextEncoder().encode(svg));
      const declaredPng = await (
        await submit({ credential: await carrying(`data:image/png;base64,${svg64}`) })
      ).text();
      expect(srcOf(declaredPng)).toBe(`data:image/svg+xml;base64,${svg64}`);

      const page = base64Of(new TextEncoder().encode('<html><body><script>alert(1)</script></body></html>'));
      for (const url of [
        `data:text/html;base64,${page}`,
        `data:image/png;base64,${page}`,
        'data:image/png,not-base64',
      ]) {
        const html = await (await submit({ credential: await carrying(url) })).text();
        expect(html, url).toContain('data-verdict="valid"');
        expect(html, url).not.toContain('id="badge-image"');
        expect(html, url).not.toContain('alert(1)');
      }
    },
  );

  it('is not shown when the credential’s claims are not (an altered signature)', T, async () => {
    const png = base64Of(new Uint8Array(BADGE_PNG));
    const jwt = await carrying(`data:image/png;base64,${png}`);
    const [head, payload, signature] = jwt.split('.');
    const flipped = `${head}.${payload}.${signature?.startsWith('A') ? 'B' : 'A'}${signature?.slice(1)}`;
    const html = await (await submit({ credential: flipped })).text();
    expect(html).toContain('data-verdict="invalid"');
    expect(html).not.toContain('id="badge-image"');
    expect(html).not.toContain(png.slice(0, 200));
  });
});

describe('the form’s link to a badge', () => {
  it('the form offers the link field; a badge by link is checked and its image shown', T, async () => {
    const form = await (await call('/verify', { headers: { accept: BROWSER } })).text();
    expect(form).toContain('<label class="label" for="url">Or a link to the badge</label>');
    expect(form).toMatch(/<input class="input" id="url" name="url" type="url"/);

    const { issuer, jwt } = await foreignBadge();
    const png = bakePng(new Uint8Array(BADGE_PNG), jwt);
    await publish(issuer.host, '/badges/7.png', base64Of(png), { contentType: 'image/png', base64: true });
    const url = `https://${issuer.host}/badges/7.png`;
    const res = await submit({ url });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('data-verdict="valid"');
    expect(srcOf(html)).toBe(`data:image/png;base64,${base64Of(png)}`);
    expect(html).toContain(`<code>${url}</code> <span class="secondary">(image/png)</span>`);
    expect(html).toContain(`value="${url}"`);
    expect(await fetchedFrom(issuer.host)).toContain('/badges/7.png');
  });

  it('a JWT by link: checked, no image', T, async () => {
    const { issuer, jwt } = await foreignBadge();
    await publish(issuer.host, '/badges/7.jwt', jwt, { contentType: 'application/vc+jwt' });
    const html = await (await submit({ url: `https://${issuer.host}/badges/7.jwt` })).text();
    expect(html).toContain('data-verdict="valid"');
    expect(html).not.toContain('id="badge-image"');
  });

  it('a refused or failing link: a 422 page with the form, the link kept and why; Hindi too', T, async () => {
    const refused = await submit({ url: 'http://plain.issuer.test/badge.png' });
    expect(refused.status).toBe(422);
    expect(refused.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await refused.text();
    expect(html).toContain('<div class="error-summary" role="alert"');
    expect(html).toContain('id="url-error"');
    expect(html).toContain('This link cannot be fetched: URLs must use https');
    expect(html).toContain('value="http://plain.issuer.test/badge.png"');
    expect(html).not.toContain('id="verifier-result"');

    const issuer = await foreignIssuer('ES256');
    const missing = await submit({ url: `https://${issuer.host}/nothing-here` }, { 'Accept-Language': 'hi' });
    expect(missing.status).toBe(422);
    const hindi = await missing.text();
    expect(hindi).toContain('लिंक से कोई बैज नहीं मिला: The URL answered 404');
  });
});
