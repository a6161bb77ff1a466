// The app, bundled for Node with esbuild (Markdown as text, as wrangler does), so Node-side
// tools can ask it for its OpenAPI document: `npm run openapi`, `npm run contract:update` and
// the contract check in test/global-setup.ts.
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * @returns {Promise<{
 *   app: import('../../src/http/types').AppOpenAPI,
 *   openApiDocument: typeof import('../../src/http/openapi').openApiDocument,
 *   openApiYaml: typeof import('../../src/http/openapi').openApiYaml,
 *   endpointTable: typeof import('../../src/http/openapi').endpointTable,
 *   withEndpointTable: typeof import('../../src/http/openapi').withEndpointTable,
 *   CANONICAL_SERVER_URL: string,
 * }>}
 */
/** Scalar's browser bundle is a text module in the Worker (wrangler.toml [[rules]]); the same here. */
const textModules = {
  name: 'text-modules',
  setup(/** @type {import('esbuild').PluginBuild} */ b) {
    // The PDFs' HarfBuzz (a compiled WebAssembly module in the Worker), fonts and badge image (bytes):
    // describing the API never draws a PDF, so Node gets empty stand-ins.
    b.onResolve({ filter: /\.(wasm|ttf|png)$/ }, (args) => ({ path: args.path, namespace: 'pdf-stub' }));
    b.onLoad({ filter: /.*/, namespace: 'pdf-stub' }, () => ({
      contents: 'export default new ArrayBuffer(0);',
      loader: 'js',
    }));
    b.onLoad({ filter: /api-reference[\\/]dist[\\/]browser[\\/]standalone\.js$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8'),
      loader: 'text',
    }));
  },
};

export async function loadApp() {
  // One file per caller, so `npm run openapi` and a test run can bundle at the same time.
  const outfile = join(root, 'node_modules', `.cache-openapi-app-${process.pid}-${Date.now()}.mjs`);
  await build({
    entryPoints: [join(root, 'scripts', 'openapi-entry.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    loader: { '.md': 'text' },
    plugins: [textModules],
    packages: 'external',
    logLevel: 'warning',
  });
  try {
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(outfile, { force: true });
  }
}
