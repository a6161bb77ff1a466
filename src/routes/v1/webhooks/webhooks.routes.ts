/** `/api/v1/webhooks`: {WHO}'s webhook endpoints (docs/webhooks.md). */
import { z } from '@hono/zod-openapi';
import { defineRoute, IdParams } from '../../../http/route';
import { apiKeyAuth } from '../../../http/route-auth';
import { json } from '../../../lib/content';
import { cursorParam, limitParam } from '../../../lib/paging';
import { MAX_ENDPOINTS_PER_ORGANISATION } from '../../../services/webhooks/endpoints';
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

const WHO =
  'API key with `webhooks:manage` that acts for an organisation (a key without one is a 403); ' +
  "the organisation's endpoints only.";

export const createWebhook = defineRoute({
  method: 'post',
  path: '/api/v1/webhooks',
  operationId: 'createWebhook',
  idempotent: true,
  tags: ['Webhooks'],
  summary: 'Register a webhook endpoint',
  description:
    `${WHO} The signing secret is in this response only. An organisation has at most ` +
    `${MAX_ENDPOINTS_PER_ORGANISATION} endpoints, disabled ` +
    `ones included: one more is a 409 (\`conflict\`). ${SUSPENDED_DOC} ${DELIVERY_DOC}`,
  ...apiKeyAuth('webhooks:manage'),
  request: { body: { required: true, content: json(CreateWebhookSchema) } },
  responses: {
    201: { description: 'The endpoint, with its secret (shown once).', content: json(CreatedWebhookSchema) },
  },
});

export const listWebhooks = defineRoute({
  method: 'get',
  path: '/api/v1/webhooks',
  operationId: 'listWebhooks',
  tags: ['Webhooks'],
  summary: "List the organisation's webhook endpoints",
  description: WHO,
  ...apiKeyAuth('webhooks:manage'),
  request: { query: z.object({ limit: limitParam(20), cursor: cursorParam() }) },
  responses: {
    200: { description: 'Newest first; never the secrets.', content: json(WebhookEndpointPageSchema) },
  },
});

export const getWebhook = defineRoute({
  method: 'get',
  path: '/api/v1/webhooks/{id}',
  operationId: 'getWebhook',
  tags: ['Webhooks'],
  summary: 'Read a webhook endpoint',
  description: `${WHO} Another organisation's endpoint is a 404.`,
  ...apiKeyAuth('webhooks:manage'),
  request: { params: IdParams },
  responses: {
    200: { description: 'The endpoint (never its secret).', content: json(WebhookEndpointSchema) },
  },
});

export const updateWebhook = defineRoute({
  method: 'patch',
  path: '/api/v1/webhooks/{id}',
  operationId: 'updateWebhook',
  tags: ['Webhooks'],
  summary: 'Change a webhook endpoint',
  description: `${WHO} Change its URL, description or event types, or disable and enable it. ${SUSPENDED_DOC}`,
  ...apiKeyAuth('webhooks:manage'),
  request: { params: IdParams, body: { required: true, content: json(UpdateWebhookSchema) } },
  responses: { 200: { description: 'The endpoint as changed.', content: json(WebhookEndpointSchema) } },
});

export const deleteWebhook = defineRoute({
  method: 'delete',
  path: '/api/v1/webhooks/{id}',
  operationId: 'deleteWebhook',
  tags: ['Webhooks'],
  summary: 'Delete a webhook endpoint',
  description: `${WHO} Its pending deliveries and delivery log go with it.`,
  ...apiKeyAuth('webhooks:manage'),
  request: { params: IdParams },
  responses: { 204: { description: 'Deleted.' } },
});

export const rotateWebhookSecret = defineRoute({
  method: 'post',
  path: '/api/v1/webhooks/{id}/rotate-secret',
  operationId: 'rotateWebhookSecret',
  idempotent: true,
  tags: ['Webhooks'],
  summary: "Rotate a webhook endpoint's signing secret",
  description:
    `${WHO} Returns a new secret. For 24 hours deliveries carry two signatures (new and old secret, ` +
    'space-separated in `webhook-signature`), so a receiver can switch without losing a message.',
  ...apiKeyAuth('webhooks:manage'),
  errors: [409],
  request: { params: IdParams },
  responses: { 200: { description: 'The new secret (shown once).', content: json(RotatedSecretSchema) } },
});

export const pingWebhook = defineRoute({
  method: 'post',
  path: '/api/v1/webhooks/{id}/ping',
  operationId: 'pingWebhook',
  idempotent: true,
  tags: ['Webhooks'],
  summary: 'Send a test event',
  description:
    `${WHO} Queues a \`webhook.ping\` event (data: \`{endpointId}\`) to this endpoint, signed like any other. ` +
    'One attempt, now: not retried, so a failure ends the delivery `failed`; it shows in the delivery log. ' +
    'Pings do not count towards disabling a failing endpoint. A disabled endpoint is a 409.',
  ...apiKeyAuth('webhooks:manage'),
  errors: [409],
  request: { params: IdParams },
  responses: { 202: { description: 'The delivery, queued.', content: json(WebhookDeliverySchema) } },
});

export const listWebhookDeliveries = defineRoute({
  method: 'get',
  path: '/api/v1/webhooks/{id}/deliveries',
  operationId: 'listWebhookDeliveries',
  tags: ['Webhooks'],
  summary: 'The delivery log of a webhook endpoint',
  description: `${WHO} Each delivery with its state, next attempt, and every attempt's status code, latency and error.`,
  ...apiKeyAuth('webhooks:manage'),
  request: { params: IdParams, query: z.object({ limit: limitParam(20), cursor: cursorParam() }) },
  responses: { 200: { description: 'Newest first.', content: json(WebhookDeliveryPageSchema) } },
});

export const redeliverWebhook = defineRoute({
  method: 'post',
  path: '/api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver',
  operationId: 'redeliverWebhook',
  idempotent: true,
  tags: ['Webhooks'],
  summary: 'Redeliver an event now',
  description:
    `${WHO} One new attempt of a delivery that succeeded, failed or was dead-lettered, with the same ` +
    '`webhook-id`. A delivery still being retried, or a disabled endpoint, is a 409.',
  ...apiKeyAuth('webhooks:manage'),
  errors: [409],
  request: { params: DeliveryParams },
  responses: { 202: { description: 'The delivery, queued again.', content: json(WebhookDeliverySchema) } },
});
