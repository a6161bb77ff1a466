import { describe, expect, expectTypeOf, it } from 'vitest';
import type { WebhookEvent as ClientWebhookEvent } from '../clients/typescript/src/index';
import { app } from '../src/app';
import * as schema from '../src/db/schema';
import {
  WEBHOOK_EVENT_SCHEMAS,
  type WebhookEvent,
  type WebhookEventName,
  WebhookEventSchema,
} from '../src/domain/webhooks/event-schemas';
import { CANONICAL_SERVER_URL, openApiDocument, WEBHOOKS_ENTRY } from '../src/http/openapi';
import { ALL_CONSENTS, consent, publishedBrief, signup, verifyOrganisation } from './harness';
import { as, call, eventually } from './helpers';
import {
  ALL_EVENTS,
  drainWebhookJobs,
  endpointFor,
  everyEventWorkflow,
  received,
  verifyAll,
} from './webhook-fixtures';

const EVERY_TYPE = [...schema.WEBHOOK_EVENT_TYPES, 'webhook.ping'].sort();

describe('every event the service delivers matches its schema', () => {
  it('evaluation.completed, submission.rated, certificate.issued and .revoked, dsr.erasure.completed, webhook.ping', async () => {
    const employer = await signup('employer');
    const candidate = await signup('candidate');
    await verifyOrganisation(employer);
    const { endpoint, name } = await endpointFor(employer, 'schemas', ALL_EVENTS);

    // The workflow of test/webhooks.test.ts: work rated to a certificate, its revocation, the
    // candidate's erasure, and a ping.
    for (const purpose of ALL_CONSENTS) await consent(candidate, purpose);
    const brief = await publishedBrief(employer, { durationDays: 1 });
    await everyEventWorkflow(employer, candidate, brief);
    const pinged = await call(`/api/webhooks/${endpoint.id}/ping`, { method: 'POST', headers: as(employer) });
    expect(pinged.status).toBe(202);
    await drainWebhookJobs();

    const requests = await eventually(async () => {
      const all = await received(name);
      return all.some((r) => r.body.includes('"webhook.ping"')) ? all : undefined;
    });
    const bodies = verifyAll(endpoint.secret, requests);
    expect([...new Set(bodies.map((b) => b.type))].sort()).toEqual(EVERY_TYPE);

    for (const body of bodies) {
      const label = `${body.type} ${JSON.stringify(body.data)}`;
      const parsed = WebhookEventSchema.safeParse(body);
      expect(parsed.error?.issues, label).toBeUndefined();
      // Parsing drops what a schema does not name: equal means the body has no undocumented field.
      expect(parsed.data, label).toEqual(body);
      const own = WEBHOOK_EVENT_SCHEMAS[body.type as WebhookEventName];
      expect(own.safeParse(body).success, label).toBe(true);
    }
  }, 120_000);

  it('rejects a body that drifted from its schema (a renamed field, a value it cannot have)', () => {
    const event = {
      type: 'certificate.revoked',
      timestamp: '2025-01-31T09:30:00.000Z',
      data: {
        certificateId: 'c1',
        certificateNo: 'VP-DEM0-CERT-1FY3',
        briefId: 'b1',
        status: 'revoked',
        at: '2025-01-31T09:30:00.000Z',
      },
    };
    expect(WebhookEventSchema.safeParse(event).success).toBe(true);
    const { certificateNo, ...renamed } = event.data;
    for (const data of [
      { ...renamed, certificateNumber: certificateNo },
      { ...event.data, status: 'active' },
      { ...event.data, at: 'yesterday' },
    ])
      expect(WebhookEventSchema.safeParse({ ...event, data }).success, JSON.stringify(data)).toBe(false);
    expect(WebhookEventSchema.safeParse({ ...event, type: 'certificate.deleted' }).success).toBe(false);
  });
});

describe('the schemas in the OpenAPI document', () => {
  type Schema = {
    oneOf?: { $ref: string }[];
    discriminator?: { propertyName: string; mapping: Record<string, string> };
    enum?: string[];
    properties?: Record<string, Schema & { $ref?: string }>;
    required?: string[];
  };
  const doc = openApiDocument(app, CANONICAL_SERVER_URL);
  const schemas = (doc.components?.schemas ?? {}) as Record<string, Schema>;
  const ref = (name: string) => `#/components/schemas/${name}`;
  const named = (r: string) => schemas[r.replace('#/components/schemas/', '')];

  it('has the union and every event and its data as components', () => {
    const events = [
      'EvaluationCompletedEvent',
      'SubmissionRatedEvent',
      'CertificateIssuedEvent',
      'CertificateRevokedEvent',
      'ErasureCompletedEvent',
      'WebhookPingEvent',
    ];
    for (const name of ['WebhookEvent', ...events, ...events.map((e) => `${e}Data`)])
      expect(schemas[name], name).toBeDefined();
    expect(schemas.WebhookEvent?.oneOf).toEqual(events.map((e) => ({ $ref: ref(e) })));
    for (const name of events) {
      expect(schemas[name]?.required, name).toEqual(['type', 'timestamp', 'data']);
      expect(schemas[name]?.properties?.data?.$ref, name).toBe(ref(`${name}Data`));
    }
  });

  it('discriminates on type: the subscribable event types (WebhookEventType) and webhook.ping, each its own', () => {
    const union = schemas.WebhookEvent!;
    expect(union.discriminator?.propertyName).toBe('type');
    const mapping = union.discriminator?.mapping ?? {};
    expect(Object.keys(mapping).sort()).toEqual(EVERY_TYPE);
    expect([...(schemas.WebhookEventType?.enum ?? []), 'webhook.ping'].sort()).toEqual(EVERY_TYPE);
    for (const [type, target] of Object.entries(mapping))
      expect(named(target)?.properties?.type?.enum, type).toEqual([type]);
    // The zod union the builders are typed by says the same.
    expect(WebhookEventSchema.options.map((o) => o.shape.type.value).sort()).toEqual(EVERY_TYPE);
    expect(Object.keys(WEBHOOK_EVENT_SCHEMAS).sort()).toEqual(EVERY_TYPE);
  });

  it('describes the delivery in x-webhooks: a POST whose body is a WebhookEvent', () => {
    const webhooks = doc['x-webhooks'];
    expect(Object.keys(webhooks)).toEqual([WEBHOOKS_ENTRY]);
    expect(webhooks[WEBHOOKS_ENTRY].post.requestBody.content['application/json'].schema).toEqual({
      $ref: ref('WebhookEvent'),
    });
  });

  it("types the client's WebhookEvent as the server's", () => {
    expectTypeOf<ClientWebhookEvent>().toEqualTypeOf<WebhookEvent>();
    expectTypeOf<WebhookEventName>().toEqualTypeOf<schema.WebhookEventType | 'webhook.ping'>();
  });
});
