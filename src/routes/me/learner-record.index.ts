import { createRouter } from '../../http/create-app';
import * as handlers from './learner-record.handlers';
import * as routes from './learner-record.routes';

/** The holder's CLR 2.0 learner record. */
export const learnerRecordRouter = createRouter().openapi(routes.getLearnerRecord, handlers.get);
