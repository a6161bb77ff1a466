#!/usr/bin/env node
// `npm run dev`: everything a fresh clone needs, then the local Worker.
//   1. create .dev.vars from .dev.vars.example when it is missing;
//   2. apply the D1 migrations to the local database (non-interactively);
//   3. seed the demo data (idempotent);
//   4. run `wrangler dev --local --port 8787`, forwarding signals and its exit code.
// Extra arguments are passed to `wrangler dev` (e.g. `npm run dev -- --port 8788`).
import { constants } from 'node:os';
import { ensureDevVars } from './lib/dev-vars.mjs';
import { seedLocalDatabase } from './lib/seed.mjs';
import { applyLocalMigrations, spawnWrangler } from './lib/wrangler.mjs';

const extra = process.argv.slice(2);

try {
  ensureDevVars();
  await applyLocalMigrations();
  await seedLocalDatabase();
} catch (error) {
  console.error(`dev: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

const hasPort = extra.some((arg) => arg === '--port' || arg.startsWith('--port='));
const child = spawnWrangler(['dev', '--local', ...(hasPort ? [] : ['--port', '8787']), ...extra]);

/** @type {NodeJS.Signals[]} */
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'];
for (const signal of FORWARDED) {
  process.on(signal, () => {
    // Wait for wrangler to shut workerd down; its exit ends this process.
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  });
}

child.on('error', (error) => {
  console.error(`dev: could not start wrangler: ${error.message}`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  process.exit(code ?? (signal ? 128 + constants.signals[signal] : 1));
});
