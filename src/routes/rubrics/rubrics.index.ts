import { createRouter } from '../../http/create-app';
import { deprecatedAlias } from '../../middleware/deprecation';
import { generate } from '../v1/rubrics/rubrics.handlers';
import * as routes from './rubrics.routes';

/**
 * The deprecated alias of `POST /api/v1/rubrics/generate`: the same handler, and on every
 * response (refusals included) the `Deprecation` and successor `Link` headers.
 */
export const rubricsRouter = createRouter();
rubricsRouter.use(
  routes.generateRubric.path,
  deprecatedAlias('/api/v1/rubrics/generate', routes.RUBRICS_ALIAS_DEPRECATED_AT),
);
rubricsRouter.openapi(routes.generateRubric, generate);
