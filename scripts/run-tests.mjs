#!/usr/bin/env node
// Runs every package's tests through turbo, then prints one closing line with the totals read from each
// package's vitest JSON report: "tests: N passed, N failed" (", N skipped" when some were skipped).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const turbo = spawnSync('npx', ['turbo', 'run', 'test', '--continue', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });

let passed = 0;
let failed = 0;
let skipped = 0;
let reports = 0;
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
  }
}
const status = turbo.status ?? 1;
console.log(`\ntest reports read: ${reports}`);
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
if (status !== 0 && failed === 0) console.log(`turbo exited ${status}: a build or test task failed before reporting`);
process.exit(status !== 0 ? status : failed > 0 ? 1 : 0);
