/**
 * The API reference page (`/docs`) and the one script it runs, both from this origin.
 *
 * The page is on the origin whose cookies are admin sessions, so it loads no third-party code:
 * Scalar's standalone browser bundle comes from the pinned npm package (`@scalar/api-reference`,
 * exact version in package.json), copied into the static assets by scripts/build-assets.mjs and
 * served at `/docs/scalar.js` by Workers Static Assets (wrangler.toml `[assets]`, headers in
 * public/_headers), not bundled into the Worker (≈1.3 MB gzipped of the upload, issue 54). The
 * page names it with its Subresource Integrity hash, computed here from the very bytes the assets
 * serve; the page's only inline script (the configuration) is allowed by its SHA-256 hash. No CDN,
 * no `'unsafe-inline'` for scripts, no remote fonts (`withDefaultFonts: false`), and
 * `connect-src 'self'`, so the page works offline and cannot send anything elsewhere.
 */
import { cspHash } from '../../domain/pages/html';
import { ProblemError } from '../../lib/problem';

/** Where the static assets serve Scalar's bundle (scripts/build-assets.mjs writes it). */
export const SCALAR_PATH = '/docs/scalar.js';

/** The configuration the page hands Scalar. */
export const SCALAR_CONFIG = {
  url: '/openapi.yaml',
  withDefaultFonts: false,
  hideClientButton: false,
  showDeveloperTools: 'never',
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
} as const;

const INIT_SCRIPT = `Scalar.createApiReference('#app', ${JSON.stringify(SCALAR_CONFIG)});`;

const toBase64 = (bytes: ArrayBuffer) => {
  let binary = '';
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte);
  return btoa(binary);
};

/** Scalar's bundle as the static assets serve it; a 503 problem when the assets were not built. */
export async function scalarBundle(assets: Fetcher): Promise<Response> {
  const res = await assets.fetch(`https://assets.local${SCALAR_PATH}`);
  if (!res.ok) {
    await res.body?.cancel();
    throw new ProblemError(
      'not-configured',
      "The API reference's script is not in the static assets (run scripts/build-assets.mjs).",
    );
  }
  return res;
}

type DocsAssets = { integrity: string; version: string; html: string; csp: string };
let assets: Promise<DocsAssets> | undefined;

/** The page, its CSP and the bundle's integrity: computed once per isolate (the bundle changes only with a deploy). */
export function docsAssets(binding: Fetcher): Promise<DocsAssets> {
  assets ??= (async () => {
    const bundle = await (await scalarBundle(binding)).arrayBuffer();
    const digest = await crypto.subtle.digest('SHA-384', bundle);
    const integrity = `sha384-${toBase64(digest)}`;
    // The hash names the content, so the script URL changes whenever the bundle does.
    const version = integrity.slice(7, 23).replaceAll('+', '-').replaceAll('/', '_');
    const initHash = await cspHash(INIT_SCRIPT);
    const csp = [
      "default-src 'none'",
      `script-src 'self' ${initHash}`,
      // Scalar injects its stylesheet and sets styles at runtime.
      "style-src 'self' 'unsafe-inline'",
      "font-src 'self' data:",
      "img-src 'self' data: blob:",
      "connect-src 'self'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
      "form-action 'none'",
    ].join('; ');
    const html = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Core API reference</title>
    <link rel="icon" href="/favicon.ico" />
  </head>
  <body>
    <div id="app"></div>
    <script src="${SCALAR_PATH}?v=${version}" integrity="${integrity}"></script>
    <script>${INIT_SCRIPT}</script>
  </body>
</html>`;
    return { integrity, version, html, csp };
  })();
  // A failure (assets not built) is not remembered: the next request tries again.
  assets.catch(() => {
    assets = undefined;
  });
  return assets;
}
