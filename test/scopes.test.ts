import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/http/create-app';
import { requireApiKey } from '../src/middleware/auth';
import { issueKey, loginAdmin } from './harness';
import { expectProblem } from './helpers';

// The scope check is middleware shared by every partner route; exercise it on a probe app
// with one route per scope, through the same app factory and error handler.
const probe = createApp();
for (const scope of ['playbooks:generate', 'integrity:check', 'rubrics:generate'] as const) {
  probe.get(`/probe/${scope}`, requireApiKey(scope), (c) => c.json({ ok: true, key: c.get('apiKey')?.id }));
}
const ctx = {
  waitUntil: () => {},
  passThroughOnException: () => {},
  props: {},
} as unknown as ExecutionContext;
const hit = (scope: string, key: string) =>
  probe.fetch(
    new Request(`http://localhost/probe/${scope}`, { headers: { 'X-Service-Key': key } }),
    env,
    ctx,
  );

describe('API-key scopes', () => {
  it('lets a key call only the routes of its scopes (403 otherwise)', async () => {
    const admin = await loginAdmin();
    const { key } = await issueKey(admin, ['integrity:check']);
    expect((await hit('integrity:check', key)).status).toBe(200);
    for (const scope of ['playbooks:generate', 'rubrics:generate']) {
      const problem = await expectProblem(await hit(scope, key), 403, 'forbidden');
      expect(problem.detail).toContain(scope);
    }
    const all = await issueKey(admin, ['playbooks:generate', 'integrity:check', 'rubrics:generate']);
    for (const scope of ['playbooks:generate', 'integrity:check', 'rubrics:generate']) {
      expect((await hit(scope, all.key)).status).toBe(200);
    }
  });
});
