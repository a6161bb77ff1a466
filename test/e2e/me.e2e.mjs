// End-to-end tests of the holder's home (`/me`) in Debian's Chromium, driven by playwright-core:
// signed out (the sign-in page) and signed in (every section), at 320, 375 and 1280 px with
// axe-core and the reflow check; and its forms with JavaScript off (they are plain HTML forms).
// Run by scripts/e2e.mjs (`npm run test:e2e`), after the pages' file, with the same fixtures.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium } from 'playwright-core';

const BASE = process.env.E2E_BASE_URL ?? '';
const SCREENSHOTS = process.env.E2E_SCREENSHOTS ?? '';
const UPDATE = process.env.UPDATE_SCREENSHOTS === '1';
/** @type {import('./seed.mjs').Fixtures} */
const F = JSON.parse(process.env.E2E_FIXTURES ?? 'null');
if (!BASE || !F) throw new Error('run the end-to-end tests with `npm run test:e2e`');

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WIDTHS = [320, 375, 1280];

/** @type {import('playwright-core').Browser} */
let browser;

before(async () => {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
});

after(async () => {
  await browser?.close();
});

/**
 * A fresh context (optionally signed in with a session cookie, optionally without JavaScript)
 * that records script errors and failed responses.
 * @param {{ cookie?: string; width?: number; javaScriptEnabled?: boolean }} [o]
 */
async function openPage(o = {}) {
  const context = await browser.newContext({
    viewport: { width: o.width ?? 1280, height: 900 },
    javaScriptEnabled: o.javaScriptEnabled ?? true,
  });
  if (o.cookie) {
    const [name, ...value] = o.cookie.split('=');
    await context.addCookies([{ name: name ?? 'session', value: value.join('='), url: BASE }]);
  }
  const page = await context.newPage();
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
  });
  page.on('response', (res) => {
    if (res.status() >= 400) errors.push(`response: ${res.status()} ${res.url()}`);
  });
  return {
    page,
    async done() {
      await context.close();
      assert.deepEqual(errors, [], 'no script errors or failed requests');
    },
  };
}

/** axe-core (WCAG 2.1 AA rules): no serious or critical violation. @param {import('playwright-core').Page} page @param {string} label */
async function expectAccessible(page, label) {
  await page.evaluate(AXE_SOURCE);
  /** @type {{ id: string; impact: string; nodes: { target: string[] }[] }[]} */
  const violations = await page.evaluate(async () => {
    /** @type {any} */
    const window = globalThis;
    const result = await window.axe.run(window.document, { resultTypes: ['violations'] });
    return result.violations.map((/** @type {any} */ v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.map((/** @type {any} */ n) => ({ target: n.target })),
    }));
  });
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(serious, [], `${label}: axe-core found serious or critical violations`);
}

/** Nothing scrolls sideways (WCAG 1.4.10). @param {import('playwright-core').Page} page @param {string} label */
async function expectReflow(page, label) {
  const [scrollWidth, innerWidth] = await page.evaluate(() => {
    /** @type {any} */
    const window = globalThis;
    return [window.document.scrollingElement.scrollWidth, window.innerWidth];
  });
  assert.ok(scrollWidth <= innerWidth, `${label}: scrolls sideways (${scrollWidth} > ${innerWidth})`);
}

/** @param {import('playwright-core').Page} page @param {string} name */
async function shot(page, name) {
  if (UPDATE) await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

describe('the holder’s home (/me)', () => {
  it('signed out: the sign-in page, at every width', async () => {
    for (const width of WIDTHS) {
      const t = await openPage({ width });
      const res = await t.page.goto(`${BASE}/me`);
      assert.equal(res?.status(), 200);
      assert.equal(await t.page.locator('form[action^="/me/sign-in"]').count(), 1);
      await expectReflow(t.page, `/me signed out at ${width}px`);
      await expectAccessible(t.page, `/me signed out at ${width}px`);
      await shot(t.page, `me-signed-out-${width}`);
      await t.done();
    }
  });

  it('signed in: every section, at every width', async () => {
    for (const width of WIDTHS) {
      const t = await openPage({ width, cookie: F.indic.cookie });
      const res = await t.page.goto(`${BASE}/me`);
      assert.equal(res?.status(), 200);
      for (const id of [
        'certificates',
        'learner-record',
        'public-name',
        'consents',
        'applications',
        'wallets',
        'digilocker',
        'email',
      ])
        assert.equal(await t.page.locator(`section#${id}`).count(), 1, `section ${id}`);
      assert.match((await t.page.locator('h1').textContent()) ?? '', new RegExp(F.indic.holder));
      assert.equal(
        (await t.page.locator(`#certificates a[href="/verify/${F.indic.certificateNo}"]`).count()) > 0,
        true,
      );
      await expectReflow(t.page, `/me signed in at ${width}px`);
      await expectAccessible(t.page, `/me signed in at ${width}px`);
      await shot(t.page, `me-signed-in-${width}`);
      await t.done();
    }
  });

  it('works without JavaScript: sign in, grant and withdraw a consent, with a banner each time', async () => {
    // A fresh holder, so the fixtures' consents (the leaderboard's) stay as they are.
    const email = `e2e-me-${Date.now().toString(36)}@example.test`;
    const password = 'an-e2e-password-123';
    const signup = await fetch(`${BASE}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': '198.51.100.250' },
      body: JSON.stringify({
        email,
        password,
        name: 'Nojs Holder',
        role: 'candidate',
        dateOfBirth: '1990-01-01',
      }),
    });
    assert.equal(signup.status, 201);
    const t = await openPage({ width: 375, javaScriptEnabled: false });
    await t.page.goto(`${BASE}/me`);
    await t.page.fill('#email', email);
    await t.page.fill('#password', password);
    await Promise.all([t.page.waitForURL(/\/me\?lang=en&notice=signed-in/), t.page.click('#sign-in button')]);
    assert.match((await t.page.locator('h1').textContent()) ?? '', /Nojs Holder/);
    const form = t.page.locator('#consent-ai_evaluation form');
    await Promise.all([t.page.waitForURL(/notice=consent-granted/), form.locator('button').click()]);
    assert.match((await t.page.locator('#banner').textContent()) ?? '', /Consent granted/);
    assert.match((await t.page.locator('#consent-ai_evaluation').textContent()) ?? '', /Granted/);
    // (axe-core needs script: the banners' accessibility is checked in the test below.)
    await expectReflow(t.page, '/me with a banner at 375px');
    await Promise.all([
      t.page.waitForURL(/notice=consent-withdrawn/),
      t.page.locator('#consent-ai_evaluation form button').click(),
    ]);
    assert.match((await t.page.locator('#consent-ai_evaluation').textContent()) ?? '', /Withdrawn/);
    await t.done();
  });

  it('in Hindi: the home at every width, and its forms come back in Hindi (without JavaScript)', async () => {
    for (const width of WIDTHS) {
      const t = await openPage({ width, cookie: F.indic.cookie });
      await t.page.goto(`${BASE}/me?lang=hi`);
      assert.equal(await t.page.getAttribute('html', 'lang'), 'hi');
      assert.equal(await t.page.locator('#footer-account').textContent(), 'आपके प्रमाणपत्र');
      await expectReflow(t.page, `/me in Hindi at ${width}px`);
      await expectAccessible(t.page, `/me in Hindi at ${width}px`);
      await shot(t.page, `me-signed-in-hi-${width}`);
      await t.done();
    }
    const email = `e2e-me-hi-${Date.now().toString(36)}@example.test`;
    const password = 'an-e2e-password-456';
    const signup = await fetch(`${BASE}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': '198.51.100.251' },
      body: JSON.stringify({
        email,
        password,
        name: 'Hindi Holder',
        role: 'candidate',
        dateOfBirth: '1990-01-01',
      }),
    });
    assert.equal(signup.status, 201);
    const t = await openPage({ width: 320, javaScriptEnabled: false });
    await t.page.goto(`${BASE}/me?lang=hi`);
    await t.page.fill('#email', email);
    await t.page.fill('#password', password);
    await Promise.all([t.page.waitForURL(/\/me\?lang=hi&notice=signed-in/), t.page.click('#sign-in button')]);
    assert.equal(await t.page.getAttribute('html', 'lang'), 'hi');
    await Promise.all([
      t.page.waitForURL(/\/me\?lang=hi&notice=consent-granted/),
      t.page.locator('#consent-ai_evaluation form button').click(),
    ]);
    assert.equal(await t.page.getAttribute('html', 'lang'), 'hi');
    assert.match((await t.page.locator('#banner').textContent()) ?? '', /सहमति/);
    await expectReflow(t.page, '/me in Hindi with a banner at 320px');
    await t.done();
  });

  it('the banners (a success signed in, an error signed out) at every width', async () => {
    for (const width of WIDTHS) {
      for (const [cookie, query, label] of [
        [F.indic.cookie, '?notice=consent-granted', 'success'],
        [undefined, '?error=sign-in-failed', 'error'],
      ]) {
        const t = await openPage({ width, ...(cookie ? { cookie } : {}) });
        await t.page.goto(`${BASE}/me${query}`);
        assert.equal(await t.page.locator('#banner').count(), 1);
        await expectReflow(t.page, `/me ${label} banner at ${width}px`);
        await expectAccessible(t.page, `/me ${label} banner at ${width}px`);
        await t.done();
      }
    }
  });
});
