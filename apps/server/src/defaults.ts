import type { CertificateSets } from '@kapi/serve/certificates';

/** `--data-dir`'s default, relative to the working directory. */
export const DEFAULT_DATA_DIR = './.kapi';
/** `--bind-address`'s default. */
export const DEFAULT_BIND_ADDRESS = '127.0.0.1';
/** `--secure-port`'s default. */
export const DEFAULT_SECURE_PORT = '6443';

/** The flags that decide which certificates a start generates (those it is not given files for). */
export interface CertificateFlags {
  dataDir: string;
  securePort: number;
  bindAddress: string;
  tlsCertFile?: string;
  clientCaFile?: string;
  proxyClientCertFile?: string;
}

/** The certificate sets kapi-server generates with these flags, when their files are missing from the data dir. */
export function certificateSets(flags: CertificateFlags): CertificateSets {
  const secure = flags.securePort !== 0;
  return {
    dataDir: flags.dataDir,
    serving: secure && !flags.tlsCertFile && { bindAddress: flags.bindAddress },
    client: secure && !flags.clientCaFile,
    frontProxy: !flags.proxyClientCertFile,
  };
}
