import { SELF } from 'cloudflare:test';
import { expect } from 'vitest';

export const BASE = 'http://localhost:8787';

/** A request through the Worker's real entry point (the whole middleware stack). */
export function call(path: string, init: RequestInit = {}): Promise<Response> {
  return SELF.fetch(new URL(path, BASE), init);
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
