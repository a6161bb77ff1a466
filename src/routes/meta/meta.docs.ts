/**
 * The API reference page (`/docs`) and the one script it runs, served by the Worker itself.
 *
 * The page is on the origin whose cookies are admin sessions, so it loads no third-party code:
 * Scalar's standalone browser bundle comes from the pinned npm package (`@scalar/api-reference`,
 * exact version in package.json), bundled into the Worker as text (wrangler.toml `[[rules]]`)
 * and served at `/docs/scalar.js` with its Subresource Integrity hash; the page's only inline
 * script (the configuration) is allowed by its SHA-256 hash. No CDN, no `'unsafe-inline'` for
 * scripts, no remote fonts (`withDefaultFonts: false`), and `connect-src 'self'`, so the page
 * works offline and cannot send anything elsewhere.
 */
import scalarBundle from '../../../node_modules/@scalar/api-reference/dist/browser/standalone.js';
import { cspHash } from '../../domain/pages/html';

/** Scalar's standalone bundle (≈4.3 MB, ≈1.3 MB gzipped), exactly as the pinned package ships it. */
export const SCALAR_BUNDLE: string = scalarBundle;

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

type DocsAssets = { integrity: string; version: string; html: string; csp: string };
let assets: Promise<DocsAssets> | undefined;

/** The page, its CSP and the bundle's integrity: computed once per isolate (the bundle never changes). */
export function docsAssets(): Promise<DocsAssets> {
  assets ??= (async () => {
    const digest = await crypto.subtle.digest('SHA-384', new TextEncoder().encode(SCALAR_BUNDLE));
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
    <link rel="icon" href="data:," />
  </head>
  <body>
    <div id="app"></div>
    <script src="/docs/scalar.js?v=${version}" integrity="${integrity}"></script>
    <script>${INIT_SCRIPT}</script>
  </body>
</html>`;
    return { integrity, version, html, csp };
  })();
  return assets;
}
