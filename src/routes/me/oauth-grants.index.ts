import { createRouter } from '../../http/create-app';
import * as handlers from './oauth-grants.handlers';
import * as routes from './oauth-grants.routes';

/** The holder's grants to Open Badges API clients: listed and revocable (consents). */
export const oauthGrantsRouter = createRouter()
  .openapi(routes.listGrants, handlers.list)
  .openapi(routes.revokeGrant, handlers.revoke);
