#!/usr/bin/env node
// Runs every package's tests through turbo, then prints one closing line with the totals read from each
// package's vitest JSON report: "tests: N passed, N failed" (", N skipped" when some were skipped). Failed tests are
// named again just above that line, each with the start of its failure message, so that a log cut to its tail (as CI
// shows it) still says what failed.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const turbo = spawnSync('npx', ['turbo', 'run', 'test', '--continue', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });

let passed = 0;
let failed = 0;
let skipped = 0;
let reports = 0;
const failures = [];
/** The message of a failure and the first stack line outside node_modules: what says where and why. */
const firstLines = (text) => {
  const lines = String(text).split('\n');
  const message = lines.filter((l) => !/^\s+at /.test(l)).slice(0, 8);
  const at = lines.find((l) => /^\s+at /.test(l) && !l.includes('node_modules'));
  return [...message, ...(at ? [at.trim()] : [])].map((l) => `    ${l}`).join('\n');
};
for (const parent of ['packages', 'apps', '.']) {
  const dirs = parent === '.' ? ['codegen'] : readdirSync(join(root, parent)).map((d) => join(parent, d));
  for (const dir of dirs) {
    const report = join(root, dir, 'test-results.json');
    if (!existsSync(report)) continue;
    const r = JSON.parse(readFileSync(report, 'utf8'));
    reports += 1;
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + (r.numTodoTests ?? 0);
    for (const file of r.testResults ?? []) {
      const where = relative(root, file.name);
      const failedTests = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
      for (const t of failedTests) failures.push(`FAILED ${where} > ${t.fullName}\n${firstLines(t.failureMessages?.join('\n') ?? '')}`);
      if (file.status === 'failed' && failedTests.length === 0) failures.push(`FAILED ${where}\n${firstLines(file.message ?? '')}`);
    }
  }
}
const status = turbo.status ?? 1;
if (failures.length) console.log(`\n${failures.join('\n')}`);
console.log(`\ntest reports read: ${reports}`);
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
if (status !== 0 && failed === 0) console.log(`turbo exited ${status}: a build or test task failed before reporting`);
process.exit(status !== 0 ? status : failed > 0 ? 1 : 0);
