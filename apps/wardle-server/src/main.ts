#!/usr/bin/env node
import { secureDataDir } from '@kapi/server/data-dir';
import { closeOnSignals, startServer } from '@kapi/server/serve';
import { ensureSelfSignedCertificates, loadServingCertificate, type ServingCertificate } from '@kapi/server/tls';
import { FlagError, parseFlags, usage, type WardleConfig } from './flags.js';

const out = (message: string) => console.log(message);

/** The DNS names of the Service deploy/ registers wardle-server behind, as kube-aggregator verifies them. */
const SERVICE_NAMES = ['api.wardle.svc', 'api.wardle.svc.cluster.local'];

async function main(argv: string[]): Promise<void> {
  let config: WardleConfig;
  try {
    const commandLine = parseFlags(argv);
    if (commandLine.help) {
      process.stdout.write(usage());
      return;
    }
    config = commandLine.config;
  } catch (error) {
    if (!(error instanceof FlagError)) throw error;
    process.stderr.write(`Error: ${error.message}\n`);
    process.exit(1);
  }

  secureDataDir(config.dataDir);
  let tls: ServingCertificate;
  if (config.tlsCertFile && config.tlsPrivateKeyFile) {
    tls = await loadServingCertificate(config.tlsCertFile, config.tlsPrivateKeyFile);
  } else {
    // Covers the name the aggregator checks it by (the deploy/ Service wardle/api), so ca.crt can be its caBundle.
    const generated = await ensureSelfSignedCertificates({ dataDir: config.dataDir, bindAddress: config.bindAddress, names: SERVICE_NAMES });
    if (generated.created.cert) out(`generated self-signed serving certificate ${generated.files.cert} (CA ${generated.files.ca})`);
    tls = generated;
  }

  // Loaded only now, so --help and flag errors answer at once.
  const { createWardleApiServer, createLogger } = await import('./apiserver.js');
  const log = createLogger({ verbosity: config.verbosity });
  const apiServer = await createWardleApiServer(config, log);
  const running = await startServer({
    apiServer,
    bindAddress: config.bindAddress,
    securePort: config.securePort === 0 ? 'ephemeral' : config.securePort,
    // Client certificates are asked for but verified by the authenticators, each against its own CA (the main
    // server's client CA, its front-proxy CA), which the ConfigMap may rotate.
    tls: { cert: tls.cert, key: tls.key, requestClientCertificates: true },
    log: out,
    name: 'wardle-server',
  });
  closeOnSignals(running, out);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
