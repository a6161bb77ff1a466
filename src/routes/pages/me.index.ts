import { createRouter } from '../../http/create-app';
import * as handlers from './me.handlers';
import * as routes from './me.routes';

/** The holder's home (`/me`, HTML) and the forms it posts. */
export const mePageRouter = createRouter()
  .openapi(routes.homePage, handlers.home)
  .openapi(routes.signIn, handlers.signIn)
  .openapi(routes.signOut, handlers.signOut)
  .openapi(routes.consent, handlers.consent)
  .openapi(routes.publicName, handlers.publicName)
  .openapi(routes.revokeApplication, handlers.revokeApplication)
  .openapi(routes.resendConfirmation, handlers.resendConfirmation);
