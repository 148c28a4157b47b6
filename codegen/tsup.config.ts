import { cpSync } from 'node:fs';
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', cli: 'src/cli.ts', 'import/index': 'src/import/index.ts' },
  format: ['esm'],
  dts: { entry: { index: 'src/index.ts' } },
  sourcemap: true,
  clean: true,
  target: 'node20',
  // The built-in schemas ship inside the package: a project's schemas refer to them (`kapi:core/v1/PodSpec`).
  onSuccess: async () => {
    cpSync('../schemas', 'dist/schemas', { recursive: true, filter: (source) => !source.endsWith('.md') });
  },
});
