import { createRouter } from '../../http/create-app';
import * as handlers from './consent.handlers';
import * as routes from './consent.routes';

export const consentRouter = createRouter()
  .openapi(routes.recordConsent, handlers.record)
  .openapi(routes.getNotice, handlers.notice);
