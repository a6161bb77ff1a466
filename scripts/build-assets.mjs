#!/usr/bin/env node
// Writes the static files that are generated rather than committed into public/ (Workers Static
// Assets, wrangler.toml [assets]): Scalar's standalone API-reference script, copied from the pinned
// npm package to public/docs/scalar.js. Run by wrangler itself before `wrangler dev` and
// `wrangler deploy` (wrangler.toml [build]), and by vitest.config.ts before the tests, so the copy
// is never committed and never stale. Idempotent; only writes files whose bytes changed.
// Decision: docs/decisions/0320-static-assets-built-not-committed.md.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PUBLIC = join(ROOT, 'public');

/**
 * Writes `bytes` at public/`path` unless the file already holds exactly them.
 * @param {string} path
 * @param {Uint8Array | string} bytes
 */
function emit(path, bytes) {
  const target = join(PUBLIC, path);
  try {
    if (Buffer.compare(readFileSync(target), Buffer.from(bytes)) === 0) return;
  } catch {}
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, bytes);
}

export function buildAssets() {
  emit(
    'docs/scalar.js',
    readFileSync(join(ROOT, 'node_modules/@scalar/api-reference/dist/browser/standalone.js')),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) buildAssets();
