import { createRouter } from '../../../http/create-app';
import * as handlers from './keys.handlers';
import * as routes from './keys.routes';

export const keysRouter = createRouter()
  .openapi(routes.getKeySelf, handlers.self)
  .openapi(routes.getKeySelfUsage, handlers.usage);
