import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The first policy test compiles CEL and starts a server: seconds on a loaded 2-core machine.
    testTimeout: 30_000,
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results.json' },
  },
});
