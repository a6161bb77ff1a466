#!/usr/bin/env node
// `npm run dev`: everything a fresh clone needs, then the local Worker.
//   1. create .dev.vars from .dev.vars.example when it is missing;
//   2. apply the D1 migrations to the local database (non-interactively);
//   3. seed the demo data (idempotent);
//   4. run `wrangler dev --local --port 8787`, forwarding signals and its exit code, with its output
//      filtered to what matters here (scripts/lib/dev-output.mjs), and one banner after "Ready": the
//      URL, the demo accounts and certificate, where mailed links appear, the docs.
// Extra arguments are passed to `wrangler dev` (e.g. `npm run dev -- --port 8788`). The base URL
// follows the port: PUBLIC_BASE_URL (the OpenAPI server, the JWKS URL, share links, QR codes,
// PDFs and every credential's issuer) and ALLOWED_ORIGINS are set to `http://localhost:<port>`
// unless given with `--var`. `--persist-to <dir>` applies to the migrations and the seed too.
// A DNS-over-HTTPS double (scripts/lib/dns-double.mjs) answers organisations' domain proofs on
// http://127.0.0.1:<port + 1> (another free port if taken) unless DOH_RESOLVER_URL is given.
import { constants } from 'node:os';
import { devBanner, filterWranglerOutput } from './lib/dev-output.mjs';
import { ensureDevVars } from './lib/dev-vars.mjs';
import { startDnsDouble } from './lib/dns-double.mjs';
import { seedLocalDatabase } from './lib/seed.mjs';
import { applyLocalMigrations, spawnWrangler } from './lib/wrangler.mjs';

const extra = process.argv.slice(2);

/**
 * The value of `--name value` or `--name=value` in the arguments.
 * @param {string} name
 */
function option(name) {
  for (let i = 0; i < extra.length; i++) {
    const arg = extra[i] ?? '';
    if (arg === name) return extra[i + 1];
    if (arg.startsWith(`${name}=`)) return arg.slice(name.length + 1);
  }
  return undefined;
}

const port = Number(option('--port') ?? 8787);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`dev: --port must be a port number, not ${option('--port')}`);
  process.exit(1);
}
const persistTo = option('--persist-to');
const baseUrl = `http://localhost:${port}`;
const given = (/** @type {string} */ name) =>
  extra.some(
    (arg, i) => (arg === '--var' && extra[i + 1]?.startsWith(`${name}:`)) || arg.startsWith(`--var=${name}:`),
  );
const vars = [
  ...(given('PUBLIC_BASE_URL') ? [] : ['--var', `PUBLIC_BASE_URL:${baseUrl}`]),
  ...(given('ALLOWED_ORIGINS') ? [] : ['--var', `ALLOWED_ORIGINS:${baseUrl},http://127.0.0.1:${port}`]),
];

/** @type {Awaited<ReturnType<typeof seedLocalDatabase>>} */
let seeded;
try {
  ensureDevVars();
  console.log('dev: applying D1 migrations and seeding the demo data (local, no account needed)…');
  const applied = await applyLocalMigrations(persistTo, { capture: true });
  seeded = await seedLocalDatabase({ persistTo, baseUrl, quiet: true });
  console.log(
    `dev: local databases ready (${applied ? `${applied} migrations applied` : 'up to date'}, demo data seeded)`,
  );
} catch (error) {
  console.error(`dev: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

/** @type {string | null} */
let dnsUrl = null;
if (!given('DOH_RESOLVER_URL')) {
  const dns = await startDnsDouble(port + 1);
  vars.push('--var', `DOH_RESOLVER_URL:${dns.url}/dns-query`);
  dnsUrl = dns.url;
}

const hasPort = option('--port') !== undefined;
const child = spawnWrangler(['dev', '--local', ...(hasPort ? [] : ['--port', '8787']), ...vars, ...extra], {
  stdio: ['inherit', 'pipe', 'pipe'],
});
const banner = () =>
  devBanner({ baseUrl, accounts: seeded.accounts, certificateUrl: seeded.certificateUrl, dnsUrl });
if (child.stdout)
  filterWranglerOutput(child.stdout, process.stdout, { onReady: () => process.stdout.write(banner()) });
if (child.stderr) filterWranglerOutput(child.stderr, process.stderr);

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
