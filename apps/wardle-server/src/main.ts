#!/usr/bin/env node
import { serveApiServer } from '@kapi/serve';
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

  // Loaded only now, so --help and flag errors answer at once.
  const { createWardleApiServer, createLogger } = await import('./apiserver.js');
  const log = createLogger({ verbosity: config.verbosity });
  await serveApiServer({
    apiServer: await createWardleApiServer(config, log),
    dataDir: config.dataDir,
    bindAddress: config.bindAddress,
    securePort: config.securePort === 0 ? 'ephemeral' : config.securePort,
    tlsCertFile: config.tlsCertFile,
    tlsPrivateKeyFile: config.tlsPrivateKeyFile,
    // Covers the name the aggregator checks it by (the deploy/ Service wardle/api), so ca.crt can be its caBundle.
    servingNames: SERVICE_NAMES,
    // Client certificates are asked for but verified by the authenticators, each against its own CA (the main
    // server's client CA, its front-proxy CA), which the ConfigMap may rotate.
    clientCertificates: 'delegate',
    kubeconfig: false,
    handleSignals: true,
    log: out,
    name: 'wardle-server',
  });
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
