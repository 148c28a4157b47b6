import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  // storage is an entry of its own: apps/wardle-server imports it without the groups. prebuild-validators runs after
  // the build (package.json) and fills dist/validators/.
  entry: ['src/main.ts', 'src/index.ts', 'src/storage.ts', 'src/prebuild-validators.ts'],
  format: ['esm'],
  // Types for the library entries (the composition and the storage flags), not for the binary.
  dts: { entry: { index: 'src/index.ts', storage: 'src/storage.ts' } },
  sourcemap: true,
  clean: true,
  target: 'node20',
  define: { __KAPI_SERVER_VERSION__: JSON.stringify(version) },
});
