import type { AppRouteHandler } from '../../../http/types';
import { decodeCursor, toPage } from '../../../lib/paging';
import { keyActor } from '../../../services/webhooks/actors';
import * as delivery from '../../../services/webhooks/delivery';
import * as endpoints from '../../../services/webhooks/endpoints';
import type * as routes from './webhooks.routes';

export const create: AppRouteHandler<typeof routes.createWebhook> = async (c) => {
  const { endpoint, secret } = await endpoints.createEndpoint(
    c.env,
    c.var.db,
    keyActor(c.var.apiKey),
    c.req.valid('json'),
  );
  return c.json({ ...endpoints.endpointView(endpoint), secret }, 201);
};

export const list: AppRouteHandler<typeof routes.listWebhooks> = async (c) => {
  const { limit, cursor } = c.req.valid('query');
  const actor = keyActor(c.var.apiKey);
  const rows = await endpoints.listEndpoints(c.var.db, actor.organisationId, limit, decodeCursor(cursor));
  const page = toPage(rows, limit);
  return c.json(
    { items: page.items.map((e) => endpoints.endpointView(e)), nextCursor: page.nextCursor },
    200,
  );
};

export const get: AppRouteHandler<typeof routes.getWebhook> = async (c) => {
  const actor = keyActor(c.var.apiKey);
  const row = await endpoints.ownEndpoint(c.var.db, actor.organisationId, c.req.valid('param').id);
  return c.json(endpoints.endpointView(row), 200);
};

export const update: AppRouteHandler<typeof routes.updateWebhook> = async (c) => {
  const row = await endpoints.updateEndpoint(
    c.env,
    c.var.db,
    keyActor(c.var.apiKey),
    c.req.valid('param').id,
    c.req.valid('json'),
  );
  return c.json(endpoints.endpointView(row), 200);
};

export const remove: AppRouteHandler<typeof routes.deleteWebhook> = async (c) => {
  await endpoints.deleteEndpoint(c.var.db, keyActor(c.var.apiKey), c.req.valid('param').id);
  return c.body(null, 204);
};

export const rotate: AppRouteHandler<typeof routes.rotateWebhookSecret> = async (c) => {
  const { endpoint, secret } = await endpoints.rotateSecret(
    c.var.db,
    keyActor(c.var.apiKey),
    c.req.valid('param').id,
  );
  return c.json({ endpoint: endpoints.endpointView(endpoint), secret }, 200);
};

export const ping: AppRouteHandler<typeof routes.pingWebhook> = async (c) => {
  const actor = keyActor(c.var.apiKey);
  const row = await delivery.ping(c.env, actor.organisationId, c.req.valid('param').id);
  return c.json(delivery.deliveryView(row, 'webhook.ping'), 202);
};

export const deliveries: AppRouteHandler<typeof routes.listWebhookDeliveries> = async (c) => {
  const { limit, cursor } = c.req.valid('query');
  const actor = keyActor(c.var.apiKey);
  const rows = await delivery.listDeliveries(
    c.var.db,
    actor.organisationId,
    c.req.valid('param').id,
    limit,
    decodeCursor(cursor),
  );
  const page = toPage(rows, limit, (r) => r.delivery);
  return c.json(
    {
      items: page.items.map((r) => delivery.deliveryView(r.delivery, r.eventType, r.attemptLog)),
      nextCursor: page.nextCursor,
    },
    200,
  );
};

export const redeliver: AppRouteHandler<typeof routes.redeliverWebhook> = async (c) => {
  const actor = keyActor(c.var.apiKey);
  const { id, deliveryId } = c.req.valid('param');
  const row = await delivery.redeliver(c.env, actor.organisationId, id, deliveryId);
  const [log] = await delivery.listDeliveryById(c.var.db, row.id);
  return c.json(delivery.deliveryView(row, log?.eventType ?? '', log?.attemptLog ?? []), 202);
};
