import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  // serve, tls, data-dir and storage are entries of their own: other servers (apps/wardle-server) import them without the groups.
  entry: ['src/main.ts', 'src/index.ts', 'src/serve.ts', 'src/tls.ts', 'src/data-dir.ts', 'src/storage.ts'],
  format: ['esm'],
  dts: false,
  sourcemap: true,
  clean: true,
  target: 'node20',
  define: { __KAPI_SERVER_VERSION__: JSON.stringify(version) },
});
