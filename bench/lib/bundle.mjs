// The service's own TypeScript, bundled for Node with esbuild (as scripts/openapi.mjs does), so
// the benchmark seeds data with the real algorithms: certificate numbers with their check
// character, signed credentials, winnowing fingerprints, the consent notice version, and the
// DSR export itself (run in Node to measure its memory).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { ROOT } from '../../scripts/lib/wrangler.mjs';

const ENTRY = `
export { generateCertificateNumber, parseCertificateNumber } from './src/domain/certificates/certificate-number';
export { importSigningKey, signCredential, verifyCredential } from './src/domain/certificates/credential';
export { fingerprintSubmission } from './src/domain/integrity/winnowing';
export { CURRENT_NOTICE_VERSION } from './src/domain/consent-notices';
export { startAccessExport } from './src/services/dsr/access-export';
export { runErasureCascade } from './src/services/dsr/erasure';
export { createSubmission } from './src/services/workflow/submissions';
export { getDb } from './src/db/client';
export { DEFAULT_STORAGE_LIMITS } from './src/domain/storage-quota';
export { hashPassword } from './src/domain/secrets';
export { KV_WRITE_INTERVAL_MS, simulateCoalescing } from './src/domain/coalesce';
export { D1Corpus, shardOf } from './src/services/corpus';
`;

/**
 * @typedef {{
 *   generateCertificateNumber: (random?: (n: number) => Uint8Array) => string;
 *   parseCertificateNumber: (input: string) => { ok: boolean; normalised?: string };
 *   importSigningKey: (secret: string, baseUrl: string) => Promise<unknown>;
 *   signCredential: (input: {
 *     certificateId: string; certificateNo: string; baseUrl: string;
 *     issuer: { organisationId: string | null; name: string; url?: string | null };
 *     subjectId: string; brief: { id: string; title: string; domain: string };
 *     rubric?: { id: string; name: string; description: string; levels: { score: number; descriptor: string }[] }[];
 *     results?: { criteria: { criterionId: string; score: number }[]; overall: number | null };
 *     statusIndex?: number; issuedAt: Date;
 *   }, key: unknown) => Promise<string>;
 *   verifyCredential: (jwt: string, jwks: { keys: unknown[] }) => Promise<{ valid: boolean; reason?: string }>;
 *   fingerprintSubmission: (material: { text?: string }) => { hash: number; position: number }[];
 *   CURRENT_NOTICE_VERSION: string;
 *   hashPassword: (password: string) => Promise<{ passwordHash: string; passwordSalt: string; passwordIterations: number }>;
 *   getDb: (d1: unknown) => unknown;
 *   startAccessExport: (
 *     db: unknown,
 *     env: { DB: unknown; OAUTH_KV: unknown; PUBLIC_BASE_URL: string },
 *     user: { id: string; email: string; name: string; role: string; sessionId: string },
 *   ) => Promise<{ filename: string; body: ReadableStream<Uint8Array> }>;
 *   runErasureCascade: (
 *     message: { requestId: string; userId: string },
 *     env: { DB: unknown; CACHE: unknown },
 *   ) => Promise<{ state: string; deletedCounts: Record<string, number> }>;
 *   KV_WRITE_INTERVAL_MS: number;
 *   simulateCoalescing: (changes: number[], intervalMs?: number) => { writes: number[]; maxStalenessMs: number };
 *   shardOf: (hash: number, shards: number) => number;
 * }} Domain
 */

/** @type {Promise<{ domain: Domain; path: string }> | undefined} */
let loaded;

/**
 * Bundles once per process; the bundle file stays until the process exits (worker threads
 * import it too).
 * @returns {Promise<{ domain: Domain; path: string }>}
 */
export function loadBundle() {
  loaded ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-domain-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const outfile = join(dir, 'domain.mjs');
    await build({
      stdin: { contents: ENTRY, resolveDir: ROOT, loader: 'ts', sourcefile: 'bench-domain.ts' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      outfile,
      logLevel: 'warning',
      // The OAuth library imports `cloudflare:workers`, which Node cannot load. The service loads
      // it on first use only (src/services/portability/oauth.ts; the export of a person without
      // grants, the bench's, never does), so it stays a dynamic import outside the bundle.
      external: ['@cloudflare/workers-oauth-provider'],
      // Emscripten's loader (HarfBuzz) calls require('fs') when it sees Node; an ES module bundle
      // has no require of its own.
      banner: {
        js: "import { createRequire as __createRequire } from 'node:module'; import { readFileSync } from 'node:fs'; const require = __createRequire(import.meta.url);",
      },
      // Data modules of the Worker (wrangler.toml [[rules]]: fonts, the badge PNG) and HarfBuzz's
      // WASM, which workerd imports as modules: bytes here, so the bundle builds. (Only the DSR
      // export's PDFs use them in Node; the verification rows never do.)
      loader: { '.ttf': 'binary', '.png': 'binary' },
      // workerd imports .wasm as a compiled WebAssembly.Module (wrangler's CompiledWasm rule): so here.
      plugins: [
        {
          name: 'compiled-wasm',
          setup(b) {
            b.onLoad({ filter: /\.wasm$/ }, (args) => ({
              contents: `export default new WebAssembly.Module(readFileSync(${JSON.stringify(args.path)}));`,
              loader: 'js',
            }));
          },
        },
      ],
    });
    return { domain: /** @type {Domain} */ (await import(pathToFileURL(outfile).href)), path: outfile };
  })();
  return loaded;
}

/** @returns {Promise<Domain>} */
export async function loadDomain() {
  return (await loadBundle()).domain;
}
