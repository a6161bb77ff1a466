#!/usr/bin/env node
// wink-nlp measured against the pillars' reader on every evaluation set (decision 0371,
// docs/ai-quality.md). wink-nlp is not a dependency of the project: to run this, install the two
// packages without saving them, then run the script:
//   npm install --no-save wink-nlp@2.4.0 wink-eng-lite-web-model@1.8.1
//   node scripts/wink-measure.mjs
// It prints the per-set scores and the gzipped size wink and its model would add to the Worker.
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
try {
  require.resolve('wink-nlp');
  require.resolve('wink-eng-lite-web-model');
} catch {
  console.log(
    'wink-nlp is not installed (it is not a dependency; see decision 0371). To measure it:\n' +
      '  npm install --no-save wink-nlp@2.4.0 wink-eng-lite-web-model@1.8.1 && node scripts/wink-measure.mjs',
  );
  process.exit(0);
}

// What shipping it would cost: wink and its model bundled for workerd, minified and gzipped.
const cost = await build({
  stdin: {
    contents:
      "import winkNLP from 'wink-nlp'; import model from 'wink-eng-lite-web-model'; export const nlp = winkNLP(model);",
    resolveDir: root,
  },
  bundle: true,
  minify: true,
  platform: 'browser',
  format: 'esm',
  write: false,
  logLevel: 'error',
});
const bytes = cost.outputFiles[0].contents;
const gz = gzipSync(bytes, { level: 9 }).length;
const upload = 2_855_475;
console.log(
  `bundle: wink-nlp + wink-eng-lite-web-model ${bytes.length} B minified, ${gz} B gzipped; ` +
    `the Worker's upload ${upload} B + ${gz} B = ${upload + gz} B of a 3,000,000 B budget`,
);

const outfile = join(root, 'node_modules', `.cache-wink-${process.pid}-${Date.now()}.mjs`);
await build({
  entryPoints: [join(root, 'eval', 'wink.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  outfile,
  loader: { '.md': 'text' },
  packages: 'external',
  logLevel: 'warning',
});
try {
  const { measure } = await import(pathToFileURL(outfile).href);
  // Typed loosely: the packages are optional here, installed only to measure.
  /** @type {(model: unknown) => unknown} */
  const winkNLP = /** @type {any} */ (require('wink-nlp'));
  const model = /** @type {unknown} */ (require(/** @type {string} */ ('wink-eng-lite-web-model')));
  const t = performance.now();
  const nlp = winkNLP(model);
  console.log(`model load: ${(performance.now() - t).toFixed(0)} ms`);
  for (const row of measure(nlp)) console.log(row);
} finally {
  rmSync(outfile, { force: true });
}
