import { createRouter } from '../../http/create-app';
import * as handlers from './webhooks.handlers';
import * as routes from './webhooks.routes';

export const organisationWebhooksRouter = createRouter()
  .openapi(routes.orgCreateWebhook, handlers.create)
  .openapi(routes.orgListWebhooks, handlers.list)
  .openapi(routes.orgGetWebhook, handlers.get)
  .openapi(routes.orgUpdateWebhook, handlers.update)
  .openapi(routes.orgDeleteWebhook, handlers.remove)
  .openapi(routes.orgRotateWebhookSecret, handlers.rotate)
  .openapi(routes.orgPingWebhook, handlers.ping)
  .openapi(routes.orgListWebhookDeliveries, handlers.deliveries)
  .openapi(routes.orgRedeliverWebhook, handlers.redeliver);
