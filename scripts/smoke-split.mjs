#!/usr/bin/env node
// A smoke test of the split production build (scripts/build-worker.mjs, decision 0326): the test
// suite runs wrangler's single bundle, so a fault only the split upload has (a `Dynamic require of
// node:fs` in a lazily loaded chunk was found by hand) would pass CI. This serves the split build
// with `wrangler dev --local` (as bench/lib/server.mjs serves it to the cold bench, static assets
// kept) on a fresh state seeded with the demo certificate (scripts/lib/seed.mjs), and asks for
// what loads each lazily imported part: the certificate page in English and Hindi, the
// verification JSON, the badge PNG (resvg) and SVG, the holder's PDF (HarfBuzz), the Open Badges
// API's discovery document, the JWKS, the leaderboard and /docs. Then it restarts the Worker
// (a fresh isolate, the payload now in KV) and asks for the page and the JSON again, the cold
// paths of decisions 0324 and 0325. Any unexpected status or body fails it with the path and
// what came back. `npm run budget` runs it after the budget (CI); alone: `node
// scripts/smoke-split.mjs`. About 40–60 s.
import { createServer } from 'node:net';
import { buildWorker, prepareState, startWorker } from '../bench/lib/server.mjs';
import { DEMO_CERTIFICATE_NO } from './lib/demo-certificate.mjs';
import { DEV_VARS, ensureDevVars } from './lib/dev-vars.mjs';
import { DEMO_CANDIDATE, seedLocalDatabase } from './lib/seed.mjs';

/** A port nothing listens on now (its inspector port, +10,000, is wrangler's to find free or not). */
async function freePort() {
  for (;;) {
    const port = await new Promise((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
      });
    });
    if (port > 1024 && port + 10_000 < 65_536) return port;
  }
}

/**
 * @typedef {{ path: string, init?: RequestInit, expect: (res: Response, body: Uint8Array) => string | null }} Probe
 * `expect`: null when the answer is right, else what is wrong with it.
 */

const text = (/** @type {Uint8Array} */ body) => new TextDecoder().decode(body);
/** Whether `body` begins with `magic` (its characters as bytes: "\x89PNG", "%PDF-"). */
const startsWith = (/** @type {Uint8Array} */ body, /** @type {string} */ magic) =>
  [...magic].every((c, i) => body[i] === c.charCodeAt(0));
const ok = (/** @type {Response} */ res) => (res.ok ? null : `status ${res.status}`);
const type = (/** @type {Response} */ res, /** @type {string} */ wanted) =>
  (res.headers.get('Content-Type') ?? '').startsWith(wanted)
    ? null
    : `Content-Type ${res.headers.get('Content-Type')}, not ${wanted}`;

/** @param {'en' | 'hi'} lang @returns {Probe} */
const page = (lang) => ({
  path: `/verify/${DEMO_CERTIFICATE_NO}?lang=${lang}`,
  expect: (res, body) =>
    ok(res) ??
    type(res, 'text/html') ??
    (text(body).includes(`<html lang="${lang}"`) && text(body).includes(DEMO_CERTIFICATE_NO)
      ? null
      : `no <html lang="${lang}"> page naming ${DEMO_CERTIFICATE_NO}`),
});

/** @type {Probe} */
const verification = {
  path: `/api/verify/${DEMO_CERTIFICATE_NO}`,
  expect: (res, body) => {
    const wrong = ok(res) ?? type(res, 'application/json');
    if (wrong) return wrong;
    const json = JSON.parse(text(body));
    return json.certificateNo === DEMO_CERTIFICATE_NO && json.valid === true
      ? null
      : 'not the demo certificate, valid';
  },
};

/** @param {string} cookie @returns {Probe[]} */
const probes = (cookie) => [
  page('en'),
  page('hi'),
  verification,
  {
    path: `/api/certificates/${DEMO_CERTIFICATE_NO}/badge.png`,
    expect: (res, body) =>
      ok(res) ?? type(res, 'image/png') ?? (startsWith(body, '\x89PNG') ? null : 'not a PNG'),
  },
  {
    path: `/api/certificates/${DEMO_CERTIFICATE_NO}/badge.svg`,
    expect: (res, body) =>
      ok(res) ?? type(res, 'image/svg+xml') ?? (text(body).includes('<svg') ? null : 'no <svg>'),
  },
  {
    path: `/api/me/certificates/${DEMO_CERTIFICATE_NO}/pdf`,
    init: { headers: { Cookie: cookie } },
    expect: (res, body) =>
      ok(res) ?? type(res, 'application/pdf') ?? (startsWith(body, '%PDF-') ? null : 'not a PDF'),
  },
  {
    path: '/ims/ob/v3p0/discovery',
    expect: (res, body) =>
      ok(res) ??
      type(res, 'application/json') ??
      (JSON.parse(text(body)).openapi ? null : 'no OpenAPI document'),
  },
  {
    // An Open Badges API error is `Imsx_StatusInfo` (src/index.ts), not problem+json.
    path: '/ims/ob/v3p0/no-such-endpoint',
    expect: (res, body) =>
      res.status === 404 && JSON.parse(text(body)).imsx_codeMajor === 'failure'
        ? null
        : `status ${res.status}, not a 404 Imsx_StatusInfo`,
  },
  {
    path: '/.well-known/jwks.json',
    expect: (res, body) => ok(res) ?? (JSON.parse(text(body)).keys?.length > 0 ? null : 'no keys'),
  },
  {
    path: '/api/leaderboard',
    expect: (res) => ok(res) ?? type(res, 'application/json'),
  },
  {
    path: '/docs',
    expect: (res, body) =>
      ok(res) ?? type(res, 'text/html') ?? (text(body).includes('<html') ? null : 'no page'),
  },
];

/**
 * Asks `url` for each probe; returns what failed.
 * @param {string} url @param {Probe[]} list @param {string} when
 */
async function run(url, list, when) {
  /** @type {string[]} */
  const failures = [];
  for (const probe of list) {
    const t = performance.now();
    let verdict;
    try {
      const res = await fetch(`${url}${probe.path}`, { ...probe.init, redirect: 'manual' });
      const body = new Uint8Array(await res.arrayBuffer());
      try {
        verdict = probe.expect(res, body);
      } catch (err) {
        verdict = `unreadable body (${err instanceof Error ? err.message : String(err)})`;
      }
      if (verdict) verdict += `: ${text(body.subarray(0, 300)).replace(/\s+/g, ' ')}`;
    } catch (err) {
      verdict = `no answer (${err instanceof Error ? err.message : String(err)})`;
    }
    console.log(
      `  ${verdict ? 'FAIL' : 'ok  '} ${when} GET ${probe.path} (${(performance.now() - t).toFixed(0)} ms)${verdict ? `: ${verdict}` : ''}`,
    );
    if (verdict) failures.push(`${when} GET ${probe.path}: ${verdict}`);
  }
  return failures;
}

/** @returns {Promise<string[]>} what failed (empty: the split build answers every probe) */
export async function smokeSplit() {
  const started = performance.now();
  ensureDevVars();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const persistTo = await prepareState('.wrangler/smoke-split-state');
  await seedLocalDatabase({ persistTo, baseUrl: url, quiet: true });
  const config = await buildWorker('wrangler.toml', '.wrangler/smoke-split-build', undefined, {
    split: true,
    assets: true,
  });
  /** @param {string} probe the first request, repeated until it succeeds (startWorker) */
  const start = (probe) =>
    startWorker({ name: 'split build', port, persistTo, config, envFile: DEV_VARS, probe });

  /** @type {string[]} */
  const failures = [];
  let worker = await start('/.well-known/jwks.json');
  try {
    const login = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: DEMO_CANDIDATE.email, password: DEMO_CANDIDATE.password }),
    });
    const session = /(?:^|,\s*)session=([^;]+)/.exec(login.headers.get('Set-Cookie') ?? '')?.[1];
    if (!login.ok || !session)
      failures.push(`POST /api/auth/login as the demo candidate: status ${login.status}`);
    failures.push(...(await run(url, probes(`session=${session ?? ''}`), 'app')));
  } finally {
    await worker.stop();
  }
  // A fresh isolate, the verification now in KV: the entry's cold paths answer first (the page,
  // the first request, is also the start's probe; neither answer loads the app).
  worker = await start(page('hi').path);
  try {
    failures.push(...(await run(url, [page('hi'), verification], 'cold')));
  } finally {
    await worker.stop();
  }
  console.log(
    `Smoke test of the split build: ${failures.length ? `${failures.length} FAILED` : 'all answered'} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
  );
  return failures;
}

if (process.argv[1]?.endsWith('smoke-split.mjs')) {
  const failures = await smokeSplit();
  for (const failure of failures) console.error(`SMOKE FAILED: ${failure}`);
  process.exit(failures.length ? 1 : 0);
}
