import { createRouter } from '../../http/create-app';
import { decodeCursor, toPage } from '../../lib/paging';
import type { AppVariables } from '../../middleware/context';
import * as delivery from '../../services/webhooks/delivery';
import * as endpoints from '../../services/webhooks/endpoints';
import { type WebhookSurface, webhookRoutes } from './webhooks.routes';

/** The nine webhook operations of one surface, routed: the same handlers for every surface. */
export function webhookRouter<V extends AppVariables>(surface: WebhookSurface<V>) {
  const routes = webhookRoutes(surface);
  // The route's auth middleware has run: `c.var` holds what `V` says.
  const actor = (vars: AppVariables) => surface.actor(vars as V);
  return createRouter()
    .openapi(routes.create, async (c) => {
      const { endpoint, secret } = await endpoints.createEndpoint(
        c.var.db,
        c.env,
        await actor(c.var),
        c.req.valid('json'),
      );
      return c.json({ ...endpoints.endpointView(endpoint), secret }, 201);
    })
    .openapi(routes.list, async (c) => {
      const { limit, cursor } = c.req.valid('query');
      const { organisationId } = await actor(c.var);
      const rows = await endpoints.listEndpoints(c.var.db, organisationId, limit, decodeCursor(cursor));
      const page = toPage(rows, limit);
      return c.json(
        { items: page.items.map((e) => endpoints.endpointView(e)), nextCursor: page.nextCursor },
        200,
      );
    })
    .openapi(routes.get, async (c) => {
      const { organisationId } = await actor(c.var);
      const row = await endpoints.ownEndpoint(c.var.db, organisationId, c.req.valid('param').id);
      return c.json(endpoints.endpointView(row), 200);
    })
    .openapi(routes.update, async (c) => {
      const row = await endpoints.updateEndpoint(
        c.var.db,
        c.env,
        await actor(c.var),
        c.req.valid('param').id,
        c.req.valid('json'),
      );
      return c.json(endpoints.endpointView(row), 200);
    })
    .openapi(routes.remove, async (c) => {
      await endpoints.deleteEndpoint(c.var.db, await actor(c.var), c.req.valid('param').id);
      return c.body(null, 204);
    })
    .openapi(routes.rotate, async (c) => {
      const { endpoint, secret } = await endpoints.rotateSecret(
        c.var.db,
        await actor(c.var),
        c.req.valid('param').id,
      );
      return c.json({ endpoint: endpoints.endpointView(endpoint), secret }, 200);
    })
    .openapi(routes.ping, async (c) => {
      const { organisationId } = await actor(c.var);
      const row = await delivery.ping(c.var.db, c.env, organisationId, c.req.valid('param').id);
      return c.json(delivery.deliveryView(row, 'webhook.ping'), 202);
    })
    .openapi(routes.deliveries, async (c) => {
      const { limit, cursor } = c.req.valid('query');
      const { organisationId } = await actor(c.var);
      const rows = await delivery.listDeliveries(
        c.var.db,
        organisationId,
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
    })
    .openapi(routes.redeliver, async (c) => {
      const { organisationId } = await actor(c.var);
      const { id, deliveryId } = c.req.valid('param');
      const row = await delivery.redeliver(c.var.db, c.env, organisationId, id, deliveryId);
      const [log] = await delivery.listDeliveryById(c.var.db, row.id);
      return c.json(delivery.deliveryView(row, log?.eventType ?? '', log?.attemptLog ?? []), 202);
    });
}
