import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // Tests run the core with real group packages, from their build output. They are no dependencies of the core
    // (the group packages depend on it for their plugins' types): turbo.json builds them before these tests.
    alias: [{ find: /^@kapi\/(api-[a-z]+)$/, replacement: fileURLToPath(new URL('../$1/dist/index.js', import.meta.url)) }],
  },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results.json' },
  },
});
