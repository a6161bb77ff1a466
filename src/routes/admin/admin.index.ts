import { createRouter } from '../../http/create-app';
import * as handlers from './admin.handlers';
import * as routes from './admin.routes';
import * as breachHandlers from './breaches.handlers';
import * as breachRoutes from './breaches.routes';
import * as renameHandlers from './renames.handlers';
import * as renameRoutes from './renames.routes';
import * as resignHandlers from './resign.handlers';
import * as resignRoutes from './resign.routes';

export const adminRouter = createRouter()
  .openapi(routes.createApiKey, handlers.issueApiKey)
  .openapi(routes.rollApiKey, handlers.rollApiKey)
  .openapi(routes.getApiKeyUsage, handlers.getApiKeyUsage)
  .openapi(routes.listApiKeys, handlers.listApiKeys)
  .openapi(routes.revokeApiKey, handlers.revokeApiKey)
  .openapi(routes.listDsrRequests, handlers.listDsrRequests)
  .openapi(routes.resolveDsrRequest, handlers.resolveDsrRequest)
  .openapi(routes.listJobs, handlers.listJobs)
  .openapi(routes.retryJob, handlers.retryJob)
  .openapi(routes.listAuditLog, handlers.listAuditLog)
  .openapi(routes.listOrganisations, handlers.listOrganisations)
  .openapi(routes.reviewOrganisation, handlers.reviewOrganisation)
  .openapi(renameRoutes.reviewOrganisationRename, renameHandlers.reviewRenameHandler)
  .openapi(resignRoutes.resignCredentials, resignHandlers.resignCredentialsHandler)
  .openapi(breachRoutes.createBreach, breachHandlers.create)
  .openapi(breachRoutes.listBreaches, breachHandlers.list)
  .openapi(breachRoutes.markBreachBoardStep, breachHandlers.markBoardStep);
