import { createRouter } from '../../http/create-app';
import * as handlers from './certificates.handlers';
import * as routes from './certificates.routes';

export const certificatesRouter = createRouter()
  .openapi(routes.verifyCertificate, handlers.verify)
  .openapi(routes.getJwks, handlers.jwks)
  .openapi(routes.revokeCertificate, handlers.revoke)
  .openapi(routes.getBadgeSvg, handlers.badgeSvg)
  .openapi(routes.getBadgePng, handlers.badgePng);
