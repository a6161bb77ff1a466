#!/usr/bin/env node
// Writes openapi.yaml and the README's endpoint table from the route definitions (`npm run openapi`).
// The app is bundled for Node (scripts/lib/openapi-app.mjs) and asked for its document; the
// vitest suite fails when the committed file differs from this output.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadApp } from './lib/openapi-app.mjs';
import { routeSources } from './lib/route-sources.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { app, openApiYaml, CANONICAL_SERVER_URL, endpointTable, withEndpointTable } = await loadApp();
const yaml = openApiYaml(app, CANONICAL_SERVER_URL);
writeFileSync(join(root, 'openapi.yaml'), yaml);
const readmePath = join(root, 'README.md');
writeFileSync(
  readmePath,
  withEndpointTable(readFileSync(readmePath, 'utf8'), endpointTable(app, routeSources())),
);
console.log(`openapi.yaml written (${yaml.length} bytes); README.md endpoint table updated`);
