import { createRouter } from '../../http/create-app';
import * as handlers from './oauth.handlers';
import * as routes from './oauth.routes';

/** The Open Badges API's authorization page; the other OAuth endpoints are the library's (src/index.ts). */
export const oauthRouter = createRouter()
  .openapi(routes.authorizePage, handlers.page)
  .openapi(routes.authorizeDecision, handlers.decide);

// Documented only: the OAuth library answers these paths before the app sees them.
oauthRouter.openAPIRegistry.registerPath(routes.registerClient);
oauthRouter.openAPIRegistry.registerPath(routes.token);
oauthRouter.openAPIRegistry.registerPath(routes.metadata);
