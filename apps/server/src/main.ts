#!/usr/bin/env node
import { FlagError, parseFlags, usage, type ServerConfig } from './flags.js';
import { writeKubeconfig } from './kubeconfig.js';
import { secureDataDir } from './data-dir.js';
import { closeOnSignals, startServer } from './serve.js';
import { loadFrontProxy } from './front-proxy.js';
import { ensureClientCertificates, ensureSelfSignedCertificates, loadClientCa, loadServingCertificate, type ServingCertificate } from './tls.js';

const out = (message: string) => console.log(message);

async function main(argv: string[]): Promise<void> {
  let config: ServerConfig;
  try {
    const commandLine = parseFlags(argv);
    if (commandLine.help) {
      process.stdout.write(usage());
      return;
    }
    config = commandLine.config;
  } catch (error) {
    if (!(error instanceof FlagError)) throw error;
    // cobra's behaviour: the error, then the usage for parse errors; exit code 1.
    process.stderr.write(`Error: ${error.message}\n${error.usage ? `\n${usage()}` : ''}`);
    process.exit(1);
  }

  // Keys, certificates, the admin kubeconfig and the database live there: nobody else may read them.
  if (config.securePort !== 0 || config.storageBackend === 'sqlite') secureDataDir(config.dataDir);

  let tls: (ServingCertificate & { clientCa?: string }) | undefined;
  let adminCertificate: { cert: string; key: string } | undefined;
  if (config.securePort !== 0) {
    if (config.tlsCertFile && config.tlsPrivateKeyFile) {
      tls = await loadServingCertificate(config.tlsCertFile, config.tlsPrivateKeyFile);
    } else {
      const generated = await ensureSelfSignedCertificates({ dataDir: config.dataDir, bindAddress: config.bindAddress });
      if (generated.created.ca) out(`generated self-signed CA ${generated.files.ca}`);
      if (generated.created.cert) out(`generated serving certificate ${generated.files.cert} (key ${generated.files.key})`);
      tls = generated;
    }
    if (config.clientCaFile) {
      tls = { ...tls, clientCa: await loadClientCa(config.clientCaFile) };
    } else {
      const client = await ensureClientCertificates({ dataDir: config.dataDir });
      if (client.created.ca) out(`generated client CA ${client.files.ca}`);
      if (client.created.cert) out(`generated admin client certificate ${client.files.cert} (key ${client.files.key})`);
      tls = { ...tls, clientCa: client.ca };
      adminCertificate = client.admin;
    }
  }

  // The proxy client certificate aggregated API servers are dialled with, and the request-header trust published for them.
  const frontProxy = await loadFrontProxy(config, out);
  secureDataDir(config.dataDir);

  // Loaded only now, so --help and flag errors answer without loading every group's schemas and validators.
  const { createKapiApiServer, createLogger } = await import('./apiserver.js');
  // The server's log (kube's klog text, or JSON) goes to stderr as kube-apiserver's does; the start-up report above
  // and below (certificates, listeners, kubeconfig) is the command's own output, on stdout.
  const log = createLogger({ format: config.loggingFormat, verbosity: config.verbosity });
  const apiServer = await createKapiApiServer(config, log, { clientCaPem: tls?.clientCa, frontProxy });
  const running = await startServer({
    apiServer,
    bindAddress: config.bindAddress,
    securePort: config.securePort,
    insecurePort: config.insecurePort,
    tls,
    log: out,
    shutdownDelayMs: config.shutdownDelayMs,
    shutdownSendRetryAfter: config.shutdownSendRetryAfter,
  });
  closeOnSignals(running, out);

  if (config.writeKubeconfig) {
    await writeKubeconfig(config.writeKubeconfig, {
      server: running.url,
      caCertificate: running.urls.https ? tls?.ca : undefined,
      clientCertificate: running.urls.https ? adminCertificate : undefined,
    });
    out(`admin kubeconfig: ${config.writeKubeconfig} (export KUBECONFIG=${config.writeKubeconfig})`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
