/**
 * `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header): replay, mismatch, a duplicate
 * in flight, expiry with a moved clock, what is stored and what is released, and the key syntax.
 */
import { env } from 'cloudflare:test';
import type { MiddlewareHandler } from 'hono';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { sha256Hex } from '../src/domain/secrets';
import { createApp } from '../src/http/create-app';
import { SECURITY } from '../src/http/openapi';
import { defineRoute } from '../src/http/route';
import { ProblemError } from '../src/lib/problem';
import type { ApiKeyEnv } from '../src/middleware/context';
import { storedIdempotencyKey } from '../src/middleware/idempotency';
import { IDEMPOTENCY_TTL_MS, purgeExpiredIdempotencyKeys } from '../src/services/idempotency';
import { db, issueKey, loginAdmin, signup } from './harness';
import { as, call, expectProblem, jsonInit } from './helpers';

const BRIEF = {
  title: 'Build a REST API for a todo app',
  deliverables: ['A deployed REST API', 'A test suite'],
  successCriteria: ['All endpoints return RFC 9457 errors'],
  durationDays: 7,
  domain: 'web-development',
};

let playbookKey: { key: string; id: string };
let otherKey: { key: string; id: string };

beforeAll(async () => {
  const admin = await loginAdmin();
  playbookKey = await issueKey(admin, ['playbooks:generate', 'rubrics:generate'], 'idempotency');
  otherKey = await issueKey(admin, ['playbooks:generate'], 'idempotency other');
});

afterEach(() => {
  vi.useRealTimers();
});

const generate = (key: string, idempotencyKey: string | undefined, body: unknown = BRIEF) =>
  call(
    '/api/v1/playbooks/generate',
    jsonInit('POST', body, {
      'X-Service-Key': key,
      ...(idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey }),
    }),
  );

const consentRows = async (userId: string) =>
  (
    await env.DB.prepare('SELECT count(*) AS n FROM consent_events WHERE user_id = ?')
      .bind(userId)
      .first<{ n: number }>()
  )?.n;

const grant = (cookie: Parameters<typeof as>[0], key: string, purpose = 'leaderboard') =>
  call(
    '/api/consent',
    jsonInit(
      'POST',
      { purpose, action: 'grant', noticeVersion: 'v2' },
      as(cookie, { 'Idempotency-Key': key }),
    ),
  );

describe('Idempotency-Key', () => {
  it('replays the first response with Idempotent-Replayed: true, and the work runs once', async () => {
    const candidate = await signup('candidate');
    const key = crypto.randomUUID();
    const first = await grant(candidate, key);
    expect(first.status).toBe(201);
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();
    const firstBody = await first.text();

    const again = await grant(candidate, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(await again.text()).toBe(firstBody);
    expect(await consentRows(candidate.id)).toBe(1);

    // Without the header nothing is remembered: a second grant is a second ledger entry.
    await call(
      '/api/consent',
      jsonInit('POST', { purpose: 'leaderboard', action: 'grant', noticeVersion: 'v2' }, as(candidate)),
    );
    expect(await consentRows(candidate.id)).toBe(2);
  });

  it('replays for API keys too, and keys are scoped per caller', async () => {
    const key = crypto.randomUUID();
    const first = await generate(playbookKey.key, key);
    expect(first.status).toBe(200);
    const body = await first.json();
    const replay = await generate(playbookKey.key, `"${key}"`); // the draft's quoted sf-string form
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await replay.json()).toEqual(body);
    // The rate-limit headers are the live ones, not replayed.
    expect(replay.headers.get('RateLimit')).toMatch(/^"apikey";r=\d+;t=\d+$/);

    // Another key with the same Idempotency-Key is another caller: its request runs.
    const other = await generate(otherKey.key, key);
    expect(other.status).toBe(200);
    expect(other.headers.get('Idempotent-Replayed')).toBeNull();
  });

  it('refuses the same key with a different body or path (422)', async () => {
    const key = crypto.randomUUID();
    expect((await generate(playbookKey.key, key)).status).toBe(200);
    const problem = await expectProblem(
      await generate(playbookKey.key, key, { ...BRIEF, durationDays: 8 }),
      422,
      'idempotency-key-mismatch',
    );
    expect(problem.detail).toMatch(/different request/);
    await expectProblem(
      await call(
        '/api/rubrics/generate',
        jsonInit(
          'POST',
          { brief: 'We need a REST API. It must return RFC 9457 errors and have tests.' },
          { 'X-Service-Key': playbookKey.key, 'Idempotency-Key': key },
        ),
      ),
      422,
      'idempotency-key-mismatch',
    );
  });

  it('answers 409 while the first request with the key is still in flight', async () => {
    const candidate = await signup('candidate');
    const key = crypto.randomUUID();
    const body = JSON.stringify({ purpose: 'leaderboard', action: 'grant', noticeVersion: 'v2' });
    // The first request has claimed the key and not finished (what the middleware writes first).
    const now = Date.now();
    await env.DB.prepare(
      `INSERT INTO idempotency_keys (caller, key, user_id, request_hash, locked_until, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
      .bind(
        `user:${candidate.id}`,
        await storedIdempotencyKey(key),
        candidate.id,
        await sha256Hex(`POST\n/api/consent\n${body}`),
        now + 60_000,
        now,
        now + IDEMPOTENCY_TTL_MS,
      )
      .run();
    const res = await call('/api/consent', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', ...as(candidate, { 'Idempotency-Key': key }) },
    });
    const problem = await expectProblem(res, 409, 'idempotency-key-in-use');
    expect(problem.detail).toMatch(/still being processed/);
    expect(await consentRows(candidate.id)).toBe(0);
  });

  it('runs concurrent duplicates once: one 201, the other a 409 or the replay', async () => {
    const candidate = await signup('candidate');
    const key = crypto.randomUUID();
    const responses = await Promise.all([
      grant(candidate, key),
      grant(candidate, key),
      grant(candidate, key),
    ]);
    const fresh = responses.filter((r) => r.status === 201 && r.headers.get('Idempotent-Replayed') === null);
    expect(fresh).toHaveLength(1);
    for (const r of responses) {
      if (r === fresh[0]) continue;
      if (r.status === 409) await expectProblem(r, 409, 'idempotency-key-in-use');
      else expect([r.status, r.headers.get('Idempotent-Replayed')]).toEqual([201, 'true']);
    }
    expect(await consentRows(candidate.id)).toBe(1);
  });

  it('forgets a key after 24 hours (moved clock): the request runs again', async () => {
    const candidate = await signup('candidate');
    const key = crypto.randomUUID();
    const start = Date.now();
    expect((await grant(candidate, key)).status).toBe(201);

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start + IDEMPOTENCY_TTL_MS - 60_000);
    const stillKept = await grant(candidate, key);
    expect(stillKept.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await consentRows(candidate.id)).toBe(1);

    vi.setSystemTime(start + IDEMPOTENCY_TTL_MS + 1000);
    const afterwards = await grant(candidate, key);
    expect(afterwards.status).toBe(201);
    expect(afterwards.headers.get('Idempotent-Replayed')).toBeNull();
    expect(await consentRows(candidate.id)).toBe(2);
    vi.useRealTimers();

    // The cron sweep deletes records past their 24 hours.
    await purgeExpiredIdempotencyKeys(db(), new Date(start + 3 * IDEMPOTENCY_TTL_MS));
    const left = await env.DB.prepare('SELECT count(*) AS n FROM idempotency_keys WHERE user_id = ?')
      .bind(candidate.id)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
  });

  it('validates the key: empty, too long, or with spaces is a 400', async () => {
    for (const bad of ['', 'x'.repeat(256), 'two words', '"unterminated']) {
      const problem = await expectProblem(await generate(playbookKey.key, bad), 400, 'invalid-parameters');
      expect(problem.errors?.[0]?.pointer).toBe('#/header/Idempotency-Key');
    }
    expect((await generate(playbookKey.key, 'x'.repeat(255))).status).toBe(200);
  });

  it('documents the header, the replay header and the refusals on every idempotent operation', async () => {
    const doc = parse(await (await call('/openapi.yaml')).text()) as {
      paths: Record<
        string,
        Record<
          string,
          {
            parameters?: { name: string }[];
            responses: Record<string, { headers?: Record<string, unknown> }>;
          }
        >
      >;
    };
    const idempotent = [
      ['/api/v1/playbooks/generate', 'post'],
      ['/api/v1/integrity/check', 'post'],
      ['/api/rubrics/generate', 'post'],
      ['/api/submissions', 'post'],
      ['/api/briefs', 'post'],
      ['/api/evaluations/{id}/employer-rating', 'post'],
      ['/api/consent', 'post'],
      ['/api/admin/api-keys', 'post'],
      ['/api/dsr/grievance', 'post'],
      ['/api/dsr/nomination', 'post'],
    ] as const;
    for (const [path, method] of idempotent) {
      const op = doc.paths[path]?.[method];
      expect(
        op?.parameters?.map((p) => p.name),
        path,
      ).toContain('Idempotency-Key');
      for (const status of ['400', '409', '422'])
        expect(op?.responses, `${path} ${status}`).toHaveProperty(status);
      const success = Object.entries(op?.responses ?? {}).find(([s]) => s.startsWith('2'))?.[1];
      expect(success?.headers, path).toHaveProperty('Idempotent-Replayed');
    }
  });
});

describe('Idempotency-Key: what is stored', () => {
  /** A route that fails the first time with `status`, then succeeds: what does a retry see? */
  function flaky(firstStatus: 'internal' | 'quota' | 'conflict') {
    let calls = 0;
    const route = defineRoute({
      method: 'post',
      path: '/api/test/flaky',
      operationId: 'flaky',
      idempotent: true,
      security: [...SECURITY.apiKey],
      middleware: (async (c, next) => {
        c.set('apiKey', {
          id: playbookKey.id,
          name: 'x',
          scopes: [],
          organisationId: null,
          ratelimitPerMinute: null,
        });
        await next();
      }) satisfies MiddlewareHandler<ApiKeyEnv>,
      responses: { 201: { description: 'ok' } },
    });
    const app = createApp();
    app.openapi(route, async (c) => {
      calls += 1;
      if (calls === 1) {
        if (firstStatus === 'internal') throw new Error('boom');
        throw new ProblemError(firstStatus === 'quota' ? 'quota-exceeded' : 'conflict', 'first');
      }
      return c.body(null, 201);
    });
    return {
      send: (key: string) =>
        app.request('/api/test/flaky', { method: 'POST', headers: { 'Idempotency-Key': key } }, env),
      calls: () => calls,
    };
  }

  it('does not store a 5xx or a 429: the retry runs again', async () => {
    for (const kind of ['internal', 'quota'] as const) {
      const route = flaky(kind);
      const key = crypto.randomUUID();
      expect((await route.send(key)).status).toBe(kind === 'internal' ? 500 : 429);
      const retry = await route.send(key);
      expect(retry.status).toBe(201);
      expect(retry.headers.get('Idempotent-Replayed')).toBeNull();
      expect(route.calls()).toBe(2);
    }
  });

  it('stores any other 4xx: the retry gets the same refusal without running', async () => {
    const route = flaky('conflict');
    const key = crypto.randomUUID();
    const first = await route.send(key);
    expect(first.status).toBe(409);
    const retry = await route.send(key);
    expect(retry.status).toBe(409);
    expect(retry.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await retry.json()).toEqual(await first.json());
    expect(route.calls()).toBe(1);
  });
});

describe('Idempotency-Key: secrets at rest', () => {
  type Row = { caller: string; key: string; body: string | null };
  const rowsOf = async (userId: string) =>
    (
      await env.DB.prepare('SELECT caller, key, body FROM idempotency_keys WHERE user_id = ?')
        .bind(userId)
        .all<Row>()
    ).results;

  it('keeps neither the API key a create or roll returned, nor the Idempotency-Key, yet replays them', async () => {
    const admin = await loginAdmin();
    const createKey = `create-${crypto.randomUUID()}`;
    const create = () =>
      call(
        '/api/admin/api-keys',
        jsonInit(
          'POST',
          { name: 'idempotent secret', scopes: ['rubrics:generate'] },
          as(admin, { 'Idempotency-Key': createKey }),
        ),
      );
    const first = await create();
    expect(first.status).toBe(201);
    const created = await first.json<{ id: string; key: string }>();
    const replay = await create();
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect((await replay.json<{ key: string }>()).key).toBe(created.key);

    const rollKey = `roll-${crypto.randomUUID()}`;
    const roll = () =>
      call(
        `/api/admin/api-keys/${created.id}/roll`,
        jsonInit('POST', { gracePeriodSeconds: 0 }, as(admin, { 'Idempotency-Key': rollKey })),
      );
    const rolled = await (await roll()).json<{ key: string }>();
    const rollReplay = await roll();
    expect(rollReplay.headers.get('Idempotent-Replayed')).toBe('true');
    expect((await rollReplay.json<{ key: string }>()).key).toBe(rolled.key);

    const rows = await rowsOf(admin.id);
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain('vpk_');
    expect(dump).not.toContain(created.key.slice(4));
    expect(dump).not.toContain(rolled.key.slice(4));
    expect(dump).not.toContain(createKey);
    expect(dump).not.toContain(rollKey);
    // Found by the key's hash: that is all the store knows of it.
    expect(rows.map((r) => r.key)).toEqual(
      expect.arrayContaining([await storedIdempotencyKey(createKey), await storedIdempotencyKey(rollKey)]),
    );
  });

  it("keeps no webhook secret either, and another caller's row does not open with the same key", async () => {
    const employer = await signup('employer');
    const key = crypto.randomUUID();
    const register = (who: Parameters<typeof as>[0]) =>
      call(
        '/api/webhooks',
        jsonInit(
          'POST',
          { url: 'https://hooks.test/idempotent', eventTypes: ['certificate.issued'] },
          as(who, { 'Idempotency-Key': key }),
        ),
      );
    const first = await (await register(employer)).json<{ id: string; secret: string }>();
    expect(first.secret).toMatch(/^whsec_/);
    const again = await register(employer);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await again.json()).toMatchObject({ id: first.id, secret: first.secret });
    const dump = JSON.stringify(await rowsOf(employer.id));
    expect(dump).not.toContain('whsec_');
    expect(dump).not.toContain(first.secret.slice('whsec_'.length));
    expect(dump).not.toContain(first.id);

    // Another employer using the same Idempotency-Key gets a fresh run (its own record).
    const other = await signup('employer');
    const theirs = await register(other);
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('Idempotent-Replayed')).toBeNull();
  });
});
