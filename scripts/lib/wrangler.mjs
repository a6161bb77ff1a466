// Runs the project's own wrangler (node_modules) with a Node that satisfies its >=22 check.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (the directory holding wrangler.toml). */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The local D1 binding, as named in wrangler.toml. */
export const D1_BINDING = 'DB';

const WRANGLER_BIN = join(ROOT, 'node_modules', 'wrangler', 'bin', 'wrangler.js');

/**
 * The Node binary to run wrangler with. `npm run` puts the `node@22` devDependency first on
 * PATH, so this is normally the current Node; when a script is started with an older global
 * Node directly, fall back to the one in node_modules.
 * @returns {string}
 */
function nodeForWrangler() {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const local = join(ROOT, 'node_modules', 'node', 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  return existsSync(local) ? local : process.execPath;
}

/**
 * Wrangler's defaults that only make noise locally, each overridable from the environment: its
 * banner and update check, usage metrics, and Miniflare's download of a `Request.cf` object from
 * workers.cloudflare.com (offline it prints an ENOTFOUND stack trace; the placeholder it falls
 * back to is what it gets then anyway).
 */
const QUIET_OFFLINE = {
  WRANGLER_HIDE_BANNER: 'true',
  WRANGLER_SEND_METRICS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
};

/**
 * Starts wrangler. Used directly by `scripts/dev.mjs` for the long-running `wrangler dev`.
 * @param {string[]} args
 * @param {import('node:child_process').SpawnOptions} [options]
 * @returns {import('node:child_process').ChildProcess}
 */
export function spawnWrangler(args, options = {}) {
  if (!existsSync(WRANGLER_BIN)) {
    throw new Error('wrangler is not installed: run `npm install` first.');
  }
  return spawn(nodeForWrangler(), [WRANGLER_BIN, ...args], {
    cwd: ROOT,
    stdio: 'inherit',
    ...options,
    env: { ...QUIET_OFFLINE, ...(options.env ?? process.env) },
  });
}

/**
 * Runs a one-shot wrangler command non-interactively and resolves when it succeeds.
 * stdin is closed and CI=true is set, so wrangler takes the default answer to any
 * confirmation prompt (e.g. `d1 migrations apply`) instead of waiting for a keypress.
 * @param {string[]} args
 * @param {{ capture?: boolean }} [options] capture: collect stdout instead of printing it
 * @returns {Promise<string>} the captured stdout ('' when not capturing)
 */
export function runWrangler(args, { capture = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawnWrangler(args, {
      stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'],
      env: { ...process.env, CI: 'true' },
    });
    let stdout = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk) => {
      stdout += chunk;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve(stdout);
      else {
        if (capture && stdout) process.stdout.write(stdout);
        reject(new Error(`wrangler ${args.join(' ')} failed (${signal ?? `exit code ${code}`})`));
      }
    });
  });
}

/**
 * The local D1 bindings whose migrations must be applied: `DB` and every integrity-corpus shard
 * (`FINGERPRINTS_0..N-1`, migrations in migrations-fingerprints/) the top level of wrangler.toml
 * binds. Without the shards' tables, fingerprinting a submission fails.
 * @returns {string[]}
 */
export function localD1Bindings() {
  const toml = readFileSync(join(ROOT, 'wrangler.toml'), 'utf8');
  const topLevel = toml.split(/^\[env\./m)[0] ?? toml;
  const shards = [...topLevel.matchAll(/^binding\s*=\s*"(FINGERPRINTS_\d+)"/gm)].map((m) => m[1] ?? '');
  return [D1_BINDING, ...shards.filter(Boolean)];
}

/**
 * Applies the D1 migrations to the local databases (idempotent): migrations/ to `DB`,
 * migrations-fingerprints/ to each corpus shard.
 * @param {string} [persistTo] wrangler's state directory (default .wrangler/state)
 * @param {{ capture?: boolean }} [options] capture: print nothing (wrangler's tables are kept for
 *   an error), and count the migrations applied instead
 * @returns {Promise<number>} how many migrations were applied (0 when not capturing)
 */
export async function applyLocalMigrations(persistTo, { capture = false } = {}) {
  if (!capture) console.log('Applying D1 migrations to the local databases…');
  const applied = new Set();
  for (const binding of localD1Bindings()) {
    const out = await runWrangler(
      ['d1', 'migrations', 'apply', binding, '--local', ...(persistTo ? ['--persist-to', persistTo] : [])],
      { capture },
    );
    // wrangler names each migration it applies in table rows ("│ 0012_name.sql │", listed, then with
    // its status): count each once per database.
    for (const m of out.matchAll(/^│\s*(\d{4}_[^│\s]*\.sql)\s*│/gm)) applied.add(`${binding}/${m[1]}`);
  }
  return applied.size;
}
