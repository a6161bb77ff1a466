import { Scalar } from '@scalar/hono-api-reference';
import changelog from '../../../CHANGELOG.md';
import { openApiYaml } from '../../lib/openapi';
import { PROBLEM_TYPES, problemTypeUri } from '../../lib/problem';
import type { AppBindings, AppOpenAPI, AppRouteHandler } from '../../lib/types';
import type * as routes from './meta.routes';

// The reference page loads Scalar's script from its CDN, so it gets its own CSP.
const DOCS_CSP =
  "default-src 'none'; script-src 'self' https://cdn.jsdelivr.net 'unsafe-inline'; style-src 'self' https://cdn.jsdelivr.net https://fonts.googleapis.com 'unsafe-inline'; font-src https://fonts.gstatic.com https://cdn.jsdelivr.net; img-src 'self' data: https:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'";

/** The document of `documented` (the root app, so it covers these routes too), one per server URL. */
export function openApiDocument(documented: AppOpenAPI): AppRouteHandler<typeof routes.getOpenApiYaml> {
  const yamlByServer = new Map<string, string>();
  return (c) => {
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
  };
}

const scalar = Scalar<AppBindings>({ url: '/openapi.yaml', pageTitle: 'Core API reference' });

export const docs: AppRouteHandler<typeof routes.getDocs> = async (c, next) => {
  const res = await scalar(c, next);
  const html = res instanceof Response ? await res.text() : '';
  return c.body(html, 200, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': DOCS_CSP,
  });
};

export const changelogText: AppRouteHandler<typeof routes.getChangelog> = (c) =>
  c.body(changelog, 200, {
    'Content-Type': 'text/markdown; charset=utf-8',
    'Access-Control-Allow-Origin': '*',
  });

export const problemType: AppRouteHandler<typeof routes.getProblemType> = (c) => {
  const { type } = c.req.valid('param');
  const { status, title, description } = PROBLEM_TYPES[type];
  return c.json({ type: problemTypeUri(type), status, title, description }, 200);
};
