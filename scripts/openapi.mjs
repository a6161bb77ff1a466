#!/usr/bin/env node
// Writes openapi.yaml and the README's endpoint table from the route definitions (`npm run openapi`).
// The app is bundled for Node with esbuild (Markdown as text, as wrangler does) and asked
// for its document; the vitest suite fails when the committed file differs from this output.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = join(root, 'node_modules', '.cache-openapi-app.mjs');

await build({
  entryPoints: [join(root, 'scripts', 'openapi-entry.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  outfile,
  loader: { '.md': 'text' },
  packages: 'external',
  logLevel: 'warning',
});
const { app, openApiYaml, CANONICAL_SERVER_URL, endpointTable, withEndpointTable } = await import(
  pathToFileURL(outfile).href
);
rmSync(outfile);
const yaml = openApiYaml(app, CANONICAL_SERVER_URL);
writeFileSync(join(root, 'openapi.yaml'), yaml);
const readmePath = join(root, 'README.md');
writeFileSync(readmePath, withEndpointTable(readFileSync(readmePath, 'utf8'), endpointTable(app)));
console.log(`openapi.yaml written (${yaml.length} bytes); README.md endpoint table updated`);
