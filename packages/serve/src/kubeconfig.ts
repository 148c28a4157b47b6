import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createRequire } from 'node:module';

type Yaml = typeof import('yaml');
const nodeRequire = createRequire(import.meta.url);
let yaml: Yaml | undefined;

export const KUBECONFIG_NAMES = { cluster: 'kapi', user: 'kapi-admin', context: 'kapi' } as const;

export interface AdminKubeconfig {
  /** The URL clients reach the server at (`https://127.0.0.1:6443`). */
  server: string;
  /** PEM of the CA that signed the serving certificate; omitted for plain HTTP or an unknown CA (system roots). */
  caCertificate?: string;
  /** The admin's client certificate and key (PEM), signed by the client CA the secure port trusts. */
  clientCertificate?: { cert: string; key: string };
}

/**
 * The YAML library (70 CommonJS files), loaded when a kubeconfig is first rendered, not at start: a start that writes
 * none (--write-kubeconfig=) does not load it.
 */
export function loadYaml(): Yaml {
  return (yaml ??= nodeRequire('yaml') as Yaml);
}

/** Renders the admin kubeconfig: cluster, user and context named as in KUBECONFIG_NAMES, current context set. */
export function renderKubeconfig(options: AdminKubeconfig): string {
  const cluster: Record<string, string> = { server: options.server };
  if (options.caCertificate) cluster['certificate-authority-data'] = Buffer.from(options.caCertificate).toString('base64');
  const { Document, isMap } = loadYaml();
  const doc = new Document({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: KUBECONFIG_NAMES.cluster, cluster }],
    users: [{ name: KUBECONFIG_NAMES.user, user: userEntry(options) }],
    contexts: [{ name: KUBECONFIG_NAMES.context, context: { cluster: KUBECONFIG_NAMES.cluster, user: KUBECONFIG_NAMES.user } }],
    'current-context': KUBECONFIG_NAMES.context,
    preferences: {},
  });
  doc.commentBefore = ' Written by kapi-server for its admin user. Regenerated at every start.';
  const user = doc.getIn(['users', 0]);
  if (isMap(user)) {
    user.commentBefore = options.clientCertificate
      ? ' The client certificate of kapi-admin (CN kapi-admin, O system:masters), signed by the generated client CA.'
      : ' No client certificate (--client-ca-file names a CA this server holds no key of): requests run as anonymous\n' +
        ' unless you add credentials. The username (no password, no secret) only stops kubectl from prompting.';
  }
  return doc.toString();
}

function userEntry(options: AdminKubeconfig): Record<string, string> {
  if (!options.clientCertificate) return { username: KUBECONFIG_NAMES.user };
  return {
    'client-certificate-data': Buffer.from(options.clientCertificate.cert).toString('base64'),
    'client-key-data': Buffer.from(options.clientCertificate.key).toString('base64'),
  };
}

/** Writes the admin kubeconfig (mode 0600, as it will hold credentials), creating its directory. */
export async function writeKubeconfig(path: string, options: AdminKubeconfig): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, renderKubeconfig(options), { mode: 0o600 });
  await chmod(tmp, 0o600);
  await rename(tmp, path);
}
