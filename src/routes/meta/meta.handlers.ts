import changelog from '../../../CHANGELOG.md';
import { openApiYaml } from '../../http/openapi';
import type { AppOpenAPI, AppRouteHandler } from '../../http/types';
import { PROBLEM_TYPES, problemTypeUri } from '../../lib/problem';
import { docsAssets, scalarBundle } from './meta.docs';
import type * as routes from './meta.routes';

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
      // Changes only with a deployment, like the reference page that loads it (~0.7 MB).
      'Cache-Control': 'public, max-age=300',
    });
  };
}

/** The reference page: same-origin script only, under a hash-based CSP (see meta.docs.ts). */
export const docs: AppRouteHandler<typeof routes.getDocs> = async (c) => {
  const { html, csp } = await docsAssets(c.env.ASSETS);
  return c.body(html, 200, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': csp,
    'Cache-Control': 'public, max-age=300',
  });
};

/**
 * The static assets answer `/docs/scalar.js` before the Worker runs (wrangler.toml `[assets]`);
 * this answers only where they do not (a configuration with `run_worker_first`), with the same file.
 */
export const docsScript: AppRouteHandler<typeof routes.getDocsScript> = async (c) => {
  const [{ integrity }, bundle] = await Promise.all([docsAssets(c.env.ASSETS), scalarBundle(c.env.ASSETS)]);
  return c.body(await bundle.arrayBuffer(), 200, {
    'Content-Type': 'text/javascript; charset=utf-8',
    ETag: `"${integrity}"`,
    'Cache-Control': 'public, max-age=31536000, immutable',
  });
};

export const changelogText: AppRouteHandler<typeof routes.getChangelog> = (c) =>
  c.body(changelog, 200, {
    'Content-Type': 'text/markdown; charset=utf-8',
    'Access-Control-Allow-Origin': '*',
    'Cache-Control': 'public, max-age=300',
  });

export const problemType: AppRouteHandler<typeof routes.getProblemType> = (c) => {
  const { type } = c.req.valid('param');
  const { status, title, description } = PROBLEM_TYPES[type];
  return c.json({ type: problemTypeUri(type), status, title, description }, 200);
};
