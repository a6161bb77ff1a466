/**
 * Rubric generation in the frozen surface: `POST /api/v1/rubrics/generate`, and the old
 * `POST /api/rubrics/generate` kept as a deprecated alias (RFC 9745 `Deprecation`, successor `Link`).
 */
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { issueKey, loginAdmin } from './harness';
import { call, expectProblem, jsonInit } from './helpers';

const BRIEF = {
  brief:
    'We need a REST API for our todo app. It must expose CRUD endpoints for tasks. The API should return RFC 9457 errors. We expect a test suite covering every endpoint.',
  domain: 'web-development',
};

let rubricsKey: string;
let otherKey: string;
beforeAll(async () => {
  const admin = await loginAdmin();
  rubricsKey = (await issueKey(admin, ['rubrics:generate'])).key;
  otherKey = (await issueKey(admin, ['integrity:check'])).key;
});

const post = (path: string, key: string | null, body: unknown = BRIEF) =>
  call(path, jsonInit('POST', body, key ? { 'X-Service-Key': key } : {}));

const SUCCESSOR = `<${new URL('/api/v1/rubrics/generate', env.PUBLIC_BASE_URL).href}>; rel="successor-version"`;

describe('POST /api/v1/rubrics/generate', () => {
  it('extracts the same rubric as the alias, without deprecation headers', async () => {
    const v1 = await post('/api/v1/rubrics/generate', rubricsKey);
    expect(v1.status).toBe(200);
    expect(v1.headers.get('Deprecation')).toBeNull();
    expect(v1.headers.get('Link')).toBeNull();
    const rubric = await v1.json<{ criteria: { weight: number; source: string }[]; passThreshold: number }>();
    expect(rubric.criteria.length).toBeGreaterThanOrEqual(3);
    expect(rubric.criteria.reduce((sum, c) => sum + c.weight, 0)).toBe(100);
    for (const c of rubric.criteria) expect(BRIEF.brief).toContain(c.source.replace(/\.$/, ''));

    const alias = await post('/api/rubrics/generate', rubricsKey);
    expect(alias.status).toBe(200);
    expect(await alias.json()).toEqual(rubric);
  });

  it('lists what the brief leaves out in outOfScope, with no criterion grading it (both paths)', async () => {
    const brief =
      "Translate our 20-page employee handbook from English to Marathi. Defined terms must be rendered the same way throughout. Provide a glossary of HR terms. A second translator should review the draft.\nDo NOT include the annexures.\nPls don't spend time on layout.";
    for (const path of ['/api/v1/rubrics/generate', '/api/rubrics/generate']) {
      const res = await post(path, rubricsKey, { brief });
      expect(res.status).toBe(200);
      const rubric = await res.json<{ criteria: { name: string; source: string }[]; outOfScope: string[] }>();
      expect(rubric.outOfScope).toEqual(['annexures', 'layout']);
      for (const c of rubric.criteria) {
        expect(c.name).not.toMatch(/^Avoids/);
        expect(c.source).not.toMatch(/annexures|layout/);
      }
    }
    const plain = await (await post('/api/v1/rubrics/generate', rubricsKey)).json<{ outOfScope: string[] }>();
    expect(plain.outOfScope).toEqual([]);
  });

  it('says when the brief asks for nothing (warnings), and says nothing for a brief with requirements', async () => {
    const withRequirements = await (await post('/api/v1/rubrics/generate', rubricsKey)).json<{
      warnings: string[];
    }>();
    expect(withRequirements.warnings).toEqual([]);
    for (const brief of [
      'Hello there.',
      'Our team loves coffee and we meet on Mondays to talk about the roadmap.',
    ]) {
      const res = await post('/api/v1/rubrics/generate', rubricsKey, { brief });
      expect(res.status).toBe(200);
      const rubric = await res.json<{ criteria: unknown[]; warnings: string[] }>();
      expect(rubric.criteria.length).toBeGreaterThanOrEqual(3);
      expect(rubric.warnings).toHaveLength(1);
      expect(rubric.warnings[0]).toMatch(/asks for nothing/);
    }
  });

  it('needs the rubrics:generate scope and validates the body like the alias', async () => {
    await expectProblem(await post('/api/v1/rubrics/generate', null), 401, 'unauthenticated');
    await expectProblem(await post('/api/v1/rubrics/generate', otherKey), 403, 'forbidden');
    const bad = await expectProblem(
      await post('/api/v1/rubrics/generate', rubricsKey, { brief: '' }),
      422,
      'validation-failed',
    );
    expect(bad.errors?.[0]?.pointer).toBe('#/brief');
  });

  it('is in the pinned v1 contract', () => {
    const contract = parse(env.COMMITTED_OPENAPI) as { paths: Record<string, unknown> };
    expect(contract.paths).toHaveProperty(['/api/v1/rubrics/generate']);
  });
});

describe('POST /api/rubrics/generate (deprecated alias)', () => {
  it('answers with Deprecation (RFC 9745) and a successor-version Link, refusals included', async () => {
    for (const res of [
      await post('/api/rubrics/generate', rubricsKey),
      await post('/api/rubrics/generate', otherKey),
      await post('/api/rubrics/generate', null),
    ]) {
      expect(res.headers.get('Deprecation')).toBe('@1795392000'); // 2026-11-23T00:00:00Z
      expect(res.headers.get('Link')).toBe(SUCCESSOR);
    }
  });

  it('is marked deprecated in OpenAPI, and documents its headers', () => {
    const doc = parse(env.COMMITTED_OPENAPI) as {
      paths: Record<
        string,
        { post: { deprecated?: boolean; responses: Record<string, { headers?: object }> } }
      >;
    };
    const alias = doc.paths['/api/rubrics/generate']?.post;
    expect(alias?.deprecated).toBe(true);
    expect(alias?.responses['200']?.headers).toHaveProperty('Deprecation');
    expect(alias?.responses['200']?.headers).toHaveProperty('Link');
    expect(alias?.responses['200']?.headers).toHaveProperty('RateLimit');
    expect(doc.paths['/api/v1/rubrics/generate']?.post.deprecated).toBeUndefined();
  });
});
