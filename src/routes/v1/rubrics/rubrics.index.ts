import { createRouter } from '../../../http/create-app';
import * as handlers from './rubrics.handlers';
import * as routes from './rubrics.routes';

export const rubricsV1Router = createRouter().openapi(routes.generateRubricV1, handlers.generate);
