import { createRouter } from '../../http/create-app';
import * as handlers from './dpo.handlers';
import * as routes from './dpo.routes';

export const dpoRouter = createRouter().openapi(routes.getDpo, handlers.getDpo);
