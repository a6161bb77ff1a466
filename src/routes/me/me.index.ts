import { createRouter } from '../../http/create-app';
import * as handlers from './me.handlers';
import * as routes from './me.routes';

export const meRouter = createRouter()
  .openapi(routes.getMe, handlers.get)
  .openapi(routes.updateMe, handlers.update)
  .openapi(routes.myBriefs, handlers.listBriefs)
  .openapi(routes.getMyBrief, handlers.getBrief)
  .openapi(routes.myCertificates, handlers.listCertificates)
  .openapi(routes.getCredentialIdentifier, handlers.getCredentialIdentifier)
  .openapi(routes.setCredentialIdentifier, handlers.setCredentialIdentifier)
  .openapi(routes.getMyCertificatePdf, handlers.certificatePdf)
  .openapi(routes.listConsents, handlers.listConsents)
  .openapi(routes.listMyRequests, handlers.listDsrRequests)
  .openapi(routes.getMyOrganisation, handlers.getOrganisation)
  .openapi(routes.updateMyOrganisation, handlers.updateOrganisation)
  .openapi(routes.inviteToOrganisation, handlers.invite)
  .openapi(routes.startDomainVerification, handlers.startDomainVerification)
  .openapi(routes.checkDomainVerification, handlers.checkDomainVerification)
  .openapi(routes.listMyNotices, handlers.listNotices);
