import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // These tests drive server processes and real clients (kubectl forks, Python starts): give each test room on a
    // busy CI machine. A timeout is no speed check; benchmarks measure speed.
    testTimeout: 30_000,
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results.json' },
  },
});
