import { createRouter } from '../../lib/create-app';
import * as handlers from './pillars.handlers';
import * as routes from './pillars.routes';

export const pillarsRouter = createRouter()
  .openapi(routes.generatePlaybook, handlers.playbook)
  .openapi(routes.generateRubric, handlers.rubric)
  .openapi(routes.checkIntegrity, handlers.integrity);
