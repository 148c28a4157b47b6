import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Servers under test share 2 cores with every other package's tests in `pnpm run verify`: give them room.
    testTimeout: 20_000,
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results.json' },
  },
});
