import { createRouter } from '../../http/create-app';
import * as handlers from './digilocker.handlers';
import * as routes from './digilocker.routes';

/** The holder's DigiLocker switch, per certificate (the issuer side: src/routes/digilocker). */
export const myDigiLockerRouter = createRouter()
  .openapi(routes.setMyCertificateDigiLocker, handlers.setMyCertificateDigiLocker)
  .openapi(routes.myDigiLockerActivity, handlers.myDigiLockerActivity);
