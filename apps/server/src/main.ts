#!/usr/bin/env node
// kapi-server's entry. Loading the server takes a few hundred milliseconds; a first start also generates certificates,
// whose library takes a good part of that to load. So before anything else is loaded, a worker thread starts loading it
// when the data dir lacks the certificates the flags call for (looked at here only for that; cli.ts parses the flags).
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startCertificateWorker } from '@kapi/serve/certificates';
import { certificateSets, DEFAULT_BIND_ADDRESS, DEFAULT_DATA_DIR, DEFAULT_SECURE_PORT } from './defaults.js';

const argv = process.argv.slice(2);
let worker;
try {
  const { values } = parseArgs({
    args: argv,
    options: Object.fromEntries(['data-dir', 'secure-port', 'bind-address', 'tls-cert-file', 'client-ca-file', 'proxy-client-cert-file'].map((n) => [n, { type: 'string' as const }])),
    strict: false,
  });
  const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  const help = argv.some((a) => a === '--help' || a === '-h');
  if (!help) worker = startCertificateWorker(
    certificateSets({
      dataDir: resolve(text('data-dir') ?? DEFAULT_DATA_DIR),
      securePort: Number(text('secure-port') ?? DEFAULT_SECURE_PORT),
      bindAddress: text('bind-address') ?? DEFAULT_BIND_ADDRESS,
      tlsCertFile: text('tls-cert-file'),
      clientCaFile: text('client-ca-file'),
      proxyClientCertFile: text('proxy-client-cert-file'),
    }),
  );
} catch {
  // Flags cli.ts will refuse: no warm-up.
}
const { main } = await import('./cli.js');
main(argv, worker).catch((error: unknown) => {
  process.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
