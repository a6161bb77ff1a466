import { createRouter } from '../../http/create-app';
import * as handlers from './send-to-host.handlers';
import * as routes from './send-to-host.routes';

/** "Send to my host": a holder hands a certificate to their own Open Badges host (OB 3.0 API client). */
export const sendToHostRouter = createRouter()
  .openapi(routes.startSendToHost, handlers.start)
  .openapi(routes.sendToHostCallback, handlers.callback);
