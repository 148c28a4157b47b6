import { defineConfig } from 'tsup';

export default defineConfig({
  // The certificate worker is a file of its own, which prepareCertificates starts as a worker thread; `./certificates`
  // is the light entry a program imports before the rest.
  entry: { index: 'src/index.ts', certificates: 'src/certificates-entry.ts', 'certificate-worker': 'src/certificate-worker.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  // import.meta.url in the CommonJS build (kubeconfig.ts loads yaml through createRequire).
  shims: true,
});
