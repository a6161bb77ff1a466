#!/usr/bin/env node
// `npm run demo`: walks the whole product once against a running server (`npm run dev`), printing
// each step with its URL, and ends with the new certificate's /verify link.
//
//   npm run demo                               # the dev server on http://localhost:8787
//   npm run demo -- --base-url http://localhost:9301
//
// The steps are the README's recipes ("Your first credential", "A partner's API key"), call for
// call: the demo employer publishes a brief (the pillars make its rubric and playbook), the demo
// candidate submits each milestone and the AI evaluates it, the employer rates each blind, the
// final pass issues a signed certificate, which is verified and baked into a badge; then the
// admin issues a partner key and the partner calls each pillar with it. Each run makes a new brief
// and a new certificate. The admin's credentials come from .dev.vars (ADMIN_EMAIL, ADMIN_PASSWORD).
import { readDevVars } from './lib/dev-vars.mjs';

const args = process.argv.slice(2);
const at = args.findIndex((a) => a === '--base-url' || a.startsWith('--base-url='));
const given = at < 0 ? undefined : args[at].includes('=') ? args[at].split('=')[1] : args[at + 1];
const base = (given ?? process.env.VP_BASE_URL ?? 'http://localhost:8787').replace(/\/+$/, '');

const EMPLOYER = { email: 'employer@demo.local', password: 'demo-employer-password' };
const CANDIDATE = { email: 'candidate@demo.local', password: 'demo-candidate-password' };

let step = 0;
/**
 * Prints a numbered step: what it did and where.
 * @param {string} what @param {string} url @param {string} [detail]
 */
function say(what, url, detail = '') {
  step += 1;
  console.log(`${String(step).padStart(2)}. ${what}\n    ${url}${detail ? `\n    ${detail}` : ''}`);
}

class DemoError extends Error {}

/**
 * One call. Cookie-authenticated writes carry the server's own Origin (the CSRF rule); API-key calls
 * carry X-Service-Key. Fails with the problem's title and detail on an unexpected status.
 * @param {string} method
 * @param {string} path
 * @param {{ body?: unknown, cookie?: string, key?: string, expect?: number[] }} [options]
 * @returns {Promise<Omit<Response, 'json'> & { json(): Promise<any> }>} (the answers are read as the API documents them)
 */
async function call(method, path, { body, cookie, key, expect = [200, 201] } = {}) {
  /** @type {Record<string, string>} */
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (cookie) headers.cookie = cookie;
  if (cookie && method !== 'GET') headers.origin = new URL(base).origin;
  if (key) headers['x-service-key'] = key;
  let res;
  try {
    res = await fetch(`${base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (/** @type {any} */ error) {
    throw new DemoError(
      `cannot reach ${base} (${error.cause?.code ?? error.message}): start the server first with \`npm run dev\`` +
        ' (or pass --base-url).',
    );
  }
  if (!expect.includes(res.status)) {
    let problem = '';
    try {
      const p = /** @type {{ title?: string, detail?: string }} */ (await res.json());
      problem = `${p.title ?? ''}: ${p.detail ?? ''}`;
    } catch {}
    throw new DemoError(`${method} ${path} answered ${res.status} ${problem}`);
  }
  return res;
}

/**
 * Logs in and returns the session cookie.
 * @param {{ email: string, password: string }} account
 */
async function login({ email, password }) {
  const res = await call('POST', '/api/auth/login', { body: { email, password } });
  const cookie = res.headers.get('set-cookie')?.match(/session=[^;]+/)?.[0];
  if (!cookie) throw new DemoError(`login of ${email} set no session cookie`);
  return cookie;
}

/**
 * Polls `read` every half second until it returns a value (30 s at most).
 * @template T
 * @param {() => Promise<T | undefined>} read @param {string} what
 * @returns {Promise<T>}
 */
async function until(read, what) {
  const end = Date.now() + 30_000;
  while (Date.now() < end) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new DemoError(`timed out waiting for ${what}`);
}

const BRIEF = {
  title: `Build a REST API for a todo app (demo ${new Date().toISOString().slice(0, 16).replace('T', ' ')})`,
  domain: 'web-development',
  description:
    'We need a small REST API for our todo app. It must expose endpoints to create, list, update and delete tasks. ' +
    'Errors should follow RFC 9457 problem details. We expect automated tests for every endpoint. ' +
    'The service must be documented with an OpenAPI description.',
  deliverables: ['A REST API with CRUD endpoints for tasks', 'An OpenAPI description', 'A test suite'],
  successCriteria: ['Every endpoint is covered by tests', 'Errors use problem details'],
  durationDays: 14,
};
const WORK =
  'I built the REST API for the todo app with create, list, update and delete endpoints for tasks. Every error is ' +
  'returned as RFC 9457 problem details with a type, title and status. The test suite covers every endpoint, ' +
  'including validation failures and missing tasks. An OpenAPI description documents each endpoint, its ' +
  'parameters and responses, and the README explains how to run it.';

async function main() {
  console.log(`Walking the Verification Platform at ${base}\n`);
  await call('GET', '/api/health');

  // 1. The employer publishes a brief: the pillars extract its rubric and write its playbook.
  const employer = await login(EMPLOYER);
  const brief = await (await call('POST', '/api/briefs', { body: BRIEF, cookie: employer })).json();
  const milestones = brief.playbook.milestones;
  say(
    `The demo employer published a brief; its rubric has ${brief.rubric.criteria.length} criteria and its playbook ${milestones.length} milestones`,
    `${base}/api/briefs/${brief.id}`,
  );

  // 2. The candidate submits each milestone; the AI evaluates each against the rubric.
  const candidate = await login(CANDIDATE);
  const evaluations = [];
  for (const m of milestones) {
    const submitted = await (
      await call('POST', '/api/submissions', { body: { milestoneId: m.id, text: WORK }, cookie: candidate })
    ).json();
    const view = await until(async () => {
      const s = await (await call('GET', `/api/submissions/${submitted.id}`, { cookie: candidate })).json();
      return s.state === 'evaluated' || s.state === 'rated' ? s : undefined;
    }, `the evaluation of milestone "${m.title}"`);
    evaluations.push(view.evaluation.id);
    say(
      `The candidate submitted "${m.title}"; the AI evaluated it: ${view.evaluation.ai?.verdict ?? '(no AI consent)'} (${view.evaluation.ai?.overallScore ?? '–'}/5)`,
      `${base}/api/submissions/${submitted.id}`,
      `evaluation ${view.evaluation.id}`,
    );
  }

  // 3. The employer rates each evaluation blind (the AI verdict is hidden until rated); the last pass issues the certificate.
  let certificateNo = '';
  for (const id of evaluations) {
    const rated = await (
      await call('POST', `/api/evaluations/${id}/employer-rating`, {
        body: { score: 4, verdict: 'pass', comment: 'Solid work' },
        cookie: employer,
      })
    ).json();
    say(
      `The employer rated evaluation ${id} blind: pass (4/5); the AI had said ${rated.evaluation.ai?.verdict}`,
      `${base}/api/evaluations/${id}/employer-rating`,
    );
    if (rated.certificate) certificateNo = rated.certificate.certificateNo;
  }
  if (!certificateNo) throw new DemoError('the last rating issued no certificate');
  say(
    `Every milestone passed: certificate ${certificateNo} issued and signed`,
    `${base}/api/me/certificates`,
  );

  // 4. Anyone verifies it, and the badge carries the signed credential.
  const verification = await (await call('GET', `/api/verify/${certificateNo}`)).json();
  say(
    `Verified publicly: ${verification.status}, "${verification.brief.title}" by ${verification.employer.name}`,
    `${base}/api/verify/${certificateNo}`,
  );
  const badge = await call('GET', `/api/certificates/${certificateNo}/badge.png`);
  const png = new Uint8Array(await badge.arrayBuffer());
  say(
    `The badge (PNG, ${png.length.toLocaleString('en')} bytes) has the signed credential baked in`,
    badge.url,
  );

  // 5. The admin issues a partner API key; the partner calls each pillar with it.
  const vars = readDevVars();
  const admin = await login({
    email: vars.ADMIN_EMAIL ?? 'admin@demo.local',
    password: vars.ADMIN_PASSWORD ?? '',
  });
  const scopes = ['playbooks:generate', 'rubrics:generate', 'integrity:check', 'credentials:verify'];
  const issued = await (
    await call('POST', '/api/admin/api-keys', {
      body: { name: `demo partner ${Date.now()}`, scopes },
      cookie: admin,
    })
  ).json();
  const key = issued.key;
  say(
    `The admin issued a partner API key with ${scopes.join(', ')} (shown once)`,
    `${base}/api/admin/api-keys`,
  );

  const playbook = await (
    await call('POST', '/api/v1/playbooks/generate', {
      key,
      body: {
        title: BRIEF.title,
        deliverables: BRIEF.deliverables,
        successCriteria: BRIEF.successCriteria,
        durationDays: BRIEF.durationDays,
        domain: BRIEF.domain,
      },
    })
  ).json();
  say(
    `Pillar 1, playbook: ${playbook.milestones.length} milestones (engine ${playbook.engine})`,
    `${base}/api/v1/playbooks/generate`,
  );
  const rubric = await (
    await call('POST', '/api/v1/rubrics/generate', {
      key,
      body: { brief: BRIEF.description, domain: BRIEF.domain },
    })
  ).json();
  say(
    `Pillar 4, rubric: ${rubric.criteria.length} criteria (${rubric.criteria.map((/** @type {{ name: string }} */ c) => c.name).join('; ')})`,
    `${base}/api/v1/rubrics/generate`,
  );
  const integrity = await (
    await call('POST', '/api/v1/integrity/check', { key, body: { text: WORK } })
  ).json();
  say(
    `Pillar 3, integrity: score ${integrity.score}, ${integrity.verdict}`,
    `${base}/api/v1/integrity/check`,
  );
  const checked = await (
    await call('POST', '/api/v1/credentials/verify', {
      key,
      body: { credential: verification.credential.jwt },
    })
  ).json();
  say(
    `Any credential, verified by a partner: ${checked.verdict ?? checked.status}`,
    `${base}/api/v1/credentials/verify`,
  );

  console.log(`\nDone. Open the certificate a holder shares:\n  ${base}/verify/${certificateNo}`);
}

main().catch((error) => {
  console.error(`\ndemo: ${error instanceof DemoError ? error.message : (error?.stack ?? error)}`);
  process.exit(1);
});
