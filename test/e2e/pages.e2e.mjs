// End-to-end tests of the human-facing pages in Debian's Chromium, driven by playwright-core.
// Run by scripts/e2e.mjs (`npm run test:e2e`), which starts the Worker and the partner site,
// seeds data through the API and passes the URLs and fixtures in the environment.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CompactSign, importJWK } from 'jose';
import jsQRModule from 'jsqr';
import { chromium } from 'playwright-core';

const BASE = process.env.E2E_BASE_URL ?? '';
const PARTNER = process.env.E2E_PARTNER_URL ?? '';
const SCREENSHOTS = process.env.E2E_SCREENSHOTS ?? '';
/** Screenshots are written only when asked (`UPDATE_SCREENSHOTS=1 npm run test:e2e`): a test run leaves the tree clean. */
const UPDATE = process.env.UPDATE_SCREENSHOTS === '1';
/** @type {import('./seed.mjs').Fixtures} */
const F = JSON.parse(process.env.E2E_FIXTURES ?? 'null');
if (!BASE || !PARTNER || !F) throw new Error('run the end-to-end tests with `npm run test:e2e`');

// jsqr is CommonJS: Node's default import is its module.exports, the function itself.
const jsQR =
  /** @type {(data: Uint8ClampedArray, width: number, height: number) => { data: string } | null} */ (
    /** @type {unknown} */ (jsQRModule)
  );

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** @type {import('playwright-core').Browser} */
let browser;

before(async () => {
  if (UPDATE) mkdirSync(SCREENSHOTS, { recursive: true });
  // launch() gives every run a fresh temporary profile (user data dir).
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});

after(async () => {
  await browser?.close();
});

/**
 * A fresh context and page that records every script error: uncaught exceptions and console
 * errors (CSP violations are console errors too). `allow` lists console messages expected by a test.
 * @param {{ colorScheme?: 'light' | 'dark'; permissions?: string[] }} [options]
 */
async function openPage(options = {}) {
  const context = await browser.newContext({
    viewport: { width: 960, height: 900 },
    colorScheme: options.colorScheme ?? 'light',
    permissions: options.permissions ?? [],
  });
  const page = await context.newPage();
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()} (${msg.location().url})`);
  });
  page.on('response', (res) => {
    if (res.status() >= 400) errors.push(`response: ${res.status()} ${res.url()}`);
  });
  return {
    page,
    context,
    errors,
    /** Fails on any error except those matching `allow`, then closes the context. */
    async done(/** @type {RegExp[]} */ allow = []) {
      await context.close();
      const unexpected = errors.filter((e) => !allow.some((re) => re.test(e)));
      assert.deepEqual(unexpected, [], 'no script errors');
    },
  };
}

/**
 * Runs axe-core in a page or frame (its source evaluated there, which the page's CSP does not
 * govern) and fails on serious or critical violations.
 * @param {import('playwright-core').Page | import('playwright-core').Frame} target
 * @param {string} label
 */
async function expectAccessible(target, label) {
  await target.evaluate(AXE_SOURCE);
  /** @type {{ id: string; impact: string; help: string; nodes: { target: string[] }[] }[]} */
  const violations = await target.evaluate(async () => {
    // Callbacks like this one run in the browser; this file is type-checked with Node's types
    // and no DOM library, hence `globalThis` as `any` for the page's window.
    /** @type {any} */
    const window = globalThis;
    const result = await window.axe.run(window.document, { iframes: false, resultTypes: ['violations'] });
    return result.violations.map((/** @type {any} */ v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((/** @type {any} */ n) => ({ target: n.target })),
    }));
  });
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(serious, [], `${label}: axe-core found serious or critical violations`);
}

/**
 * Writes a screenshot to docs/screenshots/ when asked (UPDATE_SCREENSHOTS=1), else nothing.
 * @param {import('playwright-core').Page | import('playwright-core').ElementHandle} target
 * @param {string} name
 * @param {boolean} [fullPage]
 */
async function shot(target, name, fullPage = true) {
  if (!UPDATE) return;
  if ('goto' in target) await target.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage });
  else await target.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

/** The widths every page must reflow at (WCAG 1.4.10 at 320 CSS px), a phone, and a desktop. */
const WIDTHS = [320, 375, 1280];

/**
 * Nothing scrolls sideways: the document is no wider than the viewport.
 * @param {import('playwright-core').Page | import('playwright-core').Frame} target
 * @param {string} label
 */
async function expectReflow(target, label) {
  const [scrollWidth, innerWidth] = await target.evaluate(() => {
    /** @type {any} */
    const window = globalThis;
    return [window.document.scrollingElement.scrollWidth, window.innerWidth];
  });
  assert.ok(scrollWidth <= innerWidth, `${label}: scrolls sideways (${scrollWidth} > ${innerWidth})`);
}

/** The frame of an iframe element, once its table (or error) has rendered. */
async function frameOf(/** @type {import('playwright-core').Page} */ page, /** @type {string} */ selector) {
  const element = await page.waitForSelector(selector);
  const frame = await element.contentFrame();
  assert.ok(frame, `${selector} has a frame`);
  await frame.waitForSelector('main');
  return { element, frame };
}

/** The names in the board, without the words only a screen reader hears (a link's "opens in a new tab"). */
const aliases = (/** @type {import('playwright-core').Frame | import('playwright-core').Page} */ frame) =>
  frame.locator('td.alias').evaluateAll((cells) =>
    cells.map((cell) => {
      const copy = /** @type {any} */ (cell).cloneNode(true);
      for (const hidden of copy.querySelectorAll('.vh')) hidden.remove();
      return copy.textContent;
    }),
  );

/** Waits for the in-browser signature check and returns its state and text. */
async function signature(/** @type {import('playwright-core').Page} */ page) {
  // In the folded technical details: attached, not visible.
  await page.waitForSelector('#signature:not([data-state="pending"])', {
    timeout: 10_000,
    state: 'attached',
  });
  const el = page.locator('#signature');
  return { state: await el.getAttribute('data-state'), text: (await el.textContent()) ?? '' };
}

/** The headline once the signature check failed: it must no longer say "Valid certificate". */
async function expectFailedHeadline(/** @type {import('playwright-core').Page} */ page) {
  const box = page.locator('#verdict');
  assert.equal(await box.getAttribute('data-signature'), 'failed');
  const text = (await box.textContent()) ?? '';
  assert.match(text, /Signature check failed/);
  assert.doesNotMatch(text, /Valid certificate/);
  assert.doesNotMatch((await page.locator('main').textContent()) ?? '', /Valid certificate/);
}

/**
 * The errors a deliberate 4xx page load causes: the response itself, and Chromium's console
 * line about it.
 * @param {string} statuses e.g. '400|404'
 * @param {string} path the start of the path that answers with it
 */
const expectedStatus = (statuses, path) => [
  new RegExp(`^response: (${statuses}) ${BASE.replaceAll('.', '\\.')}${path}`),
  new RegExp(`^console: Failed to load resource: the server responded with a status of (${statuses})`),
];

describe('embeddable leaderboard', () => {
  it('the one-line snippet on a third-party site shows the consenting candidates and not the others, in both themes', async () => {
    const t = await openPage();
    const res = await t.page.goto(`${PARTNER}/`);
    assert.equal(res?.status(), 200);
    for (const theme of ['light', 'dark']) {
      const { element, frame } = await frameOf(t.page, `#${theme} iframe`);
      assert.equal(new URL(frame.url()).origin, BASE, 'the iframe is the Worker’s page');
      assert.notEqual(new URL(t.page.url()).origin, BASE, 'on another origin');
      assert.equal(await element.getAttribute('title'), `Top ${F.domain} candidates (${theme})`);
      assert.equal(
        await element.getAttribute('sandbox'),
        'allow-scripts allow-popups allow-popups-to-escape-sandbox',
      );
      assert.deepEqual(await aliases(frame), F.listed);
      const text = (await frame.locator('main').textContent()) ?? '';
      for (const name of F.unlisted) assert.ok(!text.includes(name), `${name} is not listed`);
      assert.equal(await frame.locator('caption').textContent(), `Leaderboard: ${F.domain}`);
      assert.deepEqual(await frame.locator('td .rank').allTextContents(), ['1', '2', '3']);
      assert.equal(
        await frame.evaluate(() => /** @type {any} */ (globalThis).document.documentElement.className),
        theme,
      );
      // The loader sized the iframe to the content the embed reported.
      await t.page.waitForFunction((/** @type {any} */ el) => el.style.height !== '22rem', element);
      const [frameHeight, contentHeight] = await Promise.all([
        element.evaluate((el) => el.getBoundingClientRect().height),
        frame.evaluate(
          () => /** @type {any} */ (globalThis).document.documentElement.getBoundingClientRect().height,
        ),
      ]);
      assert.ok(
        Math.abs(frameHeight - contentHeight) <= 1,
        `iframe ${frameHeight}px fits ${contentHeight}px`,
      );
      // Only the holder who shows their own name links to a certificate (not an alias, not a hidden name).
      assert.deepEqual(
        await frame.locator('td.alias a').evaluateAll((links) => links.map((a) => a.getAttribute('href'))),
        [`/verify/${F.linked.certificateNo}`],
      );
      await expectAccessible(frame, `embed (${theme})`);
      await shot(element, `embed-leaderboard-${theme}`);
    }
    // The link opens the certificate's page in a new tab, outside the partner's frame.
    const { frame } = await frameOf(t.page, '#light iframe');
    const [tab] = await Promise.all([
      t.context.waitForEvent('page'),
      frame.locator('td.alias a').first().click(),
    ]);
    await tab.waitForLoadState();
    assert.equal(tab.url(), `${BASE}/verify/${F.linked.certificateNo}`);
    assert.equal(await tab.locator('#holder').textContent(), F.linked.alias);
    assert.equal(await tab.evaluate(() => /** @type {any} */ (globalThis).opener), null, 'noopener');
    await tab.close();
    await expectAccessible(t.page, 'partner page with the embeds');
    await t.done();
  });

  it('a hand-written iframe works too, and markup in an alias is shown as text', async () => {
    const t = await openPage();
    /** @type {string[]} */
    const dialogs = [];
    t.page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await t.page.goto(
      `${PARTNER}/frame?src=${encodeURIComponent(`/embed/leaderboard?domain=${F.xssDomain}`)}`,
    );
    const { frame } = await frameOf(t.page, 'iframe');
    assert.deepEqual(await aliases(frame), [F.xssAlias]);
    assert.equal(await frame.locator('img').count(), 0);
    assert.deepEqual(dialogs, []);
    await t.done();
  });

  it('answers bad parameters with a framable 400 page', async () => {
    const t = await openPage();
    await t.page.goto(
      `${PARTNER}/frame?src=${encodeURIComponent('/embed/leaderboard?limit=500&theme=dark')}`,
    );
    const { frame } = await frameOf(t.page, 'iframe');
    assert.equal(await frame.locator('h1').textContent(), 'Invalid parameters');
    assert.match((await frame.locator('main').textContent()) ?? '', /#\/query\/limit/);
    await expectAccessible(frame, 'embed error');
    await t.done(expectedStatus('400', '/embed/leaderboard?'));
  });

  it('other pages of the Worker refuse to be framed by another site', async () => {
    const t = await openPage();
    await t.page.goto(`${PARTNER}/frame?src=${encodeURIComponent(`/verify/${F.valid.certificateNo}`)}`);
    const element = await t.page.waitForSelector('iframe');
    await t.page.waitForTimeout(500);
    const frame = await element.contentFrame();
    const text = frame
      ? await frame
          .evaluate(() => /** @type {any} */ (globalThis).document.body?.innerText ?? '')
          .catch(() => '')
      : '';
    assert.ok(!text.includes(F.valid.certificateNo), `the verification page did not render: ${frame?.url()}`);
    assert.ok(
      t.errors.some((e) => /frame-ancestors 'none'/.test(e)),
      `Chromium refused the frame: ${t.errors.join(' | ')}`,
    );
    await t.done([/frame-ancestors 'none'/]);
  });
});

describe('verification page', () => {
  it('shows a valid certificate, verifies its signature in the browser, and can be shared', async () => {
    const t = await openPage({ permissions: ['clipboard-read', 'clipboard-write'] });
    /** @type {string[]} */
    const requests = [];
    t.page.on('request', (r) => requests.push(r.url()));
    const res = await t.page.goto(`${BASE}/verify/${F.valid.certificateNo}`);
    assert.equal(res?.status(), 200);
    assert.equal(await t.page.locator('h1').textContent(), F.valid.title);
    assert.equal(await t.page.locator('#verdict').getAttribute('data-tone'), 'verified');
    assert.match((await t.page.locator('#verdict').textContent()) ?? '', /Valid certificate/);
    assert.equal(await t.page.locator('#holder').textContent(), F.valid.holder);
    const details = (await t.page.locator('#facts').textContent()) ?? '';
    assert.ok(details.includes(F.employerName), details);
    const sig = await signature(t.page);
    assert.equal(sig.state, 'verified', sig.text);
    assert.match(sig.text, /Signature verified in your browser/);
    // The browser fetched the keys itself, and nothing outside the Worker was requested.
    // The key the credential's `kid` names: a URL of this site that returns that one JWK.
    assert.ok(
      requests.some((u) => u.startsWith(`${BASE}/ob/keys/`)),
      `the kid URL was fetched: ${requests.join(', ')}`,
    );
    assert.deepEqual(
      requests.filter((u) => new URL(u).origin !== BASE),
      [],
    );
    // Share: a QR code and a link that copies.
    assert.equal(await t.page.locator('svg[role="img"]').count(), 1);
    await t.page.click('#copy-link');
    await t.page.waitForSelector('#copy-status:has-text("Link copied.")');
    const copied = await t.page.evaluate(() =>
      /** @type {any} */ (globalThis).navigator.clipboard.readText(),
    );
    assert.equal(copied, `${BASE}/verify/${F.valid.certificateNo}`);
    await t.page.locator('#copy-status').evaluate((el) => {
      el.textContent = '';
    });
    await expectAccessible(t.page, 'valid certificate');
    await shot(t.page, 'verify-valid');
    await t.done();
  });

  it('shows a revoked certificate as revoked, with a still-valid signature', async () => {
    const t = await openPage();
    const res = await t.page.goto(`${BASE}/verify/${F.revoked.certificateNo}`);
    assert.equal(res?.status(), 200);
    assert.equal(await t.page.locator('#verdict').getAttribute('data-tone'), 'invalid');
    assert.match((await t.page.locator('#verdict-title').textContent()) ?? '', /Revoked/);
    assert.equal(await t.page.locator('#holder').textContent(), F.revoked.holder);
    const sig = await signature(t.page);
    assert.equal(sig.state, 'verified', sig.text);
    assert.match(sig.text, /the issuer has since revoked this certificate/);
    await expectAccessible(t.page, 'revoked certificate');
    await shot(t.page, 'verify-revoked');
    await t.done();
  });

  it('hides the holder’s name without public_verification consent', async () => {
    const t = await openPage({ colorScheme: 'dark' });
    await t.page.goto(`${BASE}/verify/${F.anonymous.certificateNo}`);
    assert.match((await t.page.locator('#holder').textContent()) ?? '', /Not shown/);
    assert.ok(!((await t.page.content()) ?? '').includes(F.anonymous.holder));
    assert.equal((await signature(t.page)).state, 'verified');
    await expectAccessible(t.page, 'certificate without a name (dark)');
    await t.done();
  });

  it('keeps verifying after the rating person corrects their name or the employer is erased, with no personal name served', async () => {
    assert.equal(F.peopleChanged.length, 2);
    for (const { certificateNo, organisation, names, what } of F.peopleChanged) {
      const t = await openPage();
      const res = await t.page.goto(`${BASE}/verify/${certificateNo}`);
      assert.equal(res?.status(), 200, what);
      assert.match((await t.page.locator('#verdict').textContent()) ?? '', /Valid certificate/, what);
      assert.ok(((await t.page.locator('#facts').textContent()) ?? '').includes(organisation), what);
      const sig = await signature(t.page);
      assert.equal(sig.state, 'verified', `${what}: ${sig.text}`);
      const page = await t.page.content();
      const api = await fetch(`${BASE}/api/verify/${certificateNo}`);
      assert.equal(api.status, 200);
      const body = await api.text();
      assert.equal(JSON.parse(body).valid, true, what);
      for (const name of names) {
        assert.ok(!page.includes(name), `${what}: the page does not show ${name}`);
        assert.ok(!body.includes(name), `${what}: the API does not show ${name}`);
      }
      await t.done();
    }
  });

  it('shows an unknown number as a 404 page and a mistyped one as a 400 page, with a working look-up', async () => {
    const t = await openPage();
    const unknown = await t.page.goto(`${BASE}/verify/VP-7K3M-Q9TD-2XWV`);
    assert.equal(unknown?.status(), 404);
    assert.equal(await t.page.locator('h1').textContent(), 'No certificate has this number');
    await expectAccessible(t.page, 'unknown certificate');

    const chars = F.valid.certificateNo.split('');
    chars[5] = chars[5] === 'A' ? 'B' : 'A';
    const typo = await t.page.goto(`${BASE}/verify/${chars.join('')}`);
    assert.equal(typo?.status(), 400);
    assert.equal(await t.page.locator('h1').textContent(), 'This certificate number has a typo');
    await expectAccessible(t.page, 'mistyped certificate');

    const junk = await t.page.goto(`${BASE}/verify/hello`);
    assert.equal(junk?.status(), 400);
    assert.equal(await t.page.locator('h1').textContent(), 'This is not a certificate number');

    // The look-up form (a plain GET form: /verify?no= answers 303) takes people to the right page.
    await t.page.fill('#lookup-number', F.valid.certificateNo.toLowerCase());
    const [found] = await Promise.all([t.page.waitForNavigation(), t.page.click('#lookup button')]);
    assert.equal(found?.status(), 200);
    assert.equal((await signature(t.page)).state, 'verified');
    await t.done(expectedStatus('400|404', '/verify/'));
  });

  it('fails the signature check for a tampered credential', async () => {
    const t = await openPage();
    const url = `${BASE}/verify/${F.valid.certificateNo}`;
    await t.page.route(url, async (route) => {
      const response = await route.fetch();
      const html = await response.text();
      const jwt = /id="credential-jwt">([^<]+)</.exec(html)?.[1] ?? '';
      const [header, payload, sig] = jwt.split('.');
      const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8'));
      claims.validFrom = '2020-01-01T00:00:00Z'; // an earlier date, in a still well-formed credential
      const forged = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${sig}`;
      await route.fulfill({ response, body: html.replace(jwt, forged) });
    });
    await t.page.goto(url);
    const sig = await signature(t.page);
    assert.equal(sig.state, 'failed', sig.text);
    assert.match(sig.text, /signature does not match the published key/);
    await expectFailedHeadline(t.page);
    await t.done();
  });

  it('fails the signature check against a substituted key', async () => {
    const t = await openPage();
    // Credentials are ES256 with a kid URL (/ob/keys/{thumbprint}); older ones EdDSA via the JWKS.
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' });
    const substitute = (/** @type {any} */ key) => {
      if (key.kty === 'EC') Object.assign(key, { x: other.x, y: other.y });
      return key;
    };
    await t.page.route(`${BASE}/ob/keys/**`, async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, json: substitute(await response.json()) });
    });
    await t.page.route(`${BASE}/.well-known/jwks.json`, async (route) => {
      const response = await route.fetch();
      const jwks = await response.json();
      jwks.keys.forEach(substitute);
      await route.fulfill({ response, json: jwks });
    });
    await t.page.goto(`${BASE}/verify/${F.valid.certificateNo}`);
    const sig = await signature(t.page);
    assert.equal(sig.state, 'failed', sig.text);
    assert.match(sig.text, /signature does not match/);
    await expectFailedHeadline(t.page);
    await t.done();
  });

  it('fails when the page carries another certificate’s genuine credential', async () => {
    const t = await openPage();
    const other = /** @type {{ credential: { jwt: string } }} */ (
      await (await fetch(`${BASE}/api/verify/${F.second.certificateNo}`)).json()
    );
    const url = `${BASE}/verify/${F.valid.certificateNo}`;
    await t.page.route(url, async (route) => {
      const response = await route.fetch();
      const html = await response.text();
      const body = html.replace(/(id="credential-jwt">)[^<]+</, `$1${other.credential.jwt}<`);
      await route.fulfill({ response, body });
    });
    await t.page.goto(url);
    const sig = await signature(t.page);
    assert.equal(sig.state, 'failed', sig.text);
    assert.match(sig.text, /signature is valid, but the signed credential does not match this page/);
    await expectFailedHeadline(t.page);
    await t.done();
  });
});

/** base58btc, for a did:key. */
function base58(/** @type {Uint8Array} */ bytes) {
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  let n = 0n;
  for (const b of bytes) n = n * 256n + BigInt(b);
  let out = '';
  while (n > 0n) {
    out = alphabet[Number(n % 58n)] + out;
    n /= 58n;
  }
  return out;
}

/** A genuine credential signed by a fresh did:key calling itself a famous name: nobody here vetted it. */
async function selfSignedJwt(/** @type {string} */ name) {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const x = Buffer.from(/** @type {string} */ (publicKey.export({ format: 'jwk' }).x), 'base64url');
  const did = `did:key:z${base58(new Uint8Array([0xed, 0x01, ...x]))}`;
  const id = `urn:uuid:${crypto.randomUUID()}`;
  const claims = {
    '@context': [
      'https://www.w3.org/ns/credentials/v2',
      'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json',
    ],
    id,
    jti: id,
    type: ['VerifiableCredential', 'OpenBadgeCredential'],
    issuer: { id: did, type: ['Profile'], name },
    validFrom: '2026-01-05T10:00:00Z',
    name: 'Doctorate in Computer Science',
    credentialSubject: {
      id: 'did:example:holder',
      type: ['AchievementSubject'],
      achievement: {
        id: `urn:uuid:${crypto.randomUUID()}`,
        type: ['Achievement'],
        name: 'Doctorate in Computer Science',
        description: 'Awarded a doctorate.',
        criteria: { narrative: 'Defend a thesis.' },
      },
    },
    iss: did,
    sub: 'did:example:holder',
    nbf: 1767607200,
  };
  const jwt = await new CompactSign(Buffer.from(JSON.stringify(claims)))
    .setProtectedHeader({ alg: 'EdDSA', kid: `${did}#${did.slice(8)}`, typ: 'JWT' })
    .sign(await importJWK(/** @type {any} */ (privateKey.export({ format: 'jwk' })), 'EdDSA'));
  return { did, jwt };
}

describe('every page and state at 320, 375 and 1280 px: axe-core (WCAG 2.1 AA) and no sideways scroll', () => {
  /** @type {{ name: string; path: string; status?: number; tone?: string; lang?: string }[]} */
  const PAGES = [
    { name: 'home', path: '/' },
    { name: 'home-hi', path: '/?lang=hi', lang: 'hi' },
    { name: 'verifier', path: '/verify' },
    { name: 'certificate-valid', path: `/verify/${F.valid.certificateNo}`, tone: 'verified' },
    {
      name: 'certificate-valid-hi',
      path: `/verify/${F.valid.certificateNo}?lang=hi`,
      tone: 'verified',
      lang: 'hi',
    },
    { name: 'certificate-revoked', path: `/verify/${F.revoked.certificateNo}`, tone: 'invalid' },
    { name: 'certificate-suspended', path: `/verify/${F.suspended.certificateNo}`, tone: 'invalid' },
    { name: 'certificate-name-hidden', path: `/verify/${F.anonymous.certificateNo}`, tone: 'verified' },
    { name: 'certificate-long-names', path: `/verify/${F.long.certificateNo}`, tone: 'verified' },
    {
      name: 'certificate-long-names-hi',
      path: `/verify/${F.long.certificateNo}?lang=hi`,
      tone: 'verified',
      lang: 'hi',
    },
    { name: 'certificate-unknown', path: '/verify/VP-7K3M-Q9TD-2XWV', status: 404, tone: 'unknown' },
    { name: 'certificate-typo', path: '/verify/VP-7K3M-Q9TD-2XWA', status: 400 },
  ];
  for (const p of PAGES) {
    it(`${p.name} (${p.path})`, async () => {
      const t = await openPage();
      for (const width of WIDTHS) {
        await t.page.setViewportSize({ width, height: 900 });
        const res = await t.page.goto(`${BASE}${p.path}`, { waitUntil: 'networkidle' });
        assert.equal(res?.status(), p.status ?? 200);
        assert.equal(await t.page.getAttribute('html', 'lang'), p.lang ?? 'en');
        if (p.tone)
          assert.equal(await t.page.locator('[data-tone]').first().getAttribute('data-tone'), p.tone);
        // The stylesheet applied (the header is the brand colour), from the static assets.
        const header = await t.page
          .locator('.header')
          .evaluate((el) => /** @type {any} */ (globalThis).getComputedStyle(el).backgroundColor);
        assert.equal(header, 'rgb(11, 61, 145)');
        await expectReflow(t.page, `${p.name} at ${width} px`);
        await expectAccessible(t.page, `${p.name} at ${width} px`);
        await shot(t.page, `${p.name}-${width}`);
      }
      await t.done(p.status ? expectedStatus(String(p.status), '/verify/') : []);
    });
  }

  it('the verifier’s answers: verified issuer (green), genuine signature by an unvetted issuer (amber), altered (red)', async () => {
    const own = /** @type {{ credential: { jwt: string } }} */ (
      await (await fetch(`${BASE}/api/verify/${F.valid.certificateNo}`)).json()
    ).credential.jwt;
    const selfSigned = await selfSignedJwt('Indian Institute of Technology Bombay');
    const [h, payload, sig] = selfSigned.jwt.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8'));
    claims.credentialSubject.achievement.name = 'Forged Nobel Prize';
    const altered = `${h}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${sig}`;
    const cases = [
      { name: 'verifier-verified', jwt: own, tone: 'verified' },
      { name: 'verifier-unvetted', jwt: selfSigned.jwt, tone: 'unvetted' },
      { name: 'verifier-altered', jwt: altered, tone: 'invalid' },
    ];
    const t = await openPage();
    for (const c of cases) {
      for (const width of WIDTHS) {
        await t.page.setViewportSize({ width, height: 900 });
        await t.page.goto(`${BASE}/verify`);
        await t.page.fill('#credential', c.jwt);
        const [answer] = await Promise.all([t.page.waitForNavigation(), t.page.click('#verifier-submit')]);
        assert.equal(answer?.status(), 200);
        const result = t.page.locator('#verifier-result');
        assert.equal(await result.getAttribute('data-tone'), c.tone, c.name);
        const text = (await result.textContent()) ?? '';
        if (c.tone === 'unvetted') {
          assert.match(text, /Signature valid, issuer identity not confirmed/);
          assert.ok(text.includes(selfSigned.did), 'the DID is shown');
          assert.match(text, /“Indian Institute of Technology Bombay” \(its own claim, not confirmed\)/);
          assert.match(text, /The issuer offers no revocation/);
        }
        if (c.tone === 'invalid') assert.doesNotMatch(text, /Forged Nobel Prize|Indian Institute/);
        await expectReflow(t.page, `${c.name} at ${width} px`);
        await expectAccessible(t.page, `${c.name} at ${width} px`);
        await shot(t.page, `${c.name}-${width}`);
      }
    }
    await t.done();
  });

  it('the embed reflows at 320 px with its score column visible', async () => {
    const t = await openPage();
    await t.page.setViewportSize({ width: 320, height: 700 });
    await t.page.goto(`${BASE}/embed/leaderboard?domain=${F.domain}`);
    await expectReflow(t.page, 'embed at 320 px');
    const box = await t.page.locator('thead th').last().boundingBox();
    assert.ok(box && box.x + box.width <= 320, 'the score column is inside the frame');
    await expectAccessible(t.page, 'embed at 320 px');
    await shot(t.page, 'embed-leaderboard-320');
    await t.done();
  });
});

describe('issue 52: who is looking, the OAuth pages and the script in Hindi, at 320, 375 and 1280 px', () => {
  /** Registers a client and returns its authorization URL (with `extra` query parameters). */
  async function authorizationUrl(/** @type {Record<string, string>} */ extra = {}, pkce = true) {
    const scope = 'https://purl.imsglobal.org/spec/ob/v3p0/scope/credential.readonly';
    const registration = await fetch(`${BASE}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Pustak Wallet',
        redirect_uris: ['https://wallet.example/callback'],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        scope,
      }),
    });
    assert.equal(registration.status, 201);
    const client = /** @type {{ client_id: string }} */ (await registration.json());
    const url = new URL(`${BASE}/oauth/authorize`);
    const params = {
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: 'https://wallet.example/callback',
      scope,
      state: 'e2e-52',
      ...(pkce
        ? {
            code_challenge: createHash('sha256')
              .update(randomBytes(32).toString('base64url'))
              .digest('base64url'),
            code_challenge_method: 'S256',
          }
        : {}),
      ...extra,
    };
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    return url.href;
  }

  /** Signs the context in with a fixture's session cookie. */
  async function signIn(
    /** @type {import('playwright-core').BrowserContext} */ context,
    /** @type {string} */ cookie,
  ) {
    const [name, value] = cookie.split(/=(.*)/s);
    await context.addCookies([{ name: name ?? 'session', value: value ?? '', url: BASE }]);
  }

  /** Each width: the page's status and language, no sideways scroll, axe-core, a screenshot. */
  async function walk(
    /** @type {import('playwright-core').Page} */ page,
    /** @type {string} */ url,
    /** @type {string} */ name,
    /** @type {{ status?: number; lang?: string; check?: () => Promise<void> }} */ o = {},
  ) {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      const res = await page.goto(url, { waitUntil: 'networkidle' });
      assert.equal(res?.status(), o.status ?? 200, `${name}: status`);
      assert.equal(await page.getAttribute('html', 'lang'), o.lang ?? 'en', `${name}: <html lang>`);
      await o.check?.();
      await expectReflow(page, `${name} at ${width} px`);
      await expectAccessible(page, `${name} at ${width} px`);
      await shot(page, `${name}-${width}`);
    }
  }

  it('signed in, every page’s header and footer say “Your certificates”, and the holder of a hidden name gets the button that shows it', async () => {
    const t = await openPage();
    await signIn(t.context, F.anonymous.cookie);
    const accountLinks = async () => [
      await t.page.locator('#nav-account').textContent(),
      await t.page.locator('#footer-account').textContent(),
    ];
    for (const path of ['/', '/verify', `/verify/${F.valid.certificateNo}`]) {
      await t.page.goto(`${BASE}${path}`);
      assert.deepEqual(await accountLinks(), ['Your certificates', 'Your certificates'], path);
    }
    await walk(t.page, `${BASE}/verify/${F.anonymous.certificateNo}`, 'certificate-name-hidden-holder', {
      check: async () => {
        assert.deepEqual(await accountLinks(), ['Your certificates', 'Your certificates']);
        assert.ok(await t.page.locator('#holder-show').isVisible(), 'the holder’s button');
        assert.match((await t.page.locator('#holder-why').textContent()) ?? '', /You have not chosen/);
      },
    });
    await walk(
      t.page,
      `${BASE}/verify/${F.anonymous.certificateNo}?lang=hi`,
      'certificate-name-hidden-holder-hi',
      {
        lang: 'hi',
        check: async () => {
          assert.deepEqual(await accountLinks(), ['आपके प्रमाणपत्र', 'आपके प्रमाणपत्र']);
          assert.equal(await t.page.locator('#holder-show').textContent(), 'इस प्रमाणपत्र पर मेरा नाम दिखाएँ');
        },
      },
    );
    await t.done();
    // The holder of a valid certificate gets its PDF and “Add to a wallet” on the page itself.
    const holder = await openPage();
    await signIn(holder.context, F.indic.cookie);
    await walk(holder.page, `${BASE}/verify/${F.indic.certificateNo}`, 'certificate-holder', {
      check: async () => {
        assert.ok(await holder.page.locator('#add-to-wallet').isVisible(), 'Add to a wallet');
        assert.equal(
          await holder.page.locator('#pdf').getAttribute('href'),
          `/api/me/certificates/${F.indic.certificateNo}/pdf`,
        );
        assert.equal(await holder.page.locator('#wallet-slot').count(), 0);
      },
    });
    await holder.done();
    // Signed out, the same page says “Sign in” and offers no button.
    const out = await openPage();
    await out.page.goto(`${BASE}/verify/${F.anonymous.certificateNo}`);
    assert.equal(await out.page.locator('#footer-account').textContent(), 'Sign in');
    assert.equal(await out.page.locator('#holder-show').count(), 0);
    await out.page.goto(`${BASE}/verify/${F.indic.certificateNo}`);
    assert.equal(await out.page.locator('#pdf').count(), 0, 'no PDF link that would answer 401');
    assert.ok(await out.page.locator('#wallet-slot').isVisible());
    await out.done();
  });

  it('the certificate page’s script speaks the page’s language (the signature check, the copy button)', async () => {
    const t = await openPage({ permissions: ['clipboard-read', 'clipboard-write'] });
    await t.page.goto(`${BASE}/verify/${F.valid.certificateNo}?lang=hi`);
    const sig = await signature(t.page);
    assert.equal(sig.state, 'verified');
    assert.match(sig.text, /आपके ब्राउज़र में हस्ताक्षर सत्यापित/);
    assert.doesNotMatch(sig.text, /Signature verified/);
    await t.page.click('#copy-link');
    await t.page.waitForSelector('#copy-status:has-text("लिंक कॉपी हो गया।")');
    await t.done();
  });

  it('the OAuth sign-in, consent and error pages, in English and Hindi', async () => {
    const out = await openPage();
    await walk(out.page, await authorizationUrl(), 'oauth-sign-in', {
      check: async () => {
        assert.match((await out.page.locator('h1').textContent()) ?? '', /Pustak Wallet/);
        assert.equal(await out.page.locator('#footer-account').textContent(), 'Sign in');
      },
    });
    await walk(out.page, await authorizationUrl({ lang: 'hi' }), 'oauth-sign-in-hi', { lang: 'hi' });
    await walk(out.page, await authorizationUrl({ lang: 'hi' }, false), 'oauth-error-hi', {
      status: 400,
      lang: 'hi',
      check: async () => {
        assert.match((await out.page.locator('#oauth-error').textContent()) ?? '', /PKCE/);
        assert.match((await out.page.locator('#oauth-error-detail').textContent()) ?? '', /invalid_request/);
      },
    });
    await out.done(expectedStatus('400', '/oauth/authorize'));

    const t = await openPage();
    await signIn(t.context, F.indic.cookie);
    for (const lang of ['en', 'hi']) {
      await walk(
        t.page,
        await authorizationUrl({ lang }),
        lang === 'en' ? 'oauth-consent' : 'oauth-consent-hi',
        {
          lang,
          check: async () => {
            assert.equal(await t.page.locator('input[name="lang"]').getAttribute('value'), lang);
            assert.ok(await t.page.locator('#allow').isVisible());
            assert.equal(
              await t.page.locator('#nav-account').textContent(),
              lang === 'en' ? 'Your certificates' : 'आपके प्रमाणपत्र',
            );
          },
        },
      );
    }
    await t.done();
  });
});

describe('portable certificates', () => {
  it('the verify page links LinkedIn with the certificate filled in, and a revoked one does not', async () => {
    const t = await openPage();
    await t.page.goto(`${BASE}/verify/${F.valid.certificateNo}`);
    const href = await t.page.locator('#linkedin').getAttribute('href');
    const url = new URL(href ?? '');
    const api = /** @type {{ issuedAt: string }} */ (
      await (await fetch(`${BASE}/api/verify/${F.valid.certificateNo}`)).json()
    );
    const issued = new Date(api.issuedAt);
    assert.equal(url.origin + url.pathname, 'https://www.linkedin.com/profile/add');
    assert.deepEqual(Object.fromEntries(url.searchParams), {
      startTask: 'CERTIFICATION_NAME',
      name: F.valid.title,
      organizationName: F.employerName,
      issueYear: String(issued.getUTCFullYear()),
      issueMonth: String(issued.getUTCMonth() + 1),
      certUrl: `${BASE}/verify/${F.valid.certificateNo}`,
      certId: F.valid.certificateNo,
    });
    assert.equal(await t.page.locator('#linkedin').textContent(), 'Add to LinkedIn profile');
    await t.page.goto(`${BASE}/verify/${F.revoked.certificateNo}`);
    assert.equal(await t.page.locator('#linkedin').count(), 0);
    await t.done();
  });

  /** Opens /verify (from a certificate page's link), submits, and returns the verdict. */
  async function verifyWith(/** @type {(page: import('playwright-core').Page) => Promise<void>} */ fill) {
    const t = await openPage();
    await t.page.goto(`${BASE}/verify/${F.valid.certificateNo}`);
    await Promise.all([t.page.waitForNavigation(), t.page.click('footer a[href^="/verify"]')]);
    await fill(t.page);
    // A plain form: the browser posts the file or text to POST /verify and shows the server's answer.
    const [answer] = await Promise.all([t.page.waitForNavigation(), t.page.click('#verifier-submit')]);
    assert.equal(answer?.status(), 200);
    const result = t.page.locator('#verifier-result');
    return {
      t,
      kind: await result.getAttribute('data-verdict'),
      tone: await result.getAttribute('data-tone'),
      text: (await result.textContent()) ?? '',
    };
  }

  const validJwt = async () =>
    /** @type {{ credential: { jwt: string } }} */ (
      await (await fetch(`${BASE}/api/verify/${F.valid.certificateNo}`)).json()
    ).credential.jwt;

  it('/verify accepts a pasted credential: valid, and tampered when a claim is changed', async () => {
    const jwt = await validJwt();
    const valid = await verifyWith((page) => page.fill('#credential', jwt));
    assert.equal(valid.kind, 'valid', valid.text);
    assert.equal(valid.tone, 'verified', valid.text);
    assert.match(valid.text, /Valid credential from a verified issuer/);
    await expectAccessible(valid.t.page, 'credential verifier');
    await shot(valid.t.page, 'verifier-valid');
    await valid.t.done();

    const [header, payload, sig] = jwt.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8'));
    claims.name = 'A brief the holder never did';
    const forged = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${sig}`;
    const tampered = await verifyWith((page) => page.fill('#credential', forged));
    assert.equal(tampered.kind, 'invalid', tampered.text);
    assert.equal(tampered.tone, 'invalid', tampered.text);
    assert.match(tampered.text, /Not valid: altered or not genuine/);
    assert.doesNotMatch(tampered.text, /A brief the holder never did/);
    await tampered.t.done();

    const junk = await verifyWith((page) => page.fill('#credential', 'not a credential'));
    assert.equal(junk.kind, 'invalid', junk.text);
    await junk.t.done();
  });

  it('/verify does not call valid a credential whose issuer the platform no longer recognises', async () => {
    const no = F.suspended.certificateNo;
    const api = /** @type {{ status: string; valid: boolean; credential: { jwt: string } }} */ (
      await (await fetch(`${BASE}/api/verify/${no}`)).json()
    );
    assert.equal(api.status, 'suspended');
    assert.equal(api.valid, false);
    const checked = await verifyWith((page) => page.fill('#credential', api.credential.jwt));
    assert.equal(checked.kind, 'suspended', checked.text);
    assert.equal(checked.tone, 'invalid', checked.text);
    assert.doesNotMatch(checked.text, /Valid credential/);
    // The brief's title names another certificate's page: that certificate's (valid) state is not
    // taken for this one; the number compared is the fixed claim's.
    assert.doesNotMatch(checked.text, /Valid certificate|verified issuer/);
    await checked.t.done();
  });

  it('/verify: a foreign issuer’s baked badge (its own key and status list, served locally) shows its verdict', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const host = await foreignIssuerHost();
    const id = `${host.url}/issuer`;
    const kid = `${host.url}/keys/1`;
    // The key names its controller (the issuer): a key merely on the issuer's host does not speak for it.
    host.documents.set('/keys/1', {
      id: kid,
      type: 'JsonWebKey',
      controller: id,
      publicKeyJwk: { ...publicKey.export({ format: 'jwk' }), kid, alg: 'ES256' },
    });
    host.documents.set('/issuer', { id, type: ['Profile'], name: 'Loopback University' });
    const key = await importJWK(/** @type {any} */ (privateKey.export({ format: 'jwk' })), 'ES256');
    const credential = {
      '@context': [
        'https://www.w3.org/ns/credentials/v2',
        'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json',
      ],
      id: 'urn:uuid:5b1c3c55-3f7b-4ad0-a2a6-0d51f8c3b3a1',
      type: ['VerifiableCredential', 'OpenBadgeCredential'],
      issuer: { id, type: ['Profile'], name: 'Loopback University' },
      validFrom: '2026-01-05T10:00:00Z',
      name: 'Compilers',
      credentialSubject: {
        id: 'did:example:holder',
        type: ['AchievementSubject'],
        achievement: {
          id: `${id}/achievements/compilers`,
          type: ['Achievement'],
          name: 'Compilers',
          description: 'Passed the compilers course.',
          criteria: { narrative: 'Pass the exam.' },
        },
      },
    };
    const claims = { ...credential, iss: id, jti: credential.id, sub: 'did:example:holder', nbf: 1767607200 };
    const jwt = await new CompactSign(Buffer.from(JSON.stringify(claims)))
      .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
      .sign(key);
    const png = bakedPng(jwt);
    const pngPath = join(mkdtempSync(join(tmpdir(), 'vp-foreign-')), 'compilers.png');
    writeFileSync(pngPath, png);
    try {
      const checked = await verifyWith((page) => page.setInputFiles('#badge', pngPath));
      // Genuine, but nobody here vetted Loopback University: amber, its id shown, its name its own claim.
      assert.equal(checked.kind, 'valid', checked.text);
      assert.equal(checked.tone, 'unvetted', checked.text);
      assert.match(checked.text, /Signature valid, issuer identity not confirmed/);
      assert.ok(checked.text.includes(id), checked.text);
      assert.match(checked.text, /“Loopback University” \(its own claim, not confirmed\)/);
      assert.match(checked.text, /The issuer offers no revocation/);
      // The badge that was checked is shown beside its claims, from its own bytes (decision 0358),
      // and the browser decodes it under the page's CSP.
      const image = checked.t.page.locator('#badge-image');
      assert.match((await image.getAttribute('src')) ?? '', /^data:image\/png;base64,/);
      assert.equal(await image.evaluate((img) => /** @type {any} */ (img).naturalWidth), 1);
      await expectAccessible(checked.t.page, 'verifier: unvetted issuer');
      await shot(checked.t.page, 'verifier-foreign');
      await checked.t.done();
      // The same badge by link (the form's "Or a link to the badge"): fetched by the server, the same answer.
      host.documents.set('/badges/compilers.png', png);
      const linked = await verifyWith((page) => page.fill('#url', `${host.url}/badges/compilers.png`));
      assert.equal(linked.kind, 'valid', linked.text);
      assert.ok(linked.text.includes(`${host.url}/badges/compilers.png`), linked.text);
      assert.equal(
        await linked.t.page.locator('#badge-image').evaluate((img) => /** @type {any} */ (img).naturalWidth),
        1,
      );
      await linked.t.done();
      // The same badge, tampered: not valid.
      const forged = bakedPng(
        `${jwt.split('.')[0]}.${Buffer.from(JSON.stringify({ ...claims, name: 'Forged' })).toString('base64url')}.${jwt.split('.')[2]}`,
      );
      writeFileSync(pngPath, forged);
      const tampered = await verifyWith((page) => page.setInputFiles('#badge', pngPath));
      assert.equal(tampered.kind, 'invalid', tampered.text);
      assert.doesNotMatch(tampered.text, /Loopback University/);
      await expectAccessible(tampered.t.page, 'verifier: altered credential');
      await shot(tampered.t.page, 'verifier-altered');
      await tampered.t.done();
    } finally {
      await host.stop();
    }
  });

  it('/verify/{no}: a suspended issuer’s certificate whose title names another number is not valid', async () => {
    const t = await openPage();
    await t.page.goto(`${BASE}/verify/${F.suspended.certificateNo}`);
    const headline = (await t.page.locator('#verdict').textContent()) ?? '';
    assert.doesNotMatch(headline, /Valid certificate/);
    assert.match(headline, /issuer suspended|issuer no longer recognised/);
    const sig = await signature(t.page);
    assert.match(sig.text, /Tapi Traders/, 'the signature line names the organisation');
    await t.done();
  });

  it('/verify checks a credential signed before ES256 (EdDSA, key from the JWKS by its kid)', async () => {
    const legacy = JSON.parse(process.env.E2E_LEGACY_KEY ?? 'null');
    assert.ok(legacy, 'the e2e runner passes the retired Ed25519 key');
    const [, payload] = (await validJwt()).split('.');
    const jwt = await new CompactSign(Buffer.from(payload ?? '', 'base64url'))
      .setProtectedHeader({ alg: 'EdDSA', kid: legacy.kid, typ: 'JWT' })
      .sign(await importJWK(legacy, 'EdDSA'));
    const jwks = /** @type {{ keys: { kid: string }[] }} */ (
      await (await fetch(`${BASE}/.well-known/jwks.json`)).json()
    );
    assert.ok(
      jwks.keys.some((k) => k.kid === legacy.kid),
      'JWKS keeps the retired key',
    );
    // The verifier checks its signature with the retired key: genuine.
    const report = /** @type {{ verdict: string; algorithm: string }} */ (
      await (
        await fetch(`${BASE}/api/credentials/verify`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ credential: jwt }),
        })
      ).json()
    );
    assert.deepEqual([report.verdict, report.algorithm], ['valid', 'EdDSA']);
    // The page also compares it with what the certificate's record serves now (the ES256
    // credential), and says so rather than calling this copy the current one.
    const checked = await verifyWith((page) => page.fill('#credential', jwt));
    assert.equal(checked.tone, 'unknown', checked.text);
    assert.match(checked.text, /Not the current credential/);
    await checked.t.done();
    // The same claims signed by another Ed25519 key under that kid: the browser checked the signature.
    const impostor = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
    const forged = await new CompactSign(Buffer.from(payload ?? '', 'base64url'))
      .setProtectedHeader({ alg: 'EdDSA', kid: legacy.kid, typ: 'JWT' })
      .sign(await importJWK(impostor, 'EdDSA'));
    const refused = await verifyWith((page) => page.fill('#credential', forged));
    assert.equal(refused.kind, 'invalid', refused.text);
    await refused.t.done();
  });

  it('/verify reads uploaded baked badges: the valid SVG from the badge route, and a revoked certificate’s PNG', async () => {
    const svg = await fetch(`${BASE}/api/certificates/${F.valid.certificateNo}/badge.svg`);
    assert.equal(svg.status, 200);
    const svgPath = join(mkdtempSync(join(tmpdir(), 'vp-badge-')), `${F.valid.certificateNo}.svg`);
    writeFileSync(svgPath, await svg.text());
    /** The file chosen: the browser sends it to POST /verify (multipart), the server reads it. */
    const upload =
      (/** @type {string} */ path) => async (/** @type {import('playwright-core').Page} */ page) => {
        await page.setInputFiles('#badge', path);
      };
    const valid = await verifyWith(upload(svgPath));
    assert.equal(valid.kind, 'valid', valid.text);
    assert.equal(valid.tone, 'verified', valid.text);
    await valid.t.done();

    // Downloaded before the revocation (the route answers 410 now): the copy still carries a
    // genuine credential, and the status says it is revoked.
    assert.equal((await fetch(`${BASE}/api/certificates/${F.revoked.certificateNo}/badge.png`)).status, 410);
    const revoked = await verifyWith(upload(F.revoked.badgePng));
    assert.equal(revoked.kind, 'revoked', revoked.text);
    assert.equal(revoked.tone, 'invalid', revoked.text);
    assert.match(revoked.text, /Revoked/);
    await shot(revoked.t.page, 'verifier-revoked');
    await revoked.t.done();
  });

  it('the holder downloads their PDF: the Devanagari name is text pdftotext finds, and the QR code opens the verify page', async () => {
    const context = await browser.newContext();
    const [name, value] = F.indic.cookie.split(/=(.*)/s);
    await context.addCookies([{ name: name ?? 'session', value: value ?? '', url: BASE }]);
    const res = await context.request.get(`${BASE}/api/me/certificates/${F.indic.certificateNo}/pdf`);
    assert.equal(res.status(), 200);
    assert.equal(res.headers()['content-type'], 'application/pdf');
    const dir = mkdtempSync(join(tmpdir(), 'vp-pdf-'));
    const file = join(dir, 'certificate.pdf');
    writeFileSync(file, await res.body());
    const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
    assert.ok(text.includes(F.indic.holder), text);
    assert.ok(text.includes(F.indic.certificateNo), text);
    assert.ok(text.includes(F.employerName), text);
    // Render the page and read its QR code (jsQR on the raw pixels of a PPM).
    execFileSync('pdftoppm', ['-r', '110', file, join(dir, 'page')]);
    const ppm = readFileSync(join(dir, 'page-1.ppm'));
    const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(ppm.subarray(0, 40).toString('latin1'));
    assert.ok(header, 'a binary PPM');
    const [width, height] = [Number(header[1]), Number(header[2])];
    const rgb = ppm.subarray(header[0].length);
    const rgba = new Uint8ClampedArray(width * height * 4);
    for (let i = 0; i < width * height; i++) {
      rgba[i * 4] = rgb[i * 3] ?? 0;
      rgba[i * 4 + 1] = rgb[i * 3 + 1] ?? 0;
      rgba[i * 4 + 2] = rgb[i * 3 + 2] ?? 0;
      rgba[i * 4 + 3] = 255;
    }
    assert.equal(jsQR(rgba, width, height)?.data, `${BASE}/verify/${F.indic.certificateNo}`);
    // Without the holder's session: 401 (another account gets 404, tested in workerd).
    const other = await browser.newContext();
    const stranger = await other.request.get(`${BASE}/api/me/certificates/${F.indic.certificateNo}/pdf`);
    assert.equal(stranger.status(), 401);
    await other.close();
    await context.close();
  });
});

describe('Open Badges API authorization page', () => {
  it('shows the client and the scopes it asks for; Allow completes the flow and the client reads the credentials', async () => {
    const scope = 'https://purl.imsglobal.org/spec/ob/v3p0/scope/credential.readonly';
    // A native client on the holder's computer: an http loopback redirect (RFC 8252 § 7.3).
    const redirect = 'http://127.0.0.1:9/callback';
    const registration = await fetch(`${BASE}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'E2E Wallet',
        client_uri: 'https://wallet.example/',
        redirect_uris: [redirect],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
        scope,
      }),
    });
    assert.equal(registration.status, 201);
    const client = /** @type {{ client_id: string; client_secret: string }} */ (await registration.json());
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const authorize = new URL(`${BASE}/oauth/authorize`);
    for (const [k, v] of Object.entries({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: redirect,
      scope,
      state: 'e2e-state',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }))
      authorize.searchParams.set(k, v);

    const { page, context, done } = await openPage();
    const [name, value] = F.indic.cookie.split(/=(.*)/s);
    await context.addCookies([{ name: name ?? 'session', value: value ?? '', url: BASE }]);
    /** @type {string | undefined} */
    let callback;
    await page.route(`${redirect}**`, (route) => {
      callback = route.request().url();
      return route.fulfill({
        status: 200,
        contentType: 'text/html',
        body: '<!doctype html><title>Done</title>',
      });
    });
    await page.goto(authorize.href);
    assert.equal(await page.locator('#client-name').textContent(), 'E2E Wallet');
    assert.equal(await page.locator('#redirect-host').textContent(), '127.0.0.1');
    assert.ok(((await page.locator('#scopes').textContent()) ?? '').includes(scope));
    // The client's own claim of a website is shown only on its redirect host's domain (issue 51):
    // this one sends access to 127.0.0.1, so wallet.example is not shown as if it were the client's.
    assert.ok(!((await page.textContent('main')) ?? '').includes('https://wallet.example/'));
    await expectAccessible(page, 'authorization page');
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await expectReflow(page, `authorization page at ${width} px`);
    }
    await shot(page, 'oauth-consent');
    await page.getByRole('button', { name: 'Allow access' }).click();
    await page.waitForURL(`${redirect}**`);
    assert.ok(callback, 'the browser came back to the client');
    const back = new URL(callback);
    assert.equal(back.searchParams.get('state'), 'e2e-state');
    const code = back.searchParams.get('code');
    assert.ok(code);

    const tokens = await fetch(`${BASE}/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirect,
        code_verifier: verifier,
      }),
    });
    assert.equal(tokens.status, 200);
    const { access_token } = /** @type {{ access_token: string }} */ (await tokens.json());
    const credentials = await fetch(`${BASE}/ims/ob/v3p0/credentials`, {
      headers: { authorization: `Bearer ${access_token}` },
    });
    assert.equal(credentials.status, 200);
    const body = /** @type {{ compactJwsString: string[] }} */ (await credentials.json());
    assert.ok(body.compactJwsString.length >= 1);
    await done();
  });
});

describe('API reference', () => {
  it('/docs renders the operations offline: only this origin is contacted, with no CSP violations', async () => {
    const t = await openPage();
    const origin = new URL(BASE).origin;
    /** @type {string[]} */
    const elsewhere = [];
    // Anything not from this origin fails, as it would with no internet access.
    await t.context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith('data:') || url.startsWith('blob:') || new URL(url).origin === origin)
        return route.continue();
      elsewhere.push(url);
      return route.abort('internetdisconnected');
    });
    await t.page.setViewportSize({ width: 1280, height: 900 }); // Scalar's desktop layout, with the sidebar
    await t.page.goto(`${BASE}/docs`, { waitUntil: 'networkidle' });
    // Operations from the document (the first group, Auth, is open) and every group in the sidebar.
    await t.page
      .getByText('Create a candidate or employer account and start a session')
      .filter({ visible: true })
      .first()
      .waitFor({ timeout: 30_000 });
    for (const group of ['Auth', 'API keys', 'Audit', 'Submissions'])
      await t.page
        .getByText(new RegExp(`^(Open|Close) Group - ${group}$`))
        .first()
        .waitFor({ state: 'attached', timeout: 10_000 });
    assert.deepEqual(elsewhere, [], 'no request leaves the origin');
    const scripts = await t.page.$$eval('script[src]', (els) => els.map((e) => e.getAttribute('src')));
    assert.ok(
      scripts.every((src) => src?.startsWith('/docs/scalar.js')),
      `scripts: ${scripts.join(', ')}`,
    );
    await t.done();
  });
});

/**
 * A foreign issuer for the browser tests: a plain http server on 127.0.0.1 (the local setting
 * WEBHOOKS_ALLOW_HTTP_LOCALHOST lets the verifier fetch loopback over http, as for webhooks).
 * A document that is a Buffer is answered as `image/png` (a baked badge by link).
 * @returns {Promise<{ url: string; documents: Map<string, unknown>; stop: () => Promise<void> }>}
 */
async function foreignIssuerHost() {
  const { createServer } = await import('node:http');
  /** @type {Map<string, unknown>} */
  const documents = new Map();
  const server = createServer((req, res) => {
    const doc = documents.get(req.url ?? '');
    if (doc === undefined) return void res.writeHead(404).end();
    if (Buffer.isBuffer(doc)) return void res.writeHead(200, { 'content-type': 'image/png' }).end(doc);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${address.port}`,
    documents,
    stop: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}

/** A 1×1 PNG with the VC-JWT baked in an iTXt chunk "openbadgecredential" (Open Badges 3.0). */
function bakedPng(/** @type {string} */ jwt) {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (/** @type {Buffer} */ bytes) => {
    let c = 0xffffffff;
    for (const b of bytes) c = (crcTable[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (/** @type {string} */ type, /** @type {Buffer} */ data) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const tail = Buffer.alloc(4);
    tail.writeUInt32BE(crc(body));
    return Buffer.concat([head, body, tail]);
  };
  const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0]);
  const idat = Buffer.from('789c63600000000200012e2c5b1b', 'hex'); // zlib of one filtered grey pixel
  const itxt = Buffer.concat([
    Buffer.from('openbadgecredential\0\0\0\0\0', 'latin1'),
    Buffer.from(jwt, 'utf8'),
  ]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', idat),
    chunk('iTXt', itxt),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
