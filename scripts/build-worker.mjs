#!/usr/bin/env node
// The production Worker, split into modules (issue 54, decision 0326): esbuild bundles
// src/index.ts with code splitting into dist/worker/, one ES module per lazily imported part (the
// app, the OAuth library, the renderers, Data Integrity…) and shared chunks, and wrangler uploads
// them as they are ([env.production]: no_bundle, find_additional_modules). A cold isolate then
// parses and evaluates only the entry's static graph (≈ 130 KB) instead of one 4.3 MB script whose
// lazy parts V8 still had to parse: the rest is fetched from the upload by the first
// `await import()` that needs it. The binary modules (WebAssembly, fonts, images) are copied
// beside the chunks and imported by relative name, as the [env.production] rules declare them.
//
// What wrangler's own bundling does that matters here is done the same way: the same conditions
// (workerd, worker, browser), target, minify, `process.env.NODE_ENV`, and Node's built-ins as
// `node:` imports (nodejs_compat provides them natively at this compatibility date).
// The tests and `wrangler dev` keep wrangler's single bundle of src/index.ts (top-level config).
//
// Usage: node scripts/build-worker.mjs [outdir]   (default dist/worker)
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const WORKER_OUT = join(ROOT, 'dist', 'worker');

/** Node's built-ins by their bare names (`crypto`, `fs`…): imported as `node:…` (nodejs_compat). */
const NODE_ALIASES = Object.fromEntries(
  builtinModules
    .filter((name) => !name.startsWith('_') && !name.includes(':'))
    .map((name) => [name, `node:${name}`]),
);

/**
 * A CommonJS `require('fs')` / `require('node:fs')` of a Node built-in, as wrangler's bundling
 * answers it: a small module that imports the built-in and exports it as `module.exports` (left
 * alone, esbuild's ESM output would throw "Dynamic require of node:fs is not supported").
 * @returns {import('esbuild').Plugin}
 */
function nodeBuiltinRequires() {
  const names = Object.keys(NODE_ALIASES).map((name) => name.replace(/[/\\^$*+?.()|[\]{}]/g, '\\$&'));
  const filter = new RegExp(`^(node:)?(${names.join('|')})$`);
  return {
    name: 'node-builtin-requires',
    setup(b) {
      b.onResolve({ filter }, (args) =>
        args.kind === 'require-call'
          ? {
              path: args.path.startsWith('node:') ? args.path : `node:${args.path}`,
              namespace: 'node-require',
            }
          : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: 'node-require' }, ({ path }) => ({
        contents: `import libDefault from '${path}';\nmodule.exports = libDefault;\n`,
        loader: 'js',
      }));
    },
  };
}

/**
 * Binary modules (wrangler.toml [[rules]]: CompiledWasm, Data) copied beside the chunks and
 * imported by name. Every output is in one flat directory, so `./name` is right from any of them.
 * @param {string} outdir
 * @returns {import('esbuild').Plugin}
 */
function binaryModules(outdir) {
  return {
    name: 'binary-modules',
    setup(b) {
      /** @type {Map<string, string>} */
      const copied = new Map();
      b.onResolve({ filter: /\.(wasm|ttf|png|bin)$/ }, async (args) => {
        // (The package's own resolution, asked below, passes through.)
        if (args.pluginData === 'raw') return undefined;
        const source = args.path.startsWith('.')
          ? resolve(args.resolveDir, args.path)
          : (await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: 'raw' }))
              .path;
        const name = basename(source);
        const earlier = copied.get(name);
        if (earlier && earlier !== source)
          throw new Error(`two binary modules named ${name}: ${earlier}, ${source}`);
        copied.set(name, source);
        copyFileSync(source, join(outdir, name));
        return { path: `./${name}`, external: true };
      });
    },
  };
}

/**
 * Builds the split Worker into `outdir` and returns esbuild's metafile (scripts/bundle-budget.mjs
 * reads it: what the entry reaches by static imports is what a cold isolate loads).
 * @param {string} [outdir]
 */
export async function buildWorker(outdir = WORKER_OUT) {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: { index: 'src/index.ts' },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    // As wrangler's bundling (esbuild's default): packages' `browser` maps apply (jsonld's Node loaders out).
    platform: 'browser',
    target: 'es2024',
    supported: { 'import-source': true, using: true },
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
    minify: true,
    // Non-ASCII text as UTF-8, not \uXXXX escapes: the Hindi catalogue is 3 bytes a letter
    // instead of 6, half the source a cold isolate's certificate page parses (decision 0328).
    charset: 'utf8',
    keepNames: false,
    sourcemap: 'linked',
    metafile: true,
    chunkNames: '[name]-[hash]',
    define: {
      'process.env.NODE_ENV': '"production"',
      'global.process.env.NODE_ENV': '"production"',
      'globalThis.process.env.NODE_ENV': '"production"',
    },
    alias: NODE_ALIASES,
    external: ['cloudflare:*', 'node:*'],
    // wrangler's default Text rules (*.txt, *.html, *.sql) as strings, inlined.
    loader: { '.js': 'jsx', '.mjs': 'jsx', '.cjs': 'jsx', '.txt': 'text', '.html': 'text', '.sql': 'text' },
    plugins: [nodeBuiltinRequires(), binaryModules(outdir)],
    logLevel: 'warning',
  });
  // Beside the directory, not in it (not a module of the upload).
  writeFileSync(`${outdir}.meta.json`, JSON.stringify(result.metafile));
  return result.metafile;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = process.argv[2] ? resolve(process.argv[2]) : WORKER_OUT;
  const meta = await buildWorker(out);
  const files = Object.keys(meta.outputs).filter((path) => path.endsWith('.js'));
  console.log(`Worker built in ${dirname(join(out, 'x'))}: ${files.length} modules`);
}
