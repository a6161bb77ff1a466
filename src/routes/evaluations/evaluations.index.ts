import { createRouter } from '../../http/create-app';
import * as handlers from './evaluations.handlers';
import * as routes from './evaluations.routes';

export const evaluationsRouter = createRouter()
  .openapi(routes.getEvaluation, handlers.get)
  .openapi(routes.rate, handlers.rate);
