#!/usr/bin/env node
// Black-box check that self-URLs follow the deployment: `npm run dev -- --port <free port>` (on
// a temporary state directory) must put that port in the OpenAPI server URL, the JWKS URL of a
// verification, and the issuer of the demo certificate's freshly signed credential. Also checks
// that a public read answers a CORS preflight. Writes test-results/blackbox-dev-port.json (summed by test/blackbox/run.mjs).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse } from 'yaml';
import { DEMO_CERTIFICATE_NO } from '../../scripts/lib/demo-certificate.mjs';
import { ROOT } from '../../scripts/lib/wrangler.mjs';
import { freePort } from '../e2e/servers.mjs';

const port = await freePort();
const inspectorPort = await freePort();
const stateDir = join(ROOT, '.wrangler', `blackbox-dev-port-${process.pid}`);
rmSync(stateDir, { recursive: true, force: true });
const base = `http://localhost:${port}`;
const url = `http://127.0.0.1:${port}`;

/** @type {{ name: string, ok: boolean, detail?: string }[]} */
const results = [];
/** @param {string} name @param {() => Promise<void>} fn */
async function check(name, fn) {
  try {
    await fn();
    results.push({ name, ok: true });
    console.log(`  ✓ ${name}`);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    results.push({ name, ok: false, detail });
    console.log(`  ✗ ${name}: ${detail}`);
  }
}
/** @param {unknown} actual @param {unknown} expected @param {string} what */
function equal(actual, expected, what) {
  if (actual !== expected) throw new Error(`${what}: expected ${String(expected)}, got ${String(actual)}`);
}

// The mail provider's double: the service delivers mail by POSTing { to, subject, text } to
// MAIL_WEBHOOK_URL (src/services/mail.ts), so an address can be confirmed the way a person does,
// by following the link in the message.
/** @type {{ to: string, subject: string, text: string }[]} */
const mailbox = [];
const mailServer = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => {
    body += chunk;
  });
  req.on('end', () => {
    try {
      mailbox.push(JSON.parse(body));
      res.writeHead(202).end();
    } catch {
      res.writeHead(400).end();
    }
  });
});
await new Promise((resolve) => mailServer.listen(0, '127.0.0.1', () => resolve(undefined)));
const mailAddress = mailServer.address();
const mailUrl = `http://127.0.0.1:${typeof mailAddress === 'object' && mailAddress ? mailAddress.port : 0}/mail`;
/** The link in the newest message to `to` whose subject contains `subject`, once it arrives. */
async function linkMailedTo(/** @type {string} */ to, /** @type {string} */ subject) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const message = mailbox.findLast((m) => m.to === to && m.subject.includes(subject));
    const link = message?.text.match(/https?:\/\/\S+/)?.[0];
    if (link) return link;
    if (Date.now() > deadline) throw new Error(`no "${subject}" mail to ${to} within 60 s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * A GET with exactly the `Accept-Encoding` given (fetch would add its own and decode), and the
 * bytes as they crossed the wire.
 * @param {string} path @param {string | undefined} acceptEncoding
 * @returns {Promise<{ status: number, encoding: string | undefined, bytes: Buffer }>}
 */
function rawGet(path, acceptEncoding) {
  return new Promise((resolve, reject) => {
    const headers = acceptEncoding === undefined ? {} : { 'Accept-Encoding': acceptEncoding };
    httpGet(`${url}${path}`, { headers }, (res) => {
      /** @type {Buffer[]} */
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          encoding: /** @type {string | undefined} */ (res.headers['content-encoding']),
          bytes: Buffer.concat(chunks),
        }),
      );
      res.on('error', reject);
    }).on('error', reject);
  });
}

/**
 * Runs the README's recipe marked `<!-- recipe:NAME … -->` (the sh block after the marker) with bash,
 * its base URL replaced by this server's; fails on a non-zero exit (the recipes pipe into jq, which
 * fails on a problem answer).
 * @param {string} name @param {string} cwd
 */
function runRecipe(name, cwd) {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const at = readme.indexOf(`<!-- recipe:${name}`);
  if (at < 0) throw new Error(`README.md has no recipe:${name}`);
  const start = readme.indexOf('```sh\n', at) + '```sh\n'.length;
  const script = readme.slice(start, readme.indexOf('```', start));
  if (!script.includes('BASE=http://localhost:8787')) throw new Error(`recipe:${name} does not set BASE`);
  const run = spawnSync(
    'bash',
    ['-euo', 'pipefail', '-c', script.replace('BASE=http://localhost:8787', `BASE=${base}`)],
    {
      cwd,
      encoding: 'utf8',
      timeout: 180_000,
    },
  );
  equal(
    run.status,
    0,
    `recipe:${name} (stderr: ${(run.stderr ?? '').trim().slice(0, 300)}; stdout: ${(run.stdout ?? '').slice(-300)})`,
  );
  return run;
}

console.log(`dev-port: npm run dev -- --port ${port} (state in ${stateDir})`);
const child = spawn(
  process.execPath,
  [
    join(ROOT, 'scripts', 'dev.mjs'),
    '--port',
    String(port),
    '--persist-to',
    stateDir,
    '--ip',
    '127.0.0.1',
    '--inspector-port',
    String(inspectorPort),
    '--log-level',
    'error',
    '--show-interactive-dev-session=false',
    '--var',
    `MAIL_WEBHOOK_URL:${mailUrl}`,
  ],
  { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'], detached: true, env: { ...process.env, CI: 'true' } },
);
const stop = () => {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
};
process.once('exit', stop);

try {
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm run dev exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error('the dev server did not answer within 240 s');
    const res = await fetch(`${url}/openapi.yaml`).catch(() => undefined);
    if (res?.ok) {
      await res.arrayBuffer();
      break;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }

  await check('the OpenAPI server URL is the dev port', async () => {
    const doc = parse(await (await fetch(`${url}/openapi.yaml`)).text());
    equal(doc.servers?.[0]?.url, base, 'servers[0].url');
  });

  await check('the demo certificate verifies with the JWKS URL and issuer of the dev port', async () => {
    const res = await fetch(`${url}/api/verify/${DEMO_CERTIFICATE_NO}`);
    equal(res.status, 200, `GET /api/verify/${DEMO_CERTIFICATE_NO}`);
    const body = /** @type {{ status: string, jwksUrl: string, credential: { jwt: string } }} */ (
      await res.json()
    );
    equal(body.status, 'active', 'status');
    equal(body.jwksUrl, `${base}/.well-known/jwks.json`, 'jwksUrl');
    const [header = '', payload = ''] = String(body.credential.jwt).split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const { kid = '' } = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
    // Open Badges 3.0: the issuer is the organisation's Profile and the kid the key's URL, both here.
    if (!String(claims.issuer?.id).startsWith(`${base}/ob/issuers/`))
      throw new Error(`credential issuer.id ${claims.issuer?.id} is not under ${base}/ob/issuers/`);
    equal(claims.iss, claims.issuer.id, 'credential iss');
    if (!String(kid).startsWith(`${base}/ob/keys/`))
      throw new Error(`kid ${kid} is not under ${base}/ob/keys/`);
    const profile = await fetch(claims.issuer.id);
    equal(profile.status, 200, `GET ${claims.issuer.id}`);
    const key = await fetch(kid);
    equal(key.status, 200, `GET ${kid}`);
  });

  await check('the verification page links the dev port', async () => {
    const res = await fetch(`${url}/verify/${DEMO_CERTIFICATE_NO}`, { headers: { Accept: 'text/html' } });
    equal(res.status, 200, 'GET /verify/…');
    const html = await res.text();
    if (!html.includes(`${base}/verify/${DEMO_CERTIFICATE_NO}`))
      throw new Error('share link not on the dev port');
  });

  await check(
    'public reads come gzipped to a browser and as is to a client that asks for no gzip',
    async () => {
      for (const path of [
        `/api/verify/${DEMO_CERTIFICATE_NO}`,
        '/.well-known/jwks.json',
        '/api/leaderboard',
      ]) {
        const browser = await rawGet(path, 'gzip, deflate, br, zstd');
        equal(browser.status, 200, `GET ${path} (browser)`);
        equal(browser.encoding, 'gzip', `Content-Encoding of ${path} to a browser`);
        const json = gunzipSync(browser.bytes).toString('utf8');
        JSON.parse(json);
        for (const header of [undefined, 'identity', 'br;q=0, gzip;q=0']) {
          const plain = await rawGet(path, header);
          equal(plain.status, 200, `GET ${path} (Accept-Encoding: ${header ?? 'none'})`);
          equal(
            plain.encoding,
            undefined,
            `Content-Encoding of ${path} (Accept-Encoding: ${header ?? 'none'})`,
          );
          equal(
            plain.bytes.toString('utf8'),
            json,
            `the body of ${path} (Accept-Encoding: ${header ?? 'none'})`,
          );
        }
      }
    },
  );

  await check('a public read answers a CORS preflight', async () => {
    const res = await fetch(`${url}/api/leaderboard`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://partner.example',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'if-none-match',
      },
    });
    equal(res.status, 204, 'OPTIONS /api/leaderboard');
    equal(res.headers.get('access-control-allow-origin'), '*', 'Access-Control-Allow-Origin');
  });

  await check("the README's cookie write: 201 with the server's Origin, 403 without", async () => {
    const login = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'candidate@demo.local', password: 'demo-candidate-password' }),
    });
    equal(login.status, 200, 'POST /api/auth/login');
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const consent = (/** @type {Record<string, string>} */ extra) =>
      fetch(`${url}/api/consent`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Cookie: cookie, ...extra },
        body: JSON.stringify({ purpose: 'leaderboard', action: 'grant', noticeVersion: 'v2' }),
      });
    equal((await consent({})).status, 403, 'without Origin');
    equal((await consent({ Origin: base })).status, 201, `with Origin: ${base}`);
  });

  await check(
    "the README's demo accounts are confirmed (they may approve, join and prove at once)",
    async () => {
      for (const role of ['candidate', 'employer']) {
        const login = await fetch(`${url}/api/auth/login`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ email: `${role}@demo.local`, password: `demo-${role}-password` }),
        });
        equal(login.status, 200, `POST /api/auth/login (${role})`);
        const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
        const me = /** @type {{ emailConfirmed: boolean }} */ (
          await (await fetch(`${url}/api/me`, { headers: { Cookie: cookie } })).json()
        );
        equal(me.emailConfirmed, true, `${role}@demo.local emailConfirmed`);
      }
    },
  );

  await check(
    "an organisation proves its domain through the dev server's DNS double (port + 1)",
    async () => {
      const domain = `proof-${Date.now()}.example`;
      const signup = await fetch(`${url}/api/auth/signup`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': '198.51.100.7' },
        body: JSON.stringify({
          email: `recruiter@${domain}`,
          password: 'a-long-enough-password',
          name: 'Dev Recruiter',
          role: 'employer',
          dateOfBirth: '1990-01-01',
          organisation: { name: `Proof ${domain}` },
        }),
      });
      equal(signup.status, 201, 'POST /api/auth/signup');
      const cookie = (signup.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      // Proving a domain takes a confirmed address at it: follow the link the signup mailed.
      const link = await linkMailedTo(`recruiter@${domain}`, 'Confirm');
      // The link opens a page (a GET changes nothing); its button POSTs the token, as a person does.
      const page = await fetch(link.replace(base, url), { headers: { accept: 'text/html' } });
      equal(page.status, 200, 'GET the confirmation link (its page)');
      const token = new URL(link).searchParams.get('token') ?? '';
      const confirmed = await fetch(`${url}/api/auth/email-confirmation`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: base },
        body: new URLSearchParams({ token }).toString(),
        redirect: 'manual',
      });
      if (confirmed.status >= 400) throw new Error(`POST the confirmation page's form: ${confirmed.status}`);
      const post = (/** @type {string} */ path) =>
        fetch(`${url}${path}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Cookie: cookie, Origin: base },
          body: JSON.stringify({ domain }),
        });
      const started = await post('/api/me/organisation/domain-verification');
      equal(started.status, 201, 'POST …/domain-verification');
      const { challenge } = /** @type {{ challenge: { recordName: string, recordValue: string } }} */ (
        await started.json()
      );
      const published = await fetch(`http://127.0.0.1:${port + 1}/records`, {
        method: 'PUT',
        body: JSON.stringify({ name: challenge.recordName, values: [challenge.recordValue] }),
      });
      equal(published.status, 204, 'PUT /records on the DNS double');
      const checked = await post('/api/me/organisation/domain-verification/check');
      equal(checked.status, 200, 'POST …/domain-verification/check');
      const body = /** @type {{ organisation: { verification: string } }} */ (await checked.json());
      equal(body.organisation.verification, 'verified', 'verification');
    },
  );

  await check("the typed client's example runs as documented (`npm run client:example`)", async () => {
    const login = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'admin@demo.local', password: 'demo-admin-password' }),
    });
    equal(login.status, 200, 'POST /api/auth/login (admin)');
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const issued = await fetch(`${url}/api/admin/api-keys`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: cookie, Origin: base },
      body: JSON.stringify({ name: 'client example', scopes: ['playbooks:generate', 'rubrics:generate'] }),
    });
    equal(issued.status, 201, 'POST /api/admin/api-keys');
    const { key } = /** @type {{ key: string }} */ (await issued.json());
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const run = spawnSync(npm, ['run', '--silent', 'client:example'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, VP_BASE_URL: base, VP_API_KEY: key },
      timeout: 60_000,
    });
    equal(run.status, 0, `npm run client:example (stderr: ${run.stderr.trim().slice(0, 300)})`);
    for (const line of ['milestones (engine:', 'retry replayed: true', 'criteria, pass at'])
      if (!run.stdout.includes(line)) throw new Error(`output lacks "${line}": ${run.stdout.slice(0, 300)}`);
  });

  // The README's recipes (issue 55), exactly as written there, with the base URL of this server.
  await check("the README's first-credential recipe issues a certificate that verifies", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vp-recipe-'));
    try {
      const run = runRecipe('first-credential', dir);
      const last = run.stdout.trim().split('\n').at(-1) ?? '';
      const no = last.match(/\/verify\/(VP-[0-9A-Z-]+)$/)?.[1];
      if (!no) throw new Error(`the recipe did not end with a /verify link: ${run.stdout.slice(-300)}`);
      const verified = /** @type {{ status: string }} */ (
        await (await fetch(`${url}/api/verify/${no}`)).json()
      );
      equal(verified.status, 'active', `GET /api/verify/${no}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  await check("the README's API-key recipe calls the pillars and the typed client's example", async () => {
    const run = runRecipe('api-key', ROOT);
    for (const line of ['"A REST API"', 'retry replayed: true', 'criteria, pass at'])
      if (!run.stdout.includes(line)) throw new Error(`output lacks ${line}: ${run.stdout.slice(0, 400)}`);
  });
  await check(
    '`npm run demo -- --base-url` walks the product and ends with a certificate that verifies',
    async () => {
      const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
      const run = spawnSync(npm, ['run', '--silent', 'demo', '--', '--base-url', base], {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 180_000,
      });
      equal(run.status, 0, `npm run demo (stderr: ${run.stderr.trim().slice(0, 300)})`);
      const no = run.stdout.trim().match(/\/verify\/(VP-[0-9A-Z-]+)$/)?.[1];
      if (!no) throw new Error(`npm run demo did not end with a /verify link: ${run.stdout.slice(-300)}`);
      const verified = /** @type {{ status: string }} */ (
        await (await fetch(`${url}/api/verify/${no}`)).json()
      );
      equal(verified.status, 'active', `GET /api/verify/${no}`);
    },
  );
} catch (error) {
  results.push({ name: 'dev server', ok: false, detail: String(error) });
  console.log(`  ✗ dev server: ${String(error)}`);
} finally {
  stop();
  mailServer.close();
  rmSync(stateDir, { recursive: true, force: true });
}

const passed = results.filter((r) => r.ok).length;
const failed = results.length - passed;
mkdirSync(join(ROOT, 'test-results'), { recursive: true });
writeFileSync(
  join(ROOT, 'test-results', 'blackbox-dev-port.json'),
  JSON.stringify({ passed, failed, results }, null, 2),
);
console.log(`dev-port: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
