#!/usr/bin/env node
// Runs every black-box test in this folder one after another (each starts its own `wrangler dev`
// on a free port and a temporary state), and writes test-results/blackbox.json with their summed
// counts for the closing line of .ci/run. Exits non-zero when any of them failed.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const results = join(root, 'test-results');
const tests = ['restart', 'dev-port'];

mkdirSync(results, { recursive: true });
let passed = 0;
let failed = 0;
for (const name of tests) {
  const report = join(results, `blackbox-${name}.json`);
  rmSync(report, { force: true });
  const run = spawnSync(process.execPath, [join(here, `${name}.mjs`)], { stdio: 'inherit', cwd: root });
  let counts = { passed: 0, failed: 1 };
  try {
    counts = JSON.parse(readFileSync(report, 'utf8'));
  } catch {
    console.error(`black box ${name}: no report (exit ${run.status})`);
  }
  if (run.status !== 0 && counts.failed === 0) counts.failed = 1;
  passed += counts.passed;
  failed += counts.failed;
}
writeFileSync(join(results, 'blackbox.json'), JSON.stringify({ passed, failed }));
console.log(`black box: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
