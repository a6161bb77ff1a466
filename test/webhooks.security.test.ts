/**
 * Webhook security: SSRF (at registration for IP literals and names, at delivery after DNS, and
 * redirects), the development allowance for http://localhost, and isolation between
 * organisations and keys.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema';
import { ping } from '../src/services/webhooks/delivery';
import { createEndpoint as createEndpointService } from '../src/services/webhooks/endpoints';
import { db, issueKey, loginAdmin, organisationOf, signup } from './harness';
import { as, call, expectProblem, jsonInit } from './helpers';
import {
  capturedQueue,
  createEndpoint,
  deliveryLog,
  drainWebhookJobs,
  endpointFor,
  publishAddress,
  received,
  receiverFails,
  receiverName,
  receiverUrl,
} from './webhook-fixtures';

describe('SSRF at registration', () => {
  const refused: [string, string][] = [
    ['http://hooks.test/plain', 'https'],
    ['ftp://hooks.test/x', 'https'],
    ['https://127.0.0.1/x', 'loopback'],
    ['https://127.8.9.10:8443/x', 'loopback'],
    ['https://[::1]/x', 'loopback'],
    ['https://localhost/x', 'loopback'],
    ['https://api.localhost/x', 'loopback'],
    ['https://10.1.2.3/x', 'private'],
    ['https://172.16.0.9/x', 'private'],
    ['https://192.168.1.1/x', 'private'],
    ['https://169.254.169.254/latest/meta-data', 'link-local'],
    ['https://[fe80::1]/x', 'link-local'],
    ['https://100.64.0.1/x', 'carrier-grade NAT'],
    ['https://[fd00::1]/x', 'unique-local'],
    ['https://[fd00:ec2::254]/x', 'unique-local'],
    ['https://224.0.0.1/x', 'multicast'],
    ['https://[ff02::1]/x', 'multicast'],
    ['https://0.0.0.0/x', 'this network'],
    ['https://[::ffff:10.0.0.1]/x', 'private'],
    ['https://[::ffff:7f00:1]/x', 'loopback'],
    ['https://[64:ff9b:1::a9fe:a9fe]/latest/meta-data/', 'NAT64 local-use'],
    ['https://[::ffff:0:a9fe:a9fe]/x', 'link-local'],
    ['https://[2001::a9fe:a9fe]/x', 'Teredo'],
    ['https://metadata.google.internal/computeMetadata/v1', 'metadata'],
    ['https://user:pass@hooks.test/x', 'credentials'],
    ['https://intranet/x', 'fully qualified'],
  ];
  for (const [url, why] of refused)
    it(`refuses ${url} (${why})`, async () => {
      const employer = await signup('employer');
      const res = await call(
        '/api/webhooks',
        jsonInit('POST', { url, eventTypes: ['certificate.issued'] }, as(employer)),
      );
      const problem = await expectProblem(res, 422, 'validation-failed');
      expect(problem.detail).toContain(why);
      // …and on a change of URL too.
      const { endpoint } = await endpointFor(employer, 'change');
      const patch = await call(`/api/webhooks/${endpoint.id}`, jsonInit('PATCH', { url }, as(employer)));
      await expectProblem(patch, 422, 'validation-failed');
    });

  it('accepts a public IP literal and an https host name', async () => {
    const employer = await signup('employer');
    await createEndpoint(employer, {
      url: 'https://93.184.215.14/hooks',
      eventTypes: ['certificate.issued'],
    });
    await createEndpoint(employer, {
      url: 'https://[2606:4700::1111]/hooks',
      eventTypes: ['certificate.issued'],
    });
  });

  it('allows http://localhost only where the development setting says so, on a local base URL', async () => {
    const LOCAL_DEV = { WEBHOOKS_ALLOW_HTTP_LOCALHOST: 'true', PUBLIC_BASE_URL: 'http://localhost:8787' };
    const actor = {
      organisationId: await organisationOf(await signup('employer')),
      userId: null,
      apiKeyId: null,
    };
    const input = { url: 'http://localhost:3000/hooks', eventTypes: ['certificate.issued' as const] };
    const dev = await createEndpointService(db(), LOCAL_DEV, actor, input);
    expect(dev.endpoint.url).toBe('http://localhost:3000/hooks');
    await expect(
      createEndpointService(db(), LOCAL_DEV, actor, {
        ...input,
        url: 'http://hooks.example.com/x',
      }),
    ).rejects.toThrow(/https/);
    await expect(
      createEndpointService(
        db(),
        { WEBHOOKS_ALLOW_HTTP_LOCALHOST: 'false', PUBLIC_BASE_URL: 'http://localhost:8787' },
        actor,
        input,
      ),
    ).rejects.toThrow(/https/);
    // The switch shipped to a deployment (its base URL not a loopback address) is ignored (issue 51).
    for (const base of ['https://api.example.com', 'https://127.0.0.1.nip.io', 'http://10.0.0.5:8787'])
      await expect(
        createEndpointService(
          db(),
          { WEBHOOKS_ALLOW_HTTP_LOCALHOST: 'true', PUBLIC_BASE_URL: base },
          actor,
          input,
        ),
      ).rejects.toThrow(/https/);
    // A DNS name that only looks like loopback is not: plain http stays refused.
    for (const url of ['http://127.evil.example/x', 'http://127.0.0.1.nip.io:9388/nip'])
      await expect(createEndpointService(db(), LOCAL_DEV, actor, { ...input, url })).rejects.toThrow(/https/);
  });
});

describe('SSRF at delivery', () => {
  /** An endpoint at a name the DNS double resolves as told; one ping (one attempt); its delivery. */
  async function deliverTo(records: { A?: readonly string[]; AAAA?: readonly string[] }) {
    const host = `${crypto.randomUUID().slice(0, 8)}.rebind.example`;
    await publishAddress(host, 'A', records.A ?? []);
    await publishAddress(host, 'AAAA', records.AAAA ?? []);
    const employer = await signup('employer');
    const endpoint = await createEndpoint(employer, {
      url: `https://${host}/hook`,
      eventTypes: ['certificate.issued'],
    });
    const captured = capturedQueue();
    const now = new Date();
    await ping(db(), captured.env, await organisationOf(employer), endpoint.id, now);
    await drainWebhookJobs(captured.env, now);
    const [delivery] = await deliveryLog(employer, endpoint.id);
    return delivery!;
  }

  for (const [records, why] of [
    [{ A: ['10.0.0.7'] }, 'private'],
    [{ A: ['127.0.0.1'] }, 'loopback'],
    [{ A: ['169.254.169.254'] }, 'link-local'],
    [{ A: ['93.184.215.14'], AAAA: ['fe80::1'] }, 'link-local'],
    [{ AAAA: ['fd12:3456::1'] }, 'unique-local'],
    [{ A: ['100.100.100.200'] }, 'carrier-grade NAT'],
  ] as const)
    it(`does not deliver to a name that resolves to a ${why} address (${JSON.stringify(records)})`, async () => {
      const delivery = await deliverTo(records);
      expect(delivery).toMatchObject({ state: 'failed', attempts: 1, lastStatusCode: null });
      expect(delivery.lastError).toContain(why);
      expect(delivery.lastError).toContain('not delivered');
      expect(delivery.attemptLog[0]).toMatchObject({ statusCode: null, latencyMs: null });
    });

  it('does not deliver to a name that does not resolve', async () => {
    const delivery = await deliverTo({});
    expect(delivery.lastError).toContain('does not resolve');
  });

  it('does not follow a redirect: a 3xx is a failed attempt, and the target is never asked', async () => {
    const employer = await signup('employer');
    const name = receiverName('redirect');
    const target = receiverName('redirect-target');
    await receiverFails(name, { status: 302, location: receiverUrl(target) });
    const endpoint = await createEndpoint(employer, {
      url: receiverUrl(name),
      eventTypes: ['certificate.issued'],
    });
    const captured = capturedQueue();
    const now = new Date();
    await ping(db(), captured.env, await organisationOf(employer), endpoint.id, now);
    await drainWebhookJobs(captured.env, now);
    const [delivery] = await deliveryLog(employer, endpoint.id);
    expect(delivery).toMatchObject({ state: 'failed', lastStatusCode: 302 });
    expect(delivery!.lastError).toContain('Redirect (302) not followed');
    expect(await received(name)).toHaveLength(1);
    expect(await received(target)).toHaveLength(0);
  });

  it('re-checks the stored URL at delivery (an endpoint written before a rule changed)', async () => {
    const employer = await signup('employer');
    const { endpoint } = await endpointFor(employer, 'legacy');
    await db()
      .update(schema.webhookEndpoints)
      .set({ url: 'https://10.0.0.1/x' })
      .where(eq(schema.webhookEndpoints.id, endpoint.id));
    const captured = capturedQueue();
    await ping(db(), captured.env, await organisationOf(employer), endpoint.id, new Date());
    await drainWebhookJobs(captured.env, new Date());
    const [delivery] = await deliveryLog(employer, endpoint.id);
    expect(delivery!.lastError).toContain('private address');
  });
});

describe('isolation', () => {
  it("nobody sees or changes another organisation's endpoints or deliveries (404)", async () => {
    const owner = await signup('employer');
    const intruder = await signup('employer');
    const { endpoint } = await endpointFor(owner, 'isolated');
    const delivery = await (
      await call(`/api/webhooks/${endpoint.id}/ping`, { method: 'POST', headers: as(owner) })
    ).json<{ id: string }>();
    const base = `/api/webhooks/${endpoint.id}`;
    const attempts: [string, RequestInit][] = [
      [base, { headers: as(intruder) }],
      [base, jsonInit('PATCH', { enabled: false }, as(intruder))],
      [base, { method: 'DELETE', headers: as(intruder) }],
      [`${base}/rotate-secret`, { method: 'POST', headers: as(intruder) }],
      [`${base}/ping`, { method: 'POST', headers: as(intruder) }],
      [`${base}/deliveries`, { headers: as(intruder) }],
      [`${base}/deliveries/${delivery.id}/redeliver`, { method: 'POST', headers: as(intruder) }],
    ];
    for (const [path, init] of attempts) await expectProblem(await call(path, init), 404, 'not-found');
    const theirs = await (await call('/api/webhooks', { headers: as(intruder) })).json<{
      items: unknown[];
    }>();
    expect(theirs.items).toEqual([]);

    // A partner key of another organisation: the same.
    const admin = await loginAdmin();
    const otherKey = await (
      await call(
        '/api/admin/api-keys',
        jsonInit(
          'POST',
          { name: 'other', scopes: ['webhooks:manage'], organisationId: await organisationOf(intruder) },
          as(admin),
        ),
      )
    ).json<{ key: string }>();
    const headers = { 'X-Service-Key': otherKey.key };
    await expectProblem(await call(`/api/v1/webhooks/${endpoint.id}`, { headers }), 404, 'not-found');
    await expectProblem(
      await call(`/api/v1/webhooks/${endpoint.id}/deliveries`, { headers }),
      404,
      'not-found',
    );
    await expectProblem(
      await call(`/api/v1/webhooks/${endpoint.id}/deliveries/${delivery.id}/redeliver`, {
        method: 'POST',
        headers,
      }),
      404,
      'not-found',
    );
    // A delivery id of another endpoint under one's own endpoint: 404 too.
    const { endpoint: own } = await endpointFor(intruder, 'own');
    await expectProblem(
      await call(`/api/webhooks/${own.id}/deliveries/${delivery.id}/redeliver`, {
        method: 'POST',
        headers: as(intruder),
      }),
      404,
      'not-found',
    );
    // Untouched.
    const [row] = await db()
      .select()
      .from(schema.webhookEndpoints)
      .where(eq(schema.webhookEndpoints.id, endpoint.id));
    expect(row).toMatchObject({ enabled: true, secret: endpoint.secret });
  });

  it('a webhooks key cannot be issued without an organisation (422); one left without (issued before) gets a 403 that says why; a key without the scope a 403', async () => {
    const admin = await loginAdmin();
    const refused = await expectProblem(
      await call(
        '/api/admin/api-keys',
        jsonInit('POST', { name: 'orphan', scopes: ['webhooks:manage'] }, as(admin)),
      ),
      422,
      'validation-failed',
    );
    expect(refused.errors?.[0]?.pointer).toBe('#/organisationId');
    const employer = await signup('employer');
    const issued = await call(
      '/api/admin/api-keys',
      jsonInit(
        'POST',
        { name: 'orphan', scopes: ['webhooks:manage'], organisationId: await organisationOf(employer) },
        as(admin),
      ),
    );
    expect(issued.status).toBe(201);
    const orphan = await issued.json<{ key: string; id: string }>();
    await db().update(schema.apiKeys).set({ organisationId: null }).where(eq(schema.apiKeys.id, orphan.id));
    const problem = await expectProblem(
      await call('/api/v1/webhooks', { headers: { 'X-Service-Key': orphan.key } }),
      403,
      'forbidden',
    );
    expect(problem.detail).toContain('organisation');
    const unscoped = await issueKey(admin, ['integrity:check']);
    const scope = await expectProblem(
      await call('/api/v1/webhooks', { headers: { 'X-Service-Key': unscoped.key } }),
      403,
      'forbidden',
    );
    expect(scope.detail).toContain('webhooks:manage');
  });

  it('candidates and admins have no organisation endpoints (403)', async () => {
    const candidate = await signup('candidate');
    await expectProblem(await call('/api/webhooks', { headers: as(candidate) }), 403, 'forbidden');
  });
});
