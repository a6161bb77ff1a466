import { createRouter } from '../../../http/create-app';
import * as handlers from './webhooks.handlers';
import * as routes from './webhooks.routes';

export const webhooksRouter = createRouter()
  .openapi(routes.createWebhook, handlers.create)
  .openapi(routes.listWebhooks, handlers.list)
  .openapi(routes.getWebhook, handlers.get)
  .openapi(routes.updateWebhook, handlers.update)
  .openapi(routes.deleteWebhook, handlers.remove)
  .openapi(routes.rotateWebhookSecret, handlers.rotate)
  .openapi(routes.pingWebhook, handlers.ping)
  .openapi(routes.listWebhookDeliveries, handlers.deliveries)
  .openapi(routes.redeliverWebhook, handlers.redeliver);
