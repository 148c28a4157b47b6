import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  // The CEL engine and its protobuf runtime are bundled in: as packages they are ~100 small ES modules, whose
  // resolution cost the sample server ~100 ms of its start. Nothing outside this package touches them at run time.
  noExternal: ['@bufbuild/cel', '@bufbuild/protobuf'],
});
