import { createRouter } from '../../http/create-app';
import * as handlers from './auth.handlers';
import * as routes from './auth.routes';
import * as confirmationHandlers from './confirmation.handlers';
import * as confirmationRoutes from './confirmation.routes';

export const authRouter = createRouter()
  .openapi(routes.signup, handlers.signup)
  .openapi(routes.login, handlers.login)
  .openapi(routes.logout, handlers.logout)
  .openapi(confirmationRoutes.openConfirmationLink, confirmationHandlers.open)
  .openapi(confirmationRoutes.confirmEmail, confirmationHandlers.confirm)
  .openapi(confirmationRoutes.getEmailConfirmation, confirmationHandlers.status)
  .openapi(confirmationRoutes.resendEmailConfirmation, confirmationHandlers.resend);
