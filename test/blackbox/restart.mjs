#!/usr/bin/env node
// Black-box: a crash right after an erasure's 202 no longer leaves it `in_progress` forever.
//
// 1. `wrangler dev --local --test-scheduled` on a fresh state directory, with the job consumer
//    paused (JOBS_PAUSED=true), so the erasure's queue message cannot be consumed in time;
// 2. through the public API: an employer, a candidate who consents, a brief, a submission
//    (evaluated), a pass rating: a certificate that verifies with the candidate's name;
// 3. DELETE /api/dsr/erasure → 202; the certificate already answers 404;
// 4. SIGKILL the whole process group at once (the queue message dies with it);
// 5. restart on the same persisted state, consumer running; the receipt is still `in_progress`
//    and nothing retries it until the cron runs: GET /__scheduled runs the sweeper, which
//    re-enqueues the job; the receipt reaches `completed` and the certificate answers 404.
//
// Prints one PASS/FAIL line and writes test-results/blackbox-restart.json ({ passed, failed }),
// summed by test/blackbox/run.mjs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDevVars } from '../../scripts/lib/dev-vars.mjs';
import { ROOT } from '../../scripts/lib/wrangler.mjs';
import { freePort, startWorker } from '../e2e/servers.mjs';

const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
const STATE = '.wrangler/blackbox';
const log = (/** @type {string} */ msg) => console.log(`BLACKBOX: ${msg} (${elapsed()})`);

/** @type {(() => Promise<void>)[]} */
const cleanups = [];

/** @param {string} base */
function client(base) {
  /**
   * @param {string} path
   * @param {{ method?: string; body?: unknown; cookie?: string; expect?: number }} [o]
   */
  return async function api(path, { method = 'GET', body, cookie, expect = 200 } = {}) {
    /** @type {Record<string, string>} */
    const headers = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (cookie) Object.assign(headers, { cookie, origin: base });
    const res = await fetch(`${base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== expect)
      throw new Error(`${method} ${path}: expected ${expect}, got ${res.status} ${text}`);
    return { json: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : null, res };
  };
}

/** @param {() => Promise<boolean>} check @param {number} timeoutMs */
async function until(check, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

let passed = 0;
let failed = 0;
try {
  ensureDevVars();
  const [port, inspectorPort] = [await freePort(), await freePort()];
  const base = `http://127.0.0.1:${port}`;
  const vars = { PUBLIC_BASE_URL: base, ALLOWED_ORIGINS: base, JOB_LEASE_SECONDS: '1' };
  log(`starting wrangler dev on ${base}, job consumer paused`);
  const first = await startWorker({
    port,
    inspectorPort,
    stateDir: STATE,
    vars: { ...vars, JOBS_PAUSED: 'true' },
    args: ['--test-scheduled'],
  });
  cleanups.push(first.stop);
  const api = client(base);

  /** @param {'candidate' | 'employer'} role @param {string} name */
  const signup = async (role, name) => {
    const email = `blackbox-${role}-${Date.now().toString(36)}@example.test`;
    const { res } = await api('/api/auth/signup', {
      method: 'POST',
      body: { email, password: 'a-blackbox-password-123', name, role, dateOfBirth: '1990-01-01' },
      expect: 201,
    });
    return (res.headers.getSetCookie().find((c) => c.startsWith('session=')) ?? '').split(';')[0] ?? '';
  };
  const employer = await signup('employer', 'Blackbox Employer');
  const candidate = await signup('candidate', 'Restart Person');
  for (const purpose of ['ai_evaluation', 'leaderboard', 'public_verification'])
    await api('/api/consent', {
      method: 'POST',
      cookie: candidate,
      body: { purpose, action: 'grant', noticeVersion: 'v2' },
      expect: 201,
    });
  const { json: brief } = await api('/api/briefs', {
    method: 'POST',
    cookie: employer,
    expect: 201,
    body: {
      title: 'Build a REST API for a todo app',
      domain: 'web-development',
      description:
        'We need a small REST API for our todo app. It must expose endpoints to create, list, update and delete tasks. ' +
        'Errors should follow RFC 9457 problem details. We expect automated tests for every endpoint.',
      deliverables: ['A REST API with CRUD endpoints for tasks', 'A test suite'],
      successCriteria: ['Every endpoint is covered by tests', 'Errors use problem details'],
      durationDays: 1,
    },
  });
  const { json: submission } = await api('/api/submissions', {
    method: 'POST',
    cookie: candidate,
    expect: 201,
    body: {
      milestoneId: brief.playbook.milestones.at(-1).id,
      text:
        'I built the REST API for the todo app with create, list, update and delete endpoints for tasks. ' +
        'Every error is returned as RFC 9457 problem details. The test suite covers every endpoint.',
    },
  });
  // The evaluation is a job too, run in the request's waitUntil (the paused consumer does not matter).
  const evaluated = await until(
    async () =>
      (await api(`/api/submissions/${submission.id}`, { cookie: candidate })).json.state === 'evaluated',
    30_000,
  );
  if (!evaluated) throw new Error('the submission was not evaluated');
  const { json: rated } = await api(`/api/evaluations/${submission.evaluationId}/employer-rating`, {
    method: 'POST',
    cookie: employer,
    body: { score: 5, verdict: 'pass' },
    expect: 201,
  });
  const certificateNo = rated.certificate.certificateNo;
  const { json: verified } = await api(`/api/verify/${certificateNo}`);
  if (verified.holder?.name !== 'Restart Person') throw new Error('the certificate does not show its holder');
  log(`certificate ${certificateNo} verifies with the holder's name`);

  const { json: receipt } = await api('/api/dsr/erasure', {
    method: 'DELETE',
    cookie: candidate,
    expect: 202,
  });
  await api(`/api/verify/${certificateNo}`, { expect: 404 });
  await first.kill();
  log(`202 for erasure ${receipt.requestId}; certificate already 404; wrangler killed with SIGKILL`);

  const second = await startWorker({
    port,
    inspectorPort,
    stateDir: STATE,
    vars,
    fresh: false,
    args: ['--test-scheduled'],
  });
  cleanups.push(second.stop);
  const receiptState = async () => (await api(`/api/dsr/erasure/${receipt.requestId}`)).json.state;
  // Longer than the queue's batch timeout: the message died with the first process.
  await new Promise((r) => setTimeout(r, 6000));
  const afterRestart = await receiptState();
  if (afterRestart !== 'in_progress')
    throw new Error(`after the restart the receipt is ${afterRestart}, expected in_progress`);
  log('restarted on the same state: the receipt is still in_progress; running the cron');

  await api('/__scheduled?cron=*/15+*+*+*+*');
  const completed = await until(async () => (await receiptState()) === 'completed', 60_000);
  if (!completed) throw new Error(`the receipt did not complete after the sweep (${await receiptState()})`);
  await api(`/api/verify/${certificateNo}`, { expect: 404 });
  log('after the sweep the receipt is completed and the certificate answers 404');
  passed = 1;
  console.log(`BLACKBOX restart: PASS (${elapsed()})`);
} catch (err) {
  failed = 1;
  console.error(`BLACKBOX restart: FAIL: ${err instanceof Error ? err.message : String(err)} (${elapsed()})`);
} finally {
  while (cleanups.length > 0)
    await cleanups
      .pop()?.()
      .catch(() => {});
  mkdirSync(join(ROOT, 'test-results'), { recursive: true });
  writeFileSync(join(ROOT, 'test-results', 'blackbox-restart.json'), JSON.stringify({ passed, failed }));
}
process.exit(failed ? 1 : 0);
