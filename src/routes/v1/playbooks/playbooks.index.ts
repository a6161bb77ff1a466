import { createRouter } from '../../../http/create-app';
import * as handlers from './playbooks.handlers';
import * as routes from './playbooks.routes';

export const playbooksRouter = createRouter().openapi(routes.generatePlaybook, handlers.generate);
