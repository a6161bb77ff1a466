import { createRouter } from '../../http/create-app';
import * as handlers from './briefs.handlers';
import * as routes from './briefs.routes';

export const briefsRouter = createRouter()
  .openapi(routes.createBrief, handlers.create)
  .openapi(routes.listBriefs, handlers.list)
  .openapi(routes.getBrief, handlers.get)
  .openapi(routes.changeBriefState, handlers.changeState)
  .openapi(routes.briefSubmissions, handlers.submissions);
