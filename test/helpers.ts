import { SELF } from 'cloudflare:test';
import { expect } from 'vitest';
import { assertDocumentedResponse } from './response-validation';

export const BASE = 'http://localhost:8787';

/**
 * A request through the Worker's real entry point (the whole middleware stack). The response
 * is checked against the generated OpenAPI document (test/response-validation.ts): an
 * undocumented status, content type or body shape throws here, failing the calling test.
 */
export async function call(path: string, init: RequestInit = {}): Promise<Response> {
  const url = new URL(path, BASE);
  const res = await SELF.fetch(url, init);
  await assertDocumentedResponse(init.method ?? 'GET', url.href, res);
  return res;
}

export function jsonInit(method: string, body: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  };
}

export type Problem = {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  requestId?: string;
  errors?: { pointer: string; detail: string }[];
};

/** Asserts an RFC 9457 response with the given status and type slug, and returns its body. */
export async function expectProblem(res: Response, status: number, type: string): Promise<Problem> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  const body = (await res.json()) as Problem;
  expect(body).toMatchObject({ type: `/problems/${type}`, status });
  expect(typeof body.title).toBe('string');
  expect(typeof body.detail).toBe('string');
  return body;
}

export const ORIGIN = BASE;

/** The `session` cookie value from a response's Set-Cookie, or null. */
export function sessionCookieFrom(res: Response): string | null {
  const match = /(?:^|,\s*)session=([^;]*)/.exec(res.headers.get('set-cookie') ?? '');
  return match?.[1] ? match[1] : null;
}

export type Account = { cookie: string; id: string; email: string; password: string };

let counter = 0;
const fileSalt = Math.floor(Math.random() * 0xffffff);

/**
 * A client address of its own for each call (from 10.0.0.0/8, random per test file), so that
 * the per-network signup and login limits never make tests depend on one another.
 */
export function freshIp(): string {
  counter += 1;
  const n = (fileSalt + counter) % 0xffffff;
  return `10.${n >> 16}.${(n >> 8) & 255}.${n & 255}`;
}

/** Signs up a fresh account of the given role and returns its session. */
export async function signup(
  role: 'candidate' | 'employer' = 'candidate',
  name = 'Test Person',
): Promise<Account> {
  counter += 1;
  const email = `user${counter}-${crypto.randomUUID().slice(0, 8)}@example.test`;
  const password = 'a-long-enough-password';
  const res = await call(
    '/api/auth/signup',
    jsonInit('POST', { email, password, name, role }, { 'CF-Connecting-IP': freshIp() }),
  );
  if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${await res.text()}`);
  const body = await res.json<{ user: { id: string } }>();
  return { cookie: `session=${sessionCookieFrom(res)}`, id: body.user.id, email, password };
}

/** Logs in as the first admin (the ADMIN_EMAIL / ADMIN_PASSWORD test bindings). */
export async function loginAdmin(): Promise<Account> {
  const email = 'admin@test.local';
  const password = 'test-admin-password-123';
  const res = await call('/api/auth/login', jsonInit('POST', { email, password }));
  if (res.status !== 200) throw new Error(`admin login failed: ${res.status} ${await res.text()}`);
  const body = await res.json<{ user: { id: string } }>();
  return { cookie: `session=${sessionCookieFrom(res)}`, id: body.user.id, email, password };
}

/** Headers of a same-origin browser request made with the account's session. */
export function as(account: Account, extra: Record<string, string> = {}): Record<string, string> {
  return { cookie: account.cookie, origin: ORIGIN, ...extra };
}

/** Issues an API key through the admin API; returns the secret and its id. */
export async function issueKey(
  admin: Account,
  scopes: string[],
  name = 'test key',
): Promise<{ key: string; id: string }> {
  const res = await call('/api/admin/api-keys', jsonInit('POST', { name, scopes }, as(admin)));
  if (res.status !== 201) throw new Error(`key issue failed: ${res.status} ${await res.text()}`);
  return res.json<{ key: string; id: string }>();
}

/** Polls `check` until it returns a value (not undefined) or the time runs out. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Grants (or revokes) a consent purpose through the API. */
export async function consent(
  account: Account,
  purpose: string,
  action: 'grant' | 'revoke' = 'grant',
): Promise<void> {
  const res = await call(
    '/api/consent',
    jsonInit('POST', { purpose, action, noticeVersion: 'v1' }, as(account)),
  );
  if (res.status !== 201) throw new Error(`consent failed: ${res.status} ${await res.text()}`);
}

export const DEMO_BRIEF = {
  title: 'Build a REST API for a todo app',
  domain: 'web-development',
  description:
    'We need a small REST API for our todo app. It must expose endpoints to create, list, update and delete tasks. ' +
    'Errors should follow RFC 9457 problem details. We expect automated tests for every endpoint. ' +
    'The service must be documented with an OpenAPI description.',
  deliverables: ['A REST API with CRUD endpoints for tasks', 'An OpenAPI description', 'A test suite'],
  successCriteria: ['Every endpoint is covered by tests', 'Errors use problem details'],
  durationDays: 14,
};

export const GOOD_WORK =
  'I built the REST API for the todo app with create, list, update and delete endpoints for tasks. ' +
  'Every error is returned as RFC 9457 problem details with a type, title and status. ' +
  'The test suite covers every endpoint, including validation failures and missing tasks. ' +
  'An OpenAPI description documents each endpoint, its parameters and responses, and the README explains how to run it.';

export type BriefView = {
  id: string;
  state: string;
  playbook: { milestones: { id: string; final: boolean; tutorial_links: string[] }[] };
};

/** Creates a brief as the employer (published unless `publish: false`). */
export async function createBrief(
  employer: Account,
  overrides: Record<string, unknown> = {},
): Promise<BriefView> {
  const res = await call('/api/briefs', jsonInit('POST', { ...DEMO_BRIEF, ...overrides }, as(employer)));
  if (res.status !== 201) throw new Error(`brief creation failed: ${res.status} ${await res.text()}`);
  return res.json<BriefView>();
}

/** Submits work for a milestone and waits until it is evaluated (or goes straight to rating). */
export async function submitWork(
  candidate: Account,
  milestoneId: string,
  extra: Record<string, unknown> = {},
): Promise<{ id: string; evaluationId: string }> {
  const res = await call(
    '/api/submissions',
    jsonInit('POST', { milestoneId, text: GOOD_WORK, ...extra }, as(candidate)),
  );
  if (res.status !== 201) throw new Error(`submission failed: ${res.status} ${await res.text()}`);
  const { id, evaluationId } = await res.json<{ id: string; evaluationId: string }>();
  await eventually(async () => {
    const s = await (await call(`/api/submissions/${id}`, { headers: as(candidate) })).json<{
      state: string;
    }>();
    return s.state === 'evaluated' ? true : undefined;
  });
  return { id, evaluationId };
}

/** The employer's rating of an evaluation. */
export const rateEvaluation = (
  employer: Account,
  evaluationId: string,
  verdict: 'pass' | 'fail' = 'pass',
  score = 4,
) =>
  call(
    `/api/evaluations/${evaluationId}/employer-rating`,
    jsonInit('POST', { score, verdict }, as(employer)),
  );
