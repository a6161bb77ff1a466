import { Scalar } from '@scalar/hono-api-reference';
import changelog from '../../../CHANGELOG.md';
import { createRouter } from '../../lib/create-app';
import { openApiYaml } from '../../lib/openapi';
import { PROBLEM_TYPES, problemTypeUri } from '../../lib/problem';
import type { AppBindings, AppOpenAPI } from '../../lib/types';
import * as routes from './meta.routes';

// The reference page loads Scalar's script from its CDN, so it gets its own CSP.
const DOCS_CSP =
  "default-src 'none'; script-src 'self' https://cdn.jsdelivr.net 'unsafe-inline'; style-src 'self' https://cdn.jsdelivr.net https://fonts.googleapis.com 'unsafe-inline'; font-src https://fonts.gstatic.com https://cdn.jsdelivr.net; img-src 'self' data: https:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'";

/**
 * Routes that describe the API itself. `documented` is the app whose routes the OpenAPI
 * document covers (the root app, so the document includes these routes too).
 */
export function metaRouter(documented: AppOpenAPI) {
  const yamlByServer = new Map<string, string>();
  const scalar = Scalar<AppBindings>({ url: '/openapi.yaml', pageTitle: 'Core API reference' });

  return createRouter()
    .openapi(routes.getOpenApiYaml, (c) => {
      const server = c.env.PUBLIC_BASE_URL;
      let yaml = yamlByServer.get(server);
      if (!yaml) {
        yaml = openApiYaml(documented, server);
        yamlByServer.set(server, yaml);
      }
      return c.body(yaml, 200, {
        'Content-Type': 'application/yaml; charset=utf-8',
        'Access-Control-Allow-Origin': '*',
      });
    })
    .openapi(routes.getDocs, async (c, next) => {
      const res = await scalar(c, next);
      const html = res instanceof Response ? await res.text() : '';
      return c.body(html, 200, {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': DOCS_CSP,
      });
    })
    .openapi(routes.getChangelog, (c) =>
      c.body(changelog, 200, {
        'Content-Type': 'text/markdown; charset=utf-8',
        'Access-Control-Allow-Origin': '*',
      }),
    )
    .openapi(routes.getProblemType, (c) => {
      const { type } = c.req.valid('param');
      const { status, title, description } = PROBLEM_TYPES[type];
      return c.json({ type: problemTypeUri(type), status, title, description }, 200);
    });
}
