/**
 * The webhook endpoints' nine operations (docs/webhooks.md), defined once for each surface that
 * manages them: partner API keys at `/api/v1/webhooks`, an organisation's employers at
 * `/api/webhooks`. Only the path, the operationIds, the auth and who the caller acts as differ.
 */
import { z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { defineRoute, IdParams } from '../../http/route';
import { json } from '../../lib/content';
import { cursorParam, limitParam } from '../../lib/paging';
import type { AppVariables } from '../../middleware/context';
import { MAX_ENDPOINTS_PER_ORGANISATION, type WebhookActor } from '../../services/webhooks/endpoints';
import {
  CreatedWebhookSchema,
  CreateWebhookSchema,
  DELIVERY_DOC,
  DeliveryParams,
  RotatedSecretSchema,
  SUSPENDED_DOC,
  UpdateWebhookSchema,
  WebhookDeliveryPageSchema,
  WebhookDeliverySchema,
  WebhookEndpointPageSchema,
  WebhookEndpointSchema,
} from './webhooks.schemas';

/** One surface of the webhook operations. `V` is what its auth middleware guarantees in `c.var`. */
export type WebhookSurface<V extends AppVariables> = {
  /** The collection's path, e.g. `/api/v1/webhooks`. */
  path: '/api/v1/webhooks' | '/api/webhooks';
  /** Put before `Webhook` in every operationId (`createWebhook`, `createOrganisationWebhook`). */
  operationQualifier: '' | 'Organisation';
  /** Who may call, opening every description. */
  who: string;
  /** The route's auth (`apiKeyAuth(...)`, `sessionAuth(...)`). */
  auth: {
    security: Record<string, string[]>[];
    middleware: MiddlewareHandler<{ Bindings: Env; Variables: V }>;
  };
  /** The organisation (and person or key) the caller acts for. */
  actor: (vars: V) => WebhookActor | Promise<WebhookActor>;
};

export function webhookRoutes<V extends AppVariables>(surface: WebhookSurface<V>) {
  const { path, who: WHO, auth } = surface;
  const op = (verb: string, rest = '') => `${verb}${surface.operationQualifier}Webhook${rest}`;
  return {
    create: defineRoute({
      method: 'post',
      path,
      operationId: op('create'),
      idempotent: true,
      tags: ['Webhooks'],
      summary: 'Register a webhook endpoint',
      description:
        `${WHO} The signing secret is in this response only. An organisation has at most ` +
        `${MAX_ENDPOINTS_PER_ORGANISATION} endpoints, disabled ` +
        `ones included: one more is a 409 (\`conflict\`). ${SUSPENDED_DOC} ${DELIVERY_DOC}`,
      ...auth,
      request: { body: { required: true, content: json(CreateWebhookSchema) } },
      responses: {
        201: {
          description: 'The endpoint, with its secret (shown once).',
          content: json(CreatedWebhookSchema),
        },
      },
    }),
    list: defineRoute({
      method: 'get',
      path,
      operationId: op('list', 's'),
      tags: ['Webhooks'],
      summary: "List the organisation's webhook endpoints",
      description: WHO,
      ...auth,
      request: { query: z.object({ limit: limitParam(20), cursor: cursorParam() }) },
      responses: {
        200: { description: 'Newest first; never the secrets.', content: json(WebhookEndpointPageSchema) },
      },
    }),
    get: defineRoute({
      method: 'get',
      path: `${path}/{id}`,
      operationId: op('get'),
      tags: ['Webhooks'],
      summary: 'Read a webhook endpoint',
      description: `${WHO} Another organisation's endpoint is a 404.`,
      ...auth,
      request: { params: IdParams },
      responses: {
        200: { description: 'The endpoint (never its secret).', content: json(WebhookEndpointSchema) },
      },
    }),
    update: defineRoute({
      method: 'patch',
      path: `${path}/{id}`,
      operationId: op('update'),
      tags: ['Webhooks'],
      summary: 'Change a webhook endpoint',
      description: `${WHO} Change its URL, description or event types, or disable and enable it. ${SUSPENDED_DOC}`,
      ...auth,
      request: { params: IdParams, body: { required: true, content: json(UpdateWebhookSchema) } },
      responses: { 200: { description: 'The endpoint as changed.', content: json(WebhookEndpointSchema) } },
    }),
    remove: defineRoute({
      method: 'delete',
      path: `${path}/{id}`,
      operationId: op('delete'),
      tags: ['Webhooks'],
      summary: 'Delete a webhook endpoint',
      description: `${WHO} Its pending deliveries and delivery log go with it.`,
      ...auth,
      request: { params: IdParams },
      responses: { 204: { description: 'Deleted.' } },
    }),
    rotate: defineRoute({
      method: 'post',
      path: `${path}/{id}/rotate-secret`,
      operationId: op('rotate', 'Secret'),
      idempotent: true,
      tags: ['Webhooks'],
      summary: "Rotate a webhook endpoint's signing secret",
      description:
        `${WHO} Returns a new secret. For 24 hours deliveries carry two signatures (new and old secret, ` +
        'space-separated in `webhook-signature`), so a receiver can switch without losing a message.',
      ...auth,
      errors: [409],
      request: { params: IdParams },
      responses: { 200: { description: 'The new secret (shown once).', content: json(RotatedSecretSchema) } },
    }),
    ping: defineRoute({
      method: 'post',
      path: `${path}/{id}/ping`,
      operationId: op('ping'),
      idempotent: true,
      tags: ['Webhooks'],
      summary: 'Send a test event',
      description:
        `${WHO} Queues a \`webhook.ping\` event (data: \`{endpointId}\`) to this endpoint, signed like any other. ` +
        'One attempt, now: not retried, so a failure ends the delivery `failed`; it shows in the delivery log. ' +
        'Pings do not count towards disabling a failing endpoint. A disabled endpoint is a 409.',
      ...auth,
      errors: [409],
      request: { params: IdParams },
      responses: { 202: { description: 'The delivery, queued.', content: json(WebhookDeliverySchema) } },
    }),
    deliveries: defineRoute({
      method: 'get',
      path: `${path}/{id}/deliveries`,
      operationId: op('list', 'Deliveries'),
      tags: ['Webhooks'],
      summary: 'The delivery log of a webhook endpoint',
      description: `${WHO} Each delivery with its state, next attempt, and every attempt's status code, latency and error.`,
      ...auth,
      request: { params: IdParams, query: z.object({ limit: limitParam(20), cursor: cursorParam() }) },
      responses: { 200: { description: 'Newest first.', content: json(WebhookDeliveryPageSchema) } },
    }),
    redeliver: defineRoute({
      method: 'post',
      path: `${path}/{id}/deliveries/{deliveryId}/redeliver`,
      operationId: op('redeliver'),
      idempotent: true,
      tags: ['Webhooks'],
      summary: 'Redeliver an event now',
      description:
        `${WHO} One new attempt of a delivery that succeeded, failed or was dead-lettered, with the same ` +
        '`webhook-id`. A delivery still being retried, or a disabled endpoint, is a 409.',
      ...auth,
      errors: [409],
      request: { params: DeliveryParams },
      responses: {
        202: { description: 'The delivery, queued again.', content: json(WebhookDeliverySchema) },
      },
    }),
  };
}
