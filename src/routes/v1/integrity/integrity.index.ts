import { createRouter } from '../../../http/create-app';
import * as handlers from './integrity.handlers';
import * as routes from './integrity.routes';

export const integrityRouter = createRouter().openapi(routes.checkIntegrity, handlers.check);
