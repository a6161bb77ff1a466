import { createRouter } from '../../lib/create-app';
import * as handlers from './api-keys.handlers';
import * as routes from './api-keys.routes';

export const apiKeysRouter = createRouter()
  .openapi(routes.createApiKey, handlers.create)
  .openapi(routes.listApiKeys, handlers.list)
  .openapi(routes.revokeApiKey, handlers.revoke)
  .openapi(routes.getKeySelf, handlers.self);
