#!/usr/bin/env node
// `npm run bench`: performance figures measured in one run against `wrangler dev --local`.
// Sections print their own tables; the combined figures go to bench/results/latest.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDevVars, readDevVars } from '../scripts/lib/dev-vars.mjs';
import { ROOT } from '../scripts/lib/wrangler.mjs';
import { startLocalWorker } from './lib/server.mjs';
import { benchLimiter } from './limiter.mjs';

ensureDevVars();
const vars = readDevVars();
const admin = { email: vars.ADMIN_EMAIL ?? '', password: vars.ADMIN_PASSWORD ?? '' };

const server = await startLocalWorker({ port: 8799, stateDir: '.wrangler/bench-state' });
/** @type {Record<string, unknown>} */
const results = { startedAt: new Date().toISOString() };
let failed = false;
try {
  results.limiter = await benchLimiter(server.url, admin);
} catch (err) {
  failed = true;
  console.error(err);
} finally {
  await server.stop();
}
mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
writeFileSync(join(ROOT, 'bench', 'results', 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
process.exit(failed ? 1 : 0);
