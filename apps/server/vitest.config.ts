import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Tests that start kapi-server as a process (loading every group) take seconds on a loaded 2-core machine.
    testTimeout: 30_000,
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results.json' },
  },
});
