import { createRouter } from '../../http/create-app';
import * as handlers from './agreement.handlers';
import * as routes from './agreement.routes';

export const agreementRouter = createRouter()
  .openapi(routes.getPublicAgreementRate, handlers.publicAgreementRate)
  .openapi(routes.getScopedAgreement, handlers.scopedAgreementRate);
