#!/usr/bin/env node
// `npm run eval`: bundles eval/run.ts (the evaluation of the AI pillars on the project's own
// briefs and texts) with esbuild, as scripts/openapi.mjs bundles the app, and runs it. Exits
// non-zero when a threshold is missed. The figures are documented in docs/ai-quality.md.
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = join(root, 'node_modules', `.cache-eval-${process.pid}-${Date.now()}.mjs`);
await build({
  entryPoints: [join(root, 'eval', 'run.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  outfile,
  loader: { '.md': 'text' },
  packages: 'external',
  logLevel: 'warning',
});
try {
  await import(pathToFileURL(outfile).href);
} finally {
  rmSync(outfile, { force: true });
}
