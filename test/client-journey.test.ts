/**
 * The partner flow through the generated client (clients/typescript), inside workerd: its `fetch`
 * goes to the Worker (SELF) and every response is checked against openapi.yaml, like `call()`.
 */
import { SELF } from 'cloudflare:test';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import {
  createClient,
  verifyWebhook,
  WebhookVerificationError,
  wasReplayed,
} from '../clients/typescript/src/index';
import { loginAdmin } from './harness';
import { BASE, eventually } from './helpers';
import { assertDocumentedResponse } from './response-validation';

/** The Worker as the client's `fetch`, with every answer checked against the OpenAPI document. */
async function worker(request: Request): Promise<Response> {
  const res = await SELF.fetch(request);
  await assertDocumentedResponse(request.method, request.url, res);
  return res;
}

const BRIEF = {
  title: 'Build a REST API for a todo app',
  deliverables: ['A deployed REST API', 'An OpenAPI description', 'A test suite'],
  successCriteria: ['All endpoints return RFC 9457 errors', 'Tests cover every endpoint'],
  durationDays: 14,
  domain: 'web-development',
};

describe('the typed client', () => {
  it('drives the partner flow: key, playbook, rubric, integrity check, idempotent retry, usage', async () => {
    const admin = await loginAdmin();
    const sent: Request[] = [];
    const adminApi = createClient({
      baseUrl: BASE,
      sessionCookie: admin.cookie.replace(/^session=/, ''),
      fetch: (r) => {
        sent.push(r.clone());
        return worker(r);
      },
    });
    const created = await adminApi.POST('/api/admin/api-keys', {
      body: { name: 'Client journey', scopes: ['playbooks:generate', 'rubrics:generate', 'integrity:check'] },
    });
    expect(created.response.status).toBe(201);
    if (!created.data) throw new Error('no key');
    // The client added an Idempotency-Key (a UUID) and the Origin the CSRF defence wants.
    expect(sent[0]?.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[0]?.headers.get('Origin')).toBe(new URL(BASE).origin);

    const keys: string[] = [];
    const api = createClient({
      baseUrl: BASE,
      apiKey: created.data.key,
      fetch: (r) => {
        keys.push(r.headers.get('Idempotency-Key') ?? '');
        return worker(r);
      },
    });

    const playbook = await api.POST('/api/v1/playbooks/generate', { body: BRIEF });
    expect(playbook.data?.milestones.length).toBeGreaterThan(0);
    const rubric = await api.POST('/api/v1/rubrics/generate', {
      body: {
        brief:
          'We need a REST API. It must return RFC 9457 errors. We expect a test suite for every endpoint.',
      },
    });
    expect(rubric.data?.criteria.reduce((sum, c) => sum + c.weight, 0)).toBe(100);
    const check = await api.POST('/api/v1/integrity/check', {
      body: {
        text: 'An essay about building REST APIs with consistent errors and tests for every endpoint.',
      },
    });
    expect(check.response.status).toBe(200);
    // Each POST got a key of its own.
    expect(new Set(keys).size).toBe(3);

    // A retry with the same key (after a network error, say) is replayed, not run again.
    const retryKey = crypto.randomUUID();
    const once = await api.POST('/api/v1/playbooks/generate', {
      params: { header: { 'Idempotency-Key': retryKey } },
      body: BRIEF,
    });
    const again = await api.POST('/api/v1/playbooks/generate', {
      params: { header: { 'Idempotency-Key': retryKey } },
      body: BRIEF,
    });
    expect(wasReplayed(once.response)).toBe(false);
    expect(wasReplayed(again.response)).toBe(true);
    expect(again.data).toEqual(once.data);
    // The same key with another body is refused, typed as a problem.
    const mismatch = await api.POST('/api/v1/playbooks/generate', {
      params: { header: { 'Idempotency-Key': retryKey } },
      body: { ...BRIEF, durationDays: 7 },
    });
    expect(mismatch.response.status).toBe(422);
    expect(mismatch.error?.type).toBe('/problems/idempotency-key-mismatch');

    // Usage: 5 successes and 1 client error so far (the usage request itself is not in its own report).
    await eventually(async () => {
      const { data } = await adminApi.GET('/api/admin/api-keys/{id}/usage', {
        params: { path: { id: created.data?.id ?? '' } },
      });
      return data && data.totals.success + data.totals.clientError === 6 ? true : undefined;
    });
    const usage = await api.GET('/api/v1/keys/self/usage');
    expect(usage.data?.totals).toEqual({ success: 5, clientError: 1, rateLimited: 0, serverError: 0 });
    expect(usage.data?.days).toHaveLength(90);
  });

  it('verifies Standard Webhooks signatures with the official package, during rotation too', () => {
    const oldSecret = `whsec_${btoa('an old secret of 32 bytes!!!!!!!')}`;
    const newSecret = `whsec_${btoa('a new secret of 32 bytes!!!!!!!!')}`;
    const payload = JSON.stringify({ type: 'evaluation.completed', data: { evaluationId: 'e1' } });
    const id = 'msg_1';
    const at = new Date();
    const headers = {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(oldSecret).sign(id, at, payload),
    };
    expect(verifyWebhook(oldSecret, payload, headers)).toEqual(JSON.parse(payload));
    expect(verifyWebhook([newSecret, oldSecret], payload, new Headers(headers))).toEqual(JSON.parse(payload));
    // Node's and Express's `req.headers` (IncomingHttpHeaders), with no cast: arrays and undefined values too.
    const node: Record<string, string | string[] | undefined> = {
      ...headers,
      'webhook-signature': [headers['webhook-signature']],
      'x-forwarded-for': undefined,
    };
    expect(verifyWebhook(oldSecret, payload, node)).toEqual(JSON.parse(payload));
    expect(() => verifyWebhook(newSecret, payload, headers)).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(oldSecret, `${payload} `, headers)).toThrow(WebhookVerificationError);
  });
});
