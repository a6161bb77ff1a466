import { openApiYaml } from '../../http/openapi';
import type { AppOpenAPI, AppRouteHandler } from '../../http/types';
import { PROBLEM_TYPES, ProblemError, problemTypeUri } from '../../lib/problem';
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

/**
 * A browser navigating lists `text/html` in `Accept`; API clients do not, or refuse it with `q=0`
 * (RFC 9110 §12.5.1). The same rule as the pages' (src/routes/pages/pages.problems.ts).
 */
function wantsHtml(accept: string | undefined): boolean {
  const match = /(?:^|,)\s*text\/html\s*(;[^,]*)?(?:,|$)/i.exec(accept ?? '');
  return match !== null && !/;\s*q\s*=\s*0(?:\.0{0,3})?\s*(?:;|$)/i.test(match[1] ?? '');
}

/** The rendered changelog's policy: its one stylesheet and images from this origin, nothing else. */
const CHANGELOG_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * CHANGELOG.md, from the static assets (scripts/build-assets.mjs writes both forms at build time,
 * so the Worker carries neither): the page for a browser, the Markdown for anyone else.
 */
export const changelog: AppRouteHandler<typeof routes.getChangelog> = async (c) => {
  const html = wantsHtml(c.req.header('Accept'));
  const file = await c.env.ASSETS.fetch(`https://assets.local/changelog.${html ? 'html' : 'md'}`);
  if (!file.ok) {
    await file.body?.cancel();
    throw new ProblemError(
      'not-configured',
      'The changelog is not in the static assets (run scripts/build-assets.mjs).',
    );
  }
  const headers: Record<string, string> = {
    'Content-Type': html ? 'text/html; charset=utf-8' : 'text/markdown; charset=utf-8',
    'Access-Control-Allow-Origin': '*',
    'Cache-Control': 'public, max-age=300',
    Vary: 'Accept',
  };
  if (html) headers['Content-Security-Policy'] = CHANGELOG_CSP;
  return c.body(await file.text(), 200, headers);
};

export const problemType: AppRouteHandler<typeof routes.getProblemType> = (c) => {
  const { type } = c.req.valid('param');
  const { status, title, description } = PROBLEM_TYPES[type];
  return c.json({ type: problemTypeUri(type), status, title, description }, 200);
};
