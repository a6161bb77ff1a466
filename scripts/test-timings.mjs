// A vitest reporter that writes where each test file's time went (test-results/timings.json, or
// TIMINGS_FILE) and prints a per-phase summary. Use it beside the default reporter:
//   npx vitest run --reporter=default --reporter=./scripts/test-timings.mjs
// Phases are vitest's own (TestModule.diagnostic()): environment (the pool worker's environment),
// prepare (the runner), setup (setupFiles, which in the service project includes starting the
// Worker: importing the whole app, and migrating its databases), collect (import the test file and
// run its describe blocks), tests (tests and hooks). The file is rewritten after every test file,
// so an interrupted run still leaves what it measured.
import { mkdirSync, writeFileSync } from 'node:fs';

/** @typedef {'environment' | 'prepare' | 'setup' | 'collect' | 'tests'} Phase */
/** @typedef {{ file: string, project: string, count: number } & Record<Phase, number>} Row */

/** @type {Phase[]} */
const PHASES = ['environment', 'prepare', 'setup', 'collect', 'tests'];

/** @param {number} ms */
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

export default class TestTimings {
  /** @type {Row[]} */
  rows = [];
  runStart = 0;

  onInit() {
    this.runStart = performance.now();
  }

  /** @param {import('vitest/node').TestModule} module */
  onTestModuleEnd(module) {
    const d = module.diagnostic();
    this.rows.push({
      file: module.relativeModuleId,
      project: module.project.name,
      count: [...module.children.allTests()].length,
      environment: d.environmentSetupDuration,
      prepare: d.prepareDuration,
      setup: d.setupDuration,
      collect: d.collectDuration,
      tests: d.duration,
    });
    this.write(performance.now() - this.runStart);
  }

  onTestRunEnd() {
    const total = performance.now() - this.runStart;
    const sum = this.write(total);
    const phases = PHASES.map((p) => `${p} ${seconds(sum.phases[p])}`).join(', ');
    console.log(
      `Timings: ${sum.files} files, ${sum.count} tests, ${seconds(total)} wall; summed over files: ${phases}`,
    );
  }

  /** @param {number} wall */
  write(wall) {
    /** @type {Record<Phase, number>} */
    const phases = { environment: 0, prepare: 0, setup: 0, collect: 0, tests: 0 };
    let count = 0;
    for (const row of this.rows) {
      count += row.count;
      for (const phase of PHASES) phases[phase] += row[phase];
    }
    const sum = { files: this.rows.length, count, wall, phases };
    mkdirSync('test-results', { recursive: true });
    writeFileSync(
      process.env.TIMINGS_FILE ?? 'test-results/timings.json',
      `${JSON.stringify({ at: new Date().toISOString(), sum, files: this.rows }, null, 1)}\n`,
    );
    return sum;
  }
}
