import { FlagError, parseFlags, usage, type ServerConfig } from './flags.js';
import { secureDataDir, serveApiServer } from '@kapi/serve';
import { prepareCertificates, type CertificateWorker } from '@kapi/serve/certificates';
import { certificateSets } from './defaults.js';
import { loadExternalPlugins } from './external-plugins.js';
import { loadFrontProxy } from './front-proxy.js';
import { readRootCaFile } from './root-ca.js';

const out = (message: string) => console.log(message);

/** kapi-server: `argv` without the program; `certificateWorker` is the certificate worker main.ts started, if any. */
export async function main(argv: string[], certificateWorker?: CertificateWorker): Promise<void> {
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

  // kube-controller-manager fails its start on a --root-ca-file it cannot parse; so does this server.
  const rootCa = config.rootCaFile ? readRootCaFile(config.rootCaFile) : undefined;
  // The certificates a first start generates are made in a worker thread while the server loads (in memory: a bad
  // --plugin below still fails the start before anything is written).
  const certificates = prepareCertificates(certificateSets(config), certificateWorker);
  // Loaded only now, so --help and flag errors answer without loading every group's schemas and validators.
  const { checkExternalPlugins, createKapiApiServer, createLogger } = await import('./apiserver.js');
  // kube-apiserver fails its start on an admission configuration it cannot read; so does this server, before anything
  // is written (it reads the file again when it builds its plugins).
  (await import('./admission-config.js')).loadAdmissionConfiguration(config.admissionControlConfigFile);
  // A --plugin that cannot be served fails the start before any certificate or key is made.
  const external = await loadExternalPlugins(config.plugins);
  checkExternalPlugins(external);

  // Keys, certificates, the admin kubeconfig and the database live there: nobody else may read them.
  if (config.securePort !== 0 || config.storageBackend === 'sqlite') secureDataDir(config.dataDir);
  // The proxy client certificate aggregated API servers are dialled with, and the request-header trust published for
  // them: written beside the serving and client certificates, and reported after them.
  const proxyReport: string[] = [];
  const frontProxy = loadFrontProxy(config, (line) => void proxyReport.push(line), certificates);
  frontProxy.catch(() => undefined); // awaited below; a failed start reports the first error
  await serveApiServer({
    dataDir: config.dataDir,
    bindAddress: config.bindAddress,
    securePort: config.securePort,
    insecurePort: config.insecurePort,
    tlsCertFile: config.tlsCertFile,
    tlsPrivateKeyFile: config.tlsPrivateKeyFile,
    clientCaFile: config.clientCaFile,
    kubeconfig: config.writeKubeconfig ?? false,
    shutdownDelayMs: config.shutdownDelayMs,
    shutdownSendRetryAfter: config.shutdownSendRetryAfter,
    handleSignals: true,
    log: out,
    certificates,
    apiServer: async ({ clientCa, tls }) => {
      const proxy = await frontProxy;
      for (const line of proxyReport) out(line);
      certificates.close();
      secureDataDir(config.dataDir);
      // The server's log (kube's klog text, or JSON) goes to stderr as kube-apiserver's does; the start-up report
      // (certificates, listeners, kubeconfig) is the command's own output, on stdout.
      const log = createLogger({ format: config.loggingFormat, verbosity: config.verbosity });
      return createKapiApiServer(config, log, { clientCaPem: clientCa, frontProxy: proxy, servingCaPem: rootCa ?? tls?.ca }, external);
    },
  });
}
