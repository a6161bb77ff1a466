/** `/api/webhooks`: {WHO}'s webhook endpoints (docs/webhooks.md). */
import { z } from '@hono/zod-openapi';
import { defineRoute, IdParams } from '../../http/route';
import { sessionAuth } from '../../http/route-auth';
import { json } from '../../lib/content';
import { cursorParam, limitParam } from '../../lib/paging';
import { MAX_ENDPOINTS_PER_ORGANISATION } from '../../services/webhooks/endpoints';
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
} from '../v1/webhooks/webhooks.schemas';

const WHO =
  'Employers, for their organisation (the same as `/api/v1/webhooks` for partner keys); ' +
  "the organisation's endpoints only.";

export const orgCreateWebhook = defineRoute({
  method: 'post',
  path: '/api/webhooks',
  operationId: 'createOrganisationWebhook',
  idempotent: true,
  tags: ['Webhooks'],
  summary: 'Register a webhook endpoint',
  description:
    `${WHO} The signing secret is in this response only. An organisation has at most ` +
    `${MAX_ENDPOINTS_PER_ORGANISATION} endpoints, disabled ` +
    `ones included: one more is a 409 (\`conflict\`). ${SUSPENDED_DOC} ${DELIVERY_DOC}`,
  ...sessionAuth('employer'),
  request: { body: { required: true, content: json(CreateWebhookSchema) } },
  responses: {
    201: { description: 'The endpoint, with its secret (shown once).', content: json(CreatedWebhookSchema) },
  },
});

export const orgListWebhooks = defineRoute({
  method: 'get',
  path: '/api/webhooks',
  operationId: 'listOrganisationWebhooks',
  tags: ['Webhooks'],
  summary: "List the organisation's webhook endpoints",
  description: WHO,
  ...sessionAuth('employer'),
  request: { query: z.object({ limit: limitParam(20), cursor: cursorParam() }) },
  responses: {
    200: { description: 'Newest first; never the secrets.', content: json(WebhookEndpointPageSchema) },
  },
});

export const orgGetWebhook = defineRoute({
  method: 'get',
  path: '/api/webhooks/{id}',
  operationId: 'getOrganisationWebhook',
  tags: ['Webhooks'],
  summary: 'Read a webhook endpoint',
  description: `${WHO} Another organisation's endpoint is a 404.`,
  ...sessionAuth('employer'),
  request: { params: IdParams },
  responses: {
    200: { description: 'The endpoint (never its secret).', content: json(WebhookEndpointSchema) },
  },
});

export const orgUpdateWebhook = defineRoute({
  method: 'patch',
  path: '/api/webhooks/{id}',
  operationId: 'updateOrganisationWebhook',
  tags: ['Webhooks'],
  summary: 'Change a webhook endpoint',
  description: `${WHO} Change its URL, description or event types, or disable and enable it. ${SUSPENDED_DOC}`,
  ...sessionAuth('employer'),
  request: { params: IdParams, body: { required: true, content: json(UpdateWebhookSchema) } },
  responses: { 200: { description: 'The endpoint as changed.', content: json(WebhookEndpointSchema) } },
});

export const orgDeleteWebhook = defineRoute({
  method: 'delete',
  path: '/api/webhooks/{id}',
  operationId: 'deleteOrganisationWebhook',
  tags: ['Webhooks'],
  summary: 'Delete a webhook endpoint',
  description: `${WHO} Its pending deliveries and delivery log go with it.`,
  ...sessionAuth('employer'),
  request: { params: IdParams },
  responses: { 204: { description: 'Deleted.' } },
});

export const orgRotateWebhookSecret = defineRoute({
  method: 'post',
  path: '/api/webhooks/{id}/rotate-secret',
  operationId: 'rotateOrganisationWebhookSecret',
  idempotent: true,
  tags: ['Webhooks'],
  summary: "Rotate a webhook endpoint's signing secret",
  description:
    `${WHO} Returns a new secret. For 24 hours deliveries carry two signatures (new and old secret, ` +
    'space-separated in `webhook-signature`), so a receiver can switch without losing a message.',
  ...sessionAuth('employer'),
  errors: [409],
  request: { params: IdParams },
  responses: { 200: { description: 'The new secret (shown once).', content: json(RotatedSecretSchema) } },
});

export const orgPingWebhook = defineRoute({
  method: 'post',
  path: '/api/webhooks/{id}/ping',
  operationId: 'pingOrganisationWebhook',
  idempotent: true,
  tags: ['Webhooks'],
  summary: 'Send a test event',
  description:
    `${WHO} Queues a \`webhook.ping\` event (data: \`{endpointId}\`) to this endpoint, signed like any other. ` +
    'One attempt, now: not retried, so a failure ends the delivery `failed`; it shows in the delivery log. ' +
    'Pings do not count towards disabling a failing endpoint. A disabled endpoint is a 409.',
  ...sessionAuth('employer'),
  errors: [409],
  request: { params: IdParams },
  responses: { 202: { description: 'The delivery, queued.', content: json(WebhookDeliverySchema) } },
});

export const orgListWebhookDeliveries = defineRoute({
  method: 'get',
  path: '/api/webhooks/{id}/deliveries',
  operationId: 'listOrganisationWebhookDeliveries',
  tags: ['Webhooks'],
  summary: 'The delivery log of a webhook endpoint',
  description: `${WHO} Each delivery with its state, next attempt, and every attempt's status code, latency and error.`,
  ...sessionAuth('employer'),
  request: { params: IdParams, query: z.object({ limit: limitParam(20), cursor: cursorParam() }) },
  responses: { 200: { description: 'Newest first.', content: json(WebhookDeliveryPageSchema) } },
});

export const orgRedeliverWebhook = defineRoute({
  method: 'post',
  path: '/api/webhooks/{id}/deliveries/{deliveryId}/redeliver',
  operationId: 'redeliverOrganisationWebhook',
  idempotent: true,
  tags: ['Webhooks'],
  summary: 'Redeliver an event now',
  description:
    `${WHO} One new attempt of a delivery that succeeded, failed or was dead-lettered, with the same ` +
    '`webhook-id`. A delivery still being retried, or a disabled endpoint, is a 409.',
  ...sessionAuth('employer'),
  errors: [409],
  request: { params: DeliveryParams },
  responses: { 202: { description: 'The delivery, queued again.', content: json(WebhookDeliverySchema) } },
});
