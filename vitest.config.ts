import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';
import { buildAssets } from './scripts/build-assets.mjs';
import { routeSources } from './scripts/lib/route-sources.mjs';
import { generateLegacyEd25519Key, generateSigningKeySecret } from './scripts/lib/signing-key.mjs';
import { outbound } from './test/doubles/outbound.mjs';

// The test Worker's secrets. Set in process.env too, so wrangler's required-secrets check is satisfied.
// CERT_SIGNING_KEY is a P-256 (ES256) key; an Ed25519 key from before ES256 is retired: its public
// half is published (CERT_PREVIOUS_PUBLIC_KEYS) and its private half is given to the tests only
// (TEST_LEGACY_SIGNING_KEY), to sign credentials "issued before" the switch.
const legacy = generateLegacyEd25519Key();
const secrets = {
  ADMIN_EMAIL: 'admin@test.local',
  ADMIN_PASSWORD: 'test-admin-password-123',
  CERT_SIGNING_KEY: generateSigningKeySecret(),
};
Object.assign(process.env, secrets);

// The vitest plugin re-reads wrangler.toml for every test file and says the same two things each
// time: that the AI binding is remote-only (tests use the local engine and fake AI bindings;
// `remote: true` in wrangler.toml would make `wrangler dev --local` open a remote session) and
// where the secrets come from. Say each once per run, not once per file.
const ONCE = ['AI bindings always access remote resources', 'Using secrets defined in'];
const said = new Set<string>();
for (const level of ['log', 'info', 'warn'] as const) {
  const original = console[level].bind(console);
  console[level] = (...args: unknown[]) => {
    const text = args.map(String).join(' ');
    const key = ONCE.find((phrase) => text.includes(phrase));
    if (key) {
      if (said.has(key)) return;
      said.add(key);
    }
    original(...args);
  };
}

// The generated static assets (public/docs/scalar.js …, wrangler.toml [assets]): the pool serves
// public/ as the deployed Worker's static assets do, and the tests fetch them through SELF.
buildAssets();

const migrations = await readD1Migrations(new URL('./migrations', import.meta.url).pathname);
const fingerprintMigrations = await readD1Migrations(
  new URL('./migrations-fingerprints', import.meta.url).pathname,
);

/**
 * The packages the Worker and its tests import, each bundled once into one module by Vite's
 * dependency optimizer. Every test file starts a fresh workerd (storage is isolated per file) and
 * imports the whole app into it; unbundled, zod, drizzle-orm, pdf-lib and hono are hundreds of
 * modules, each fetched from Vitest's server over a socket, and that import was most of each
 * file's setup time. List every entry point imported (subpaths too): one left out would load a
 * second copy of its package beside the bundled one. harfbuzzjs stays out (its loader reads a
 * `.wasm` module that only the Worker's module rules can load).
 */
const BUNDLED_DEPENDENCIES = [
  '@digitalbazaar/data-integrity',
  '@digitalbazaar/ecdsa-multikey',
  '@digitalbazaar/ecdsa-rdfc-2019-cryptosuite',
  '@digitalbazaar/ed25519-signature-2020',
  '@digitalbazaar/ed25519-verification-key-2020',
  '@digitalbazaar/eddsa-rdfc-2022-cryptosuite',
  '@digitalcredentials/verifier-core',
  '@openid4vc/oauth2',
  '@openid4vc/openid4vci',
  '@cfworker/json-schema',
  '@hono/zod-openapi',
  '@noble/hashes/hmac.js',
  '@noble/hashes/sha2.js',
  '@noble/hashes/utils.js',
  '@pdf-lib/fontkit',
  '@zip.js/zip.js',
  '@zxcvbn-ts/core',
  '@zxcvbn-ts/language-common',
  'drizzle-orm',
  'drizzle-orm/batch',
  'drizzle-orm/d1',
  'drizzle-orm/sqlite-core',
  'fast-check',
  'fflate',
  'hono',
  'hono/body-limit',
  'hono/cookie',
  'hono/html',
  'hono/http-exception',
  'hono/router/trie-router',
  'hono/route',
  'hono/utils/http-status',
  'jose',
  'jsonld-signatures',
  'jsqr',
  'pdf-lib',
  'standardwebhooks',
  'uqr',
  'yaml',
  'zod',
];

/**
 * How the optimizer bundles them: for the browser, as wrangler bundles the Worker (esbuild's
 * default platform, so each package's `browser` field applies). jsonld.js and the Data Integrity
 * libraries (src/domain/certificates/data-integrity.ts) load in workerd only that way: their Node
 * builds import Node's HTTP client and `crypto`.
 */
const OPTIMIZER = {
  enabled: true,
  include: BUNDLED_DEPENDENCIES,
  rolldownOptions: { platform: 'browser' as const },
};

/**
 * What the tests resolve differently from the Worker. The Durable Objects load their D1 writes
 * with `import()` (src/durable/d1-writes.load.ts); under the Workers pool a Durable Object's
 * `import()` fetches the module through the test runner's object from the object's own I/O
 * context, which failed from an alarm and hung a CI run. The tests load those writes statically.
 */
const RESOLVE = {
  alias: [
    {
      find: /^\.\/d1-writes\.load$/,
      replacement: new URL('./test/doubles/d1-writes.load.ts', import.meta.url).pathname,
    },
  ],
};

/** The Workers pool, on wrangler.toml's bindings plus `bindings`. */
const workers = (bindings: Record<string, unknown>) =>
  cloudflareTest({
    wrangler: { configPath: './wrangler.toml' },
    // Workers AI is remote-only; tests use the local engine and fake AI bindings.
    remoteBindings: false,
    miniflare: {
      // Outside services (DNS-over-HTTPS …) are test doubles: test/doubles/outbound.mjs.
      outboundService: outbound,
      bindings: { ...secrets, ...bindings },
    },
  });

/**
 * A test's time limit, not an assertion: the login tests hash passwords at production's PBKDF2
 * cost (100,000 iterations) many times, and property tests run hundreds of cases, so on a shared
 * 2-core machine they pass their 5 s default only when nothing else runs. 30 s keeps a hung test
 * bounded without failing a slow one. Set in each project: a project does not inherit the root's
 * `test` options (Vitest 4), so the root's setting never reached a test.
 */
const TEST_TIMEOUT_MS = 30_000;

/** The service project's bindings beyond wrangler.toml's. */
const serviceBindings = {
  DOH_RESOLVER_URL: 'http://doh.test/dns-query',
  // Tests hold webhooks to production's rule (https, public addresses); one test turns it on.
  WEBHOOKS_ALLOW_HTTP_LOCALHOST: 'false',
  CERT_PREVIOUS_PUBLIC_KEYS: JSON.stringify([legacy.publicJwk]),
  TEST_LEGACY_SIGNING_KEY: legacy.secret,
  TEST_MIGRATIONS: migrations,
  FINGERPRINT_MIGRATIONS: fingerprintMigrations,
  COMMITTED_OPENAPI: readFileSync(new URL('./openapi.yaml', import.meta.url), 'utf8'),
  README_MD: readFileSync(new URL('./README.md', import.meta.url), 'utf8'),
  ROUTE_SOURCES: JSON.stringify(routeSources()),
  // test/fuzz.test.ts: runs per operation, and a seed to replay a failure.
  FUZZ_RUNS: process.env.FUZZ_RUNS ?? '',
  FUZZ_SEED: process.env.FUZZ_SEED ?? '',
  // test/setup.ts: log how long each file's storage reset took.
  DEBUG_TEST_SETUP: process.env.DEBUG_TEST_SETUP ?? '',
  // The tests inject failures on purpose (a job that throws, a KV that is down): their logs would
  // be thousands of red lines. `LOG_LEVEL=info npm test` shows them (src/lib/log.ts).
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
};

/** Service files that drop a table (a failure they simulate): each gets a workerd of its own. */
const OWN_WORKERD = ['test/evaluation-failure.test.ts'];

export default defineConfig({
  test: {
    // CI also writes a JSON report, from which .ci/run prints a plain 'N passed, N failed' line.
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: './test-results/vitest.json' },
    // Vitest's default in a run is one file at a time on a 2-core machine (cores - 1). A file's
    // time is mostly waiting between workerd and Vitest's server, so two files at once use both
    // cores; each file still has its own workerd and storage.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        // The service through its routes, bindings and storage, every response checked against
        // the OpenAPI document. Files run one after another in one workerd per Vitest worker
        // (`isolate: false`): the app is imported and the databases migrated once per worker, not
        // once per file, which was most of the suite's time (docs/testing.md). Every file still
        // starts on empty, migrated storage and a fresh isolate's memory (test/setup.ts).
        plugins: [workers(serviceBindings)],
        resolve: RESOLVE,
        test: {
          name: 'service',
          testTimeout: TEST_TIMEOUT_MS,
          include: ['test/**/*.test.ts'],
          exclude: OWN_WORKERD,
          isolate: false,
          // Console output from work still running when a file ends (a queue consumer, a Durable
          // Object's alarm) would be sent to Vitest from outside the file's I/O context; the plugin
          // then holds it as a pending call, and closing the worker with calls pending hung the
          // run at its end. Printed by workerd itself instead, it reaches the terminal all the same.
          disableConsoleIntercept: true,
          deps: { optimizer: { ssr: OPTIMIZER } },
          setupFiles: ['./test/setup.ts', './test/response-validation.setup.ts'],
          globalSetup: ['./test/global-setup.ts'],
        },
      },
      {
        // Files that change what test/setup.ts cannot put back (the schema), each in its own workerd.
        plugins: [workers(serviceBindings)],
        resolve: RESOLVE,
        test: {
          name: 'service-isolated',
          testTimeout: TEST_TIMEOUT_MS,
          include: OWN_WORKERD,
          deps: { optimizer: { ssr: OPTIMIZER } },
          setupFiles: ['./test/setup.ts', './test/response-validation.setup.ts'],
        },
      },
      {
        // The domain's pure functions (src/**/*.test.ts), in the same runtime but with nothing set
        // up per file: no migrations and no import of the whole app, which cost each file seconds.
        plugins: [workers({})],
        resolve: RESOLVE,
        test: {
          name: 'domain',
          include: ['src/**/*.test.ts'],
          testTimeout: TEST_TIMEOUT_MS,
          // Pure functions: nothing to reset between files, so one workerd per Vitest worker.
          isolate: false,
          deps: { optimizer: { ssr: OPTIMIZER } },
        },
      },
    ],
  },
});
