import { createRouter } from '../../http/create-app';
import * as handlers from './submissions.handlers';
import * as routes from './submissions.routes';

export const submissionsRouter = createRouter()
  .openapi(routes.createSubmission, handlers.create)
  .openapi(routes.listSubmissions, handlers.list)
  .openapi(routes.getSubmission, handlers.get);
