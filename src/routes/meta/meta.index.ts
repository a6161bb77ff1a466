import { createRouter } from '../../http/create-app';
import type { AppOpenAPI } from '../../http/types';
import * as handlers from './meta.handlers';
import * as routes from './meta.routes';

/** Routes that describe the API itself; `documented` is the app the OpenAPI document covers. */
export function metaRouter(documented: AppOpenAPI) {
  return createRouter()
    .openapi(routes.getOpenApiYaml, handlers.openApiDocument(documented))
    .openapi(routes.getDocs, handlers.docs)
    .openapi(routes.getDocsScript, handlers.docsScript)
    .openapi(routes.getChangelog, handlers.changelog)
    .openapi(routes.getProblemType, handlers.problemType);
}
