import { createRouter } from '../../lib/create-app';
import * as handlers from './rubrics.handlers';
import * as routes from './rubrics.routes';

export const rubricsRouter = createRouter().openapi(routes.generateRubric, handlers.generate);
