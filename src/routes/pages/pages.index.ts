import { createRouter } from '../../http/create-app';
import * as handlers from './pages.handlers';
import * as routes from './pages.routes';

/** Human-facing pages: the landing page, the embeddable leaderboard (and its loader script) and verification. */
export const pagesRouter = createRouter()
  .openapi(routes.embedLeaderboard, handlers.embed)
  .openapi(routes.embedLoader, handlers.loader)
  .openapi(routes.verifyPage, handlers.verify)
  .openapi(routes.verifierPage, handlers.verifier)
  .openapi(routes.verifierSubmit, handlers.verifierSubmit)
  .openapi(routes.homePage, handlers.home);
