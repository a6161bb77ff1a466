import { createRouter } from '../../http/create-app';
import * as handlers from './digilocker.handlers';
import * as routes from './digilocker.routes';

/** The platform as a DigiLocker issuer: the two endpoints DigiLocker calls (docs/digilocker.md). */
export const digilockerRouter = createRouter()
  .openapi(routes.pullUri, handlers.pullUri)
  .openapi(routes.pullDoc, handlers.pullDoc);
