import { spawn } from 'node:child_process';

/**
 * A kubeconfig user's `exec` entry: a credential plugin (client.authentication.k8s.io), as EKS's `aws eks get-token`,
 * GKE's `gke-gcloud-auth-plugin`, `kubelogin` and others are configured.
 */
export interface ExecConfig {
  /** The program; a relative path with a `/` in it is resolved against the kubeconfig's directory by loadKubeconfig. */
  command: string;
  args?: string[];
  /** Added to this process's environment for the plugin. */
  env?: { name: string; value: string }[];
  /** client.authentication.k8s.io/v1 or v1beta1: what the plugin is given and must answer in. */
  apiVersion: string;
  /** Shown when the command cannot be found. */
  installHint?: string;
  /** Whether the plugin gets the cluster (server, CA, the cluster's exec extension) in KUBERNETES_EXEC_INFO. */
  provideClusterInfo?: boolean;
  /** A library never has a terminal to give: `Always` is refused, the others run the plugin without one. */
  interactiveMode?: 'Never' | 'IfAvailable' | 'Always';
}

/** The cluster as a plugin sees it when `provideClusterInfo` is set. */
export interface ExecCluster {
  server: string;
  'tls-server-name'?: string;
  'insecure-skip-tls-verify'?: boolean;
  'certificate-authority-data'?: string;
  /** The cluster's `extensions` entry named `client.authentication.k8s.io/exec`. */
  config?: unknown;
}

/** What a plugin answered: a bearer token, a client certificate and key, or both; until when they hold. */
export interface ExecCredential {
  token?: string;
  cert?: string;
  key?: string;
  /** Epoch milliseconds; unset when the plugin gave no expirationTimestamp (kept until the server answers 401). */
  expiresAt?: number;
}

const API_VERSIONS = ['client.authentication.k8s.io/v1', 'client.authentication.k8s.io/v1beta1'];

/** What client-go's kubeconfig validation says of an exec entry, one message per problem; empty when it is usable. */
export function execConfigProblems(exec: Partial<ExecConfig>, user: string): string[] {
  const problems: string[] = [];
  if (!exec.command) problems.push(`command must be specified for ${user} to use exec authentication plugin`);
  if (!exec.apiVersion) problems.push(`apiVersion must be specified for ${user} to use exec authentication plugin`);
  else if (!API_VERSIONS.includes(exec.apiVersion)) problems.push(`exec plugin: invalid apiVersion "${exec.apiVersion}"`);
  for (const v of exec.env ?? []) if (!v?.name) problems.push(`env variable name must be specified for ${user} to use exec authentication plugin`);
  if (exec.interactiveMode === undefined) {
    // v1beta1 defaults it to IfAvailable; v1 makes it required.
    if (exec.apiVersion === 'client.authentication.k8s.io/v1') problems.push(`interactiveMode must be specified for ${user} to use exec authentication plugin`);
  } else if (!['Never', 'IfAvailable', 'Always'].includes(exec.interactiveMode)) {
    problems.push(`invalid interactiveMode for ${user}: "${exec.interactiveMode}"`);
  }
  return problems;
}

/**
 * Runs a credential plugin and keeps its answer until it expires or the server refuses it (client-go's exec
 * authenticator): one run at a time, shared by every request waiting for it.
 */
export class ExecCredentialSource {
  private current?: ExecCredential;
  private running?: Promise<ExecCredential>;

  constructor(
    readonly exec: ExecConfig,
    private readonly cluster?: ExecCluster,
  ) {}

  /** The credential to send: the kept one while it holds, else a fresh run of the plugin. */
  get(): Promise<ExecCredential> {
    const now = Date.now();
    if (this.current && (this.current.expiresAt === undefined || this.current.expiresAt > now)) return Promise.resolve(this.current);
    this.running ??= this.run().then(
      (credential) => {
        this.current = credential;
        this.running = undefined;
        return credential;
      },
      (error: unknown) => {
        this.running = undefined;
        throw error;
      },
    );
    return this.running;
  }

  /** The server answered 401 to `used`: the next request runs the plugin again (unless another run replaced it). */
  refused(used: ExecCredential): void {
    if (this.current === used) this.current = undefined;
  }

  private run(): Promise<ExecCredential> {
    const { exec } = this;
    if (exec.interactiveMode === 'Always') {
      return Promise.reject(new Error('exec plugin cannot support interactive mode: standard input is not a terminal'));
    }
    const info = { apiVersion: exec.apiVersion, kind: 'ExecCredential', spec: { interactive: false, ...(exec.provideClusterInfo && this.cluster ? { cluster: this.cluster } : {}) } };
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const { name, value } of exec.env ?? []) env[name] = value;
    env.KUBERNETES_EXEC_INFO = JSON.stringify(info);
    return new Promise((resolve, reject) => {
      const child = spawn(exec.command, exec.args ?? [], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (d: Buffer) => out.push(d));
      child.stderr.on('data', (d: Buffer) => err.push(d));
      child.on('error', (error: NodeJS.ErrnoException) => {
        const hint = exec.installHint ? `\n\n${exec.installHint}` : '';
        reject(new Error(error.code === 'ENOENT' ? `exec: executable ${exec.command} not found${hint}` : `exec: ${exec.command}: ${error.message}`));
      });
      child.on('close', (code, signal) => {
        if (code !== 0) {
          const stderr = Buffer.concat(err).toString().trim();
          return reject(new Error(`exec: executable ${exec.command} failed with ${code === null ? `signal ${signal}` : `exit code ${code}`}${stderr ? `: ${stderr}` : ''}`));
        }
        try {
          resolve(credentialFrom(Buffer.concat(out).toString(), exec.apiVersion));
        } catch (error) {
          reject(error);
        }
      });
    });
  }
}

/** The credential in a plugin's output, checked as client-go checks it. */
function credentialFrom(stdout: string, apiVersion: string): ExecCredential {
  let doc: { apiVersion?: unknown; kind?: unknown; status?: Record<string, unknown> | null };
  try {
    doc = JSON.parse(stdout) as typeof doc;
  } catch (error) {
    throw new Error(`decoding stdout: ${(error as Error).message}`);
  }
  if (!doc || typeof doc !== 'object') throw new Error('decoding stdout: not an ExecCredential object');
  if (doc.apiVersion !== apiVersion) throw new Error(`exec plugin is configured to use API version ${apiVersion}, plugin returned version ${String(doc.apiVersion)}`);
  if (doc.kind !== 'ExecCredential') throw new Error(`decoding stdout: kind ${String(doc.kind)} is not ExecCredential`);
  const status = doc.status;
  if (!status || typeof status !== 'object') throw new Error("exec plugin didn't return a status field");
  const text = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : undefined);
  const token = text(status.token);
  const cert = text(status.clientCertificateData);
  const key = text(status.clientKeyData);
  if (!token && !cert && !key) throw new Error("exec plugin didn't return a token or cert/key pair");
  if (!cert !== !key) throw new Error('exec plugin returned only certFile or keyFile, not both');
  let expiresAt: number | undefined;
  if (status.expirationTimestamp !== undefined && status.expirationTimestamp !== null) {
    expiresAt = typeof status.expirationTimestamp === 'string' ? Date.parse(status.expirationTimestamp) : Number.NaN;
    if (Number.isNaN(expiresAt)) throw new Error(`decoding stdout: expirationTimestamp ${JSON.stringify(status.expirationTimestamp)} is not a time`);
  }
  return { token, cert, key, expiresAt };
}
