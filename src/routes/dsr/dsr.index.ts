import { createRouter } from '../../http/create-app';
import * as handlers from './dsr.handlers';
import * as routes from './dsr.routes';

export const dsrRouter = createRouter()
  .openapi(routes.access, handlers.access)
  .openapi(routes.accessDownload, handlers.accessDownload)
  .openapi(routes.correction, handlers.correction)
  .openapi(routes.erasure, handlers.erasure)
  .openapi(routes.erasureStatus, handlers.erasureStatus)
  .openapi(routes.grievance, handlers.grievance)
  .openapi(routes.nomination, handlers.nomination);
