import { createRouter } from '../../http/create-app';
import * as handlers from './guardian.handlers';
import * as routes from './guardian.routes';

/** Children's guardians (DPDP §9): `/api/me/guardian` for the child, `/api/guardian/*` for the guardian. */
export const guardianRouter = createRouter()
  .openapi(routes.getMyGuardian, handlers.getMyGuardian)
  .openapi(routes.nameMyGuardian, handlers.nameMyGuardian)
  .openapi(routes.listGuardianRequests, handlers.listRequests)
  .openapi(routes.approveGuardianRequest, handlers.approve)
  .openapi(routes.refuseGuardianRequest, handlers.refuse)
  .openapi(routes.listWards, handlers.listWards)
  .openapi(routes.withdrawGuardianship, handlers.withdraw)
  .openapi(routes.wardConsents, handlers.wardConsents)
  .openapi(routes.recordWardConsent, handlers.recordWardConsent)
  .openapi(routes.wardAccess, handlers.wardAccess)
  .openapi(routes.wardCorrection, handlers.wardCorrection)
  .openapi(routes.wardErasure, handlers.wardErasure)
  .openapi(routes.wardGrievance, handlers.wardGrievance);
