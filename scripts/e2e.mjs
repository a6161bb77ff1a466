#!/usr/bin/env node
// `npm run test:e2e`: the human-facing pages in a real browser. Starts the Worker with
// `wrangler dev --local` (own port and state under .wrangler/e2e) and a partner site on another
// origin, seeds data through the API, runs test/e2e/*.e2e.mjs with Node's test runner against
// Debian's Chromium (playwright-core, no browser download), writes the screenshots to
// docs/screenshots/, stops everything it started and exits non-zero on any failure.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { DOMAIN, seed } from '../test/e2e/seed.mjs';
import { freePort, startThirdParty, startWorker } from '../test/e2e/servers.mjs';
import { ensureDevVars } from './lib/dev-vars.mjs';
import { generateLegacyEd25519Key } from './lib/signing-key.mjs';
import { ROOT } from './lib/wrangler.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const started = Date.now();
const seconds = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;

if (!existsSync(CHROMIUM)) {
  console.error(
    `E2E: no Chromium at ${CHROMIUM}. Install Debian's: apt-get install -y --no-install-recommends chromium` +
      ' (or set CHROMIUM_PATH).',
  );
  process.exit(1);
}

/** @type {(() => Promise<void>)[]} */
const cleanups = [];
async function cleanup() {
  while (cleanups.length > 0)
    await cleanups
      .pop()?.()
      .catch(() => {});
}
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.once(signal, () => {
    console.error(`E2E: ${signal}, stopping`);
    void cleanup().finally(() => process.exit(130));
  });
}

let passed = 0;
let failed = 0;
let exitCode = 1;
try {
  ensureDevVars(); // the signing key and admin secrets wrangler dev requires
  const legacyKey = generateLegacyEd25519Key();
  const [port, inspectorPort, partnerPort] = [await freePort(), await freePort(), await freePort()];
  const base = `http://127.0.0.1:${port}`;
  console.log(`E2E: starting wrangler dev --local on ${base}`);
  const worker = await startWorker({
    port,
    inspectorPort,
    stateDir: '.wrangler/e2e',
    // The Worker's own origin: the issuer in credentials, the share links, the allowed Origin.
    // A retired Ed25519 key, as production lists its pre-ES256 key: the JWKS publishes it, so a
    // credential it signed (made by the tests) must still verify in the browser.
    vars: {
      PUBLIC_BASE_URL: base,
      ALLOWED_ORIGINS: base,
      CERT_PREVIOUS_PUBLIC_KEYS: JSON.stringify([legacyKey.publicJwk]),
    },
  });
  cleanups.push(worker.stop);
  const partner = await startThirdParty({ port: partnerPort, workerUrl: base, domain: DOMAIN });
  cleanups.push(partner.stop);
  console.log(`E2E: partner site on ${partner.url}; seeding through the API (${seconds()})`);
  const fixtures = await seed(base);
  console.log(`E2E: seeded (${seconds()}); running the browser tests`);

  const screenshots = join(ROOT, 'docs', 'screenshots');
  Object.assign(process.env, {
    E2E_BASE_URL: base,
    E2E_PARTNER_URL: partner.url,
    E2E_FIXTURES: JSON.stringify(fixtures),
    E2E_LEGACY_KEY: legacyKey.secret,
    E2E_SCREENSHOTS: screenshots,
    CHROMIUM_PATH: CHROMIUM,
  });
  const stream = run({
    files: [join(ROOT, 'test', 'e2e', 'pages.e2e.mjs'), join(ROOT, 'test', 'e2e', 'me.e2e.mjs')],
    concurrency: 1,
    // The whole file (one Worker, 20 browser tests); on a loaded 2-core machine it nears two minutes.
    // A file's whole run; on a shared two-core machine the pages' walk at three widths takes minutes.
    timeout: 600_000,
  });
  stream.on('test:pass', (event) => {
    if (event.details.type !== 'suite') passed += 1;
  });
  stream.on('test:fail', (event) => {
    if (event.details.type !== 'suite') failed += 1;
  });
  await new Promise((resolve, reject) => {
    const out = stream.compose(spec);
    out.on('error', reject);
    out.on('end', resolve);
    out.pipe(process.stdout, { end: false });
  });
  if (passed === 0 && failed === 0) failed = 1; // a run that ran nothing is a failure
  exitCode = failed === 0 ? 0 : 1;
  if (exitCode === 0) console.log(`E2E: screenshots in ${screenshots}`);
} catch (err) {
  console.error('E2E: setup failed:', err);
  failed = Math.max(failed, 1);
} finally {
  await cleanup();
}

mkdirSync(join(ROOT, 'test-results'), { recursive: true });
writeFileSync(join(ROOT, 'test-results', 'e2e.json'), JSON.stringify({ passed, failed }));
console.log(`E2E: ${passed} passed, ${failed} failed (${seconds()})`);
process.exit(exitCode);
