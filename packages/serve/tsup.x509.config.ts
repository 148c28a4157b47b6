import { defineConfig } from 'tsup';

// dist/x509.cjs: the x509 library and its dependencies bundled into one CommonJS file (see src/x509-library.ts), built
// after tsup.config.ts (whose `clean` would remove it). loadX509 requires it from beside the built code.
export default defineConfig({
  entry: { x509: 'src/x509-library.ts' },
  format: ['cjs'],
  noExternal: [/.*/],
  platform: 'node',
  target: 'node20',
  dts: false,
  sourcemap: false,
  clean: false,
});
