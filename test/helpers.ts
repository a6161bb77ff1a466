/**
 * Request helpers: every call goes through the Worker and is checked against the OpenAPI
 * document. The fixtures (accounts, briefs, work, certificates) are in test/harness.ts.
 */
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

/** Headers of a same-origin browser request made with the account's session. */
export function as(account: Account, extra: Record<string, string> = {}): Record<string, string> {
  return { cookie: account.cookie, origin: ORIGIN, ...extra };
}

/**
 * Polls `check` until it returns a value. The deadline only bounds a test that would otherwise hang:
 * on a shared CI machine (load 8-10) a job that takes 50 ms here took seconds, so it is generous,
 * within the 30-second test timeout.
 */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}
