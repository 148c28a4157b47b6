import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { captureOutput, freePort, signalAndWait, waitForReady } from '@kapi/storage-etcd/testing';

// These tests run the built binary: `pnpm --filter @kapi/server build` first (turbo's test task does).
const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const run = promisify(execFile);

async function kapiServer(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  if (!existsSync(main)) throw new Error(`${main} is missing: build @kapi/server first`);
  try {
    const { stdout, stderr } = await run(process.execPath, [main, ...args]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('kapi-server command line', () => {
  it('--help documents every flag and exits 0', async () => {
    const { code, stdout } = await kapiServer('--help');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^The Kapi API server/);
    for (const flag of [
      '--authorization-mode', '--bind-address', '--data-dir', '--feature-gates', '--help', '--insecure-port', '--secure-port',
      '--storage-backend', '--tls-cert-file', '--tls-private-key-file', '-v, --v', '--write-kubeconfig',
    ]) {
      expect(stdout).toContain(flag);
    }
  });

  it('a --root-ca-file that is missing or holds no certificate fails the start with kube-controller-manager\'s words, exit 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kapi-root-ca-'));
    const notPem = join(dir, 'key.pem');
    writeFileSync(notPem, '-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n');
    // It fails before listening: the port is never opened.
    const common = ['--data-dir', dir, '--secure-port', '0', '--insecure-port', '19999', '--storage-backend', 'memory'];
    const empty = await kapiServer(...common, `--root-ca-file=${notPem}`);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toBe(`Error: error parsing root-ca-file at ${notPem}: data does not contain any valid RSA or ECDSA certificates\n`);
    const missing = await kapiServer(...common, `--root-ca-file=${join(dir, 'nope.crt')}`);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`Error: error parsing root-ca-file at ${join(dir, 'nope.crt')}: open ${join(dir, 'nope.crt')}: no such file or directory\n`);
  });

  it('an --admission-control-config-file that cannot be read, or configures ResourceQuota wrongly, fails the start, exit 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kapi-admission-'));
    const common = ['--data-dir', dir, '--secure-port', '0', '--insecure-port', '19998', '--storage-backend', 'memory'];
    const missing = join(dir, 'nope.yaml');
    const gone = await kapiServer(...common, `--admission-control-config-file=${missing}`);
    expect([gone.code, gone.stderr]).toEqual([1, `Error: unable to read admission control configuration from "${missing}" [open ${missing}: no such file or directory]\n`]);
    const unnamed = join(dir, 'unnamed.yaml');
    writeFileSync(
      unnamed,
      'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: ResourceQuota\n  configuration:\n    apiVersion: apiserver.config.k8s.io/v1\n    kind: ResourceQuotaConfiguration\n    limitedResources:\n    - matchContains: [cpu]\n',
    );
    const bad = await kapiServer(...common, `--admission-control-config-file=${unnamed}`);
    expect([bad.code, bad.stderr]).toEqual([1, 'Error: failed to initialize admission: couldn\'t init admission plugin "ResourceQuota": limitedResources[0].resource: Required value\n']);
    const wrongKind = join(dir, 'policy.yaml');
    writeFileSync(wrongKind, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: []\n');
    const other = await kapiServer(...common, `--admission-control-config-file=${wrongKind}`);
    expect([other.code, other.stderr]).toEqual([1, `Error: no kind "Policy" is registered for version "audit.k8s.io/v1" in "${wrongKind}"\n`]);
  });

  it('an unknown flag prints the error and the usage, exit 1', async () => {
    const { code, stderr } = await kapiServer('--etcd-servers-overrides=/events#http://127.0.0.1:2379');
    expect(code).toBe(1);
    expect(stderr).toMatch(/^Error: unknown flag: --etcd-servers-overrides\n/);
    expect(stderr).toContain('Usage:\n  kapi-server [flags]');
  });

  it('a storage backend that does not exist is an error naming the ones that do, exit 1', async () => {
    const { code, stderr } = await kapiServer('--storage-backend=etcd2');
    expect(code).toBe(1);
    expect(stderr).toBe('Error: --storage-backend "etcd2" is not supported; available backends: sqlite, etcd3, memory\n');
  });

  it('--storage-backend=etcd3 without --etcd-servers is an error, exit 1', async () => {
    const { code, stderr } = await kapiServer('--storage-backend=etcd3');
    expect(code).toBe(1);
    expect(stderr).toBe('Error: --etcd-servers must be specified\n');
  });

  it('an unknown feature gate is an error, exit 1', async () => {
    const { code, stderr } = await kapiServer('--feature-gates=NoSuchGate=true');
    expect(code).toBe(1);
    expect(stderr).toMatch(/^Error: invalid argument "NoSuchGate=true" for "--feature-gates" flag: unrecognized feature gate: NoSuchGate/);
  });
});

// Until @kapi/apiserver is built with createApiServer, the process test is skipped (the pieces are tested apart).
const hasApiServer = await import('@kapi/apiserver').then(
  (m) => typeof (m as Record<string, unknown>).createApiServer === 'function',
  () => false,
);
const hasKubectl = (() => {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();


/** Starts the binary and resolves with its output once it has written the kubeconfig. */
async function startProcess(args: string[]): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, [main, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output = captureOutput(child);
  await waitForReady(child, () => output().includes('admin kubeconfig:'), { what: 'kapi-server', timeoutMs: 30_000, output });
  return { child, output };
}

/** SIGTERM, and the exit code. */
const stop = (child: ChildProcess): Promise<number | null> => signalAndWait(child, 'SIGTERM');

function getWithCa(url: string, ca: string, client?: { cert: string; key: string }): Promise<string> {
  return requestWithCa('GET', url, ca, undefined, {}, client);
}

function requestWithCa(
  method: string, url: string, ca: string, body?: unknown, headers: Record<string, string> = {}, client?: { cert: string; key: string },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ca, method, headers: body ? { 'content-type': 'application/json', ...headers } : headers, ...client }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve(text));
    }).on('error', reject);
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

/**
 * Runs the binary to its end (for one that fails at start). One that is still running after `limitMs` is killed, so
 * the test fails with its output and its `finally` blocks stop the servers it started, rather than leaving them.
 */
function runToExit(args: string[], limitMs = 30_000): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [main, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = captureOutput(child);
    const limit = setTimeout(() => child.kill('SIGKILL'), limitMs);
    // 'close': after the output streams end ('exit' may come before the last of it is read).
    child.once('close', (code) => {
      clearTimeout(limit);
      resolve({ code, output: output() });
    });
  });
}

describe.skipIf(!hasApiServer)('kapi-server process (needs @kapi/apiserver built)', () => {
  it('serves HTTPS with a generated CA, writes a kubeconfig for it, reuses the certificates, exits 0 on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kapi-cli-'));
    const port = await freePort();
    let created: { metadata: { resourceVersion: string; uid: string } } = { metadata: { resourceVersion: '', uid: '' } };
    let ca = '';
    let admin: { cert: string; key: string } | undefined;
    const first = await startProcess([`--secure-port=${port}`, `--data-dir=${dataDir}`]);
    const kubeconfigPath = join(dataDir, 'admin.kubeconfig');
    try {
      expect(first.output()).toContain(`generated self-signed CA ${join(dataDir, 'ca.crt')}`);
      expect(first.output()).toContain(`kapi-server listening on https://127.0.0.1:${port}\n`);
      expect(first.output()).toContain(`admin kubeconfig: ${kubeconfigPath} (export KUBECONFIG=${kubeconfigPath})`);
      expect(first.output()).toContain(`generated client CA ${join(dataDir, 'client-ca.crt')}`);
      const kubeconfig = parse(readFileSync(kubeconfigPath, 'utf8'));
      expect(kubeconfig.clusters[0].cluster.server).toBe(`https://127.0.0.1:${port}`);
      // The admin kubeconfig authenticates with the generated admin client certificate.
      expect(Buffer.from(kubeconfig.users[0].user['client-certificate-data'], 'base64').toString()).toBe(readFileSync(join(dataDir, 'admin.crt'), 'utf8'));
      expect(Buffer.from(kubeconfig.users[0].user['client-key-data'], 'base64').toString()).toBe(readFileSync(join(dataDir, 'admin.key'), 'utf8'));
      ca = Buffer.from(kubeconfig.clusters[0].cluster['certificate-authority-data'], 'base64').toString();
      expect(await getWithCa(`https://127.0.0.1:${port}/readyz`, ca)).toBe('ok');
      expect(first.output()).toContain(`storage: sqlite database ${join(dataDir, 'kapi.db')}`);
      const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kept' }, data: { a: '1' } };
      // RBAC by default: without credentials only discovery and health; the admin certificate may do anything.
      admin = { cert: readFileSync(join(dataDir, 'admin.crt'), 'utf8'), key: readFileSync(join(dataDir, 'admin.key'), 'utf8') };
      const url = `https://127.0.0.1:${port}/api/v1/namespaces/default/configmaps`;
      expect(JSON.parse(await requestWithCa('POST', url, ca, configMap))).toMatchObject({
        code: 403, message: 'configmaps is forbidden: User "system:anonymous" cannot create resource "configmaps" in API group "" in the namespace "default"',
      });
      expect(JSON.parse(await getWithCa(`https://127.0.0.1:${port}/version`, ca)).gitVersion).toMatch(/^v1\.33/);
      created = JSON.parse(await requestWithCa('POST', url, ca, configMap, {}, admin));
      expect(created.metadata.resourceVersion).toMatch(/^\d+$/);
      if (hasKubectl) {
        const cacheDir = mkdtempSync(join(tmpdir(), 'kapi-kubectl-'));
        const out = execFileSync('kubectl', ['--kubeconfig', kubeconfigPath, '--cache-dir', cacheDir, 'get', '--raw', '/readyz'], { encoding: 'utf8' });
        expect(out).toBe('ok');
        const who = JSON.parse(execFileSync('kubectl', ['--kubeconfig', kubeconfigPath, '--cache-dir', cacheDir, 'auth', 'whoami', '-o', 'json'], { encoding: 'utf8' }));
        expect(who.status.userInfo).toEqual({ username: 'kapi-admin', groups: ['system:masters', 'system:authenticated'] });
      }
    } finally {
      expect(await stop(first.child)).toBe(0);
    }

    const second = await startProcess([`--secure-port=${port}`, `--data-dir=${dataDir}`]);
    try {
      expect(second.output()).not.toContain('generated');
      // The default storage (sqlite in the data dir) kept the object, with its resourceVersion.
      const kept = JSON.parse(await getWithCa(`https://127.0.0.1:${port}/api/v1/namespaces/default/configmaps/kept`, ca, admin));
      expect(kept.metadata).toMatchObject({ resourceVersion: created.metadata.resourceVersion, uid: created.metadata.uid });
      // One server per data dir: a second one on the same database refuses to start.
      const rival = await runToExit([`--secure-port=${await freePort()}`, `--data-dir=${dataDir}`]);
      expect(rival.code).toBe(1);
      expect(rival.output).toContain(`Error: the database ${join(dataDir, 'kapi.db')} is in use by another process`);
    } finally {
      expect(await stop(second.child)).toBe(0);
    }
  }, 60_000);
});

describe.skipIf(!hasApiServer)('kapi-server data directory', () => {
  it('is made private at start: an existing 0755 directory and 0644 files become 0700 and 0600, the database too', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kapi-perm-'));
    chmodSync(dataDir, 0o755);
    writeFileSync(join(dataDir, 'leftover.txt'), 'x', { mode: 0o644 });
    chmodSync(join(dataDir, 'leftover.txt'), 0o644);
    mkdirSync(join(dataDir, 'sub'), { mode: 0o755 });
    writeFileSync(join(dataDir, 'sub', 'nested.key'), 'k', { mode: 0o644 });
    chmodSync(join(dataDir, 'sub', 'nested.key'), 0o644);
    const port = await freePort();
    const server = await startProcess([`--secure-port=${port}`, `--data-dir=${dataDir}`]);
    try {
      const mode = (p: string) => statSync(join(dataDir, p)).mode & 0o777;
      expect(mode('.')).toBe(0o700);
      expect(mode('sub')).toBe(0o700);
      for (const file of ['leftover.txt', 'sub/nested.key', 'kapi.db', 'ca.key', 'apiserver.key', 'admin.key', 'admin.kubeconfig']) {
        expect([file, mode(file)]).toEqual([file, 0o600]);
      }
      // Files SQLite makes beside the database take its mode.
      for (const file of readdirSync(dataDir).filter((f) => f.startsWith('kapi.db-'))) expect([file, mode(file)]).toEqual([file, 0o600]);
    } finally {
      expect(await stop(server.child)).toBe(0);
    }
  }, 60_000);
});

describe.skipIf(!hasApiServer)('kapi-server process with authentication and RBAC (needs @kapi/apiserver built)', () => {
  it('--authorization-mode=RBAC --anonymous-auth=false --token-auth-file: kubectl as admin and as a token user', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kapi-cli-auth-'));
    const tokens = join(dataDir, 'tokens.csv');
    writeFileSync(tokens, 'jane-token,jane,uid-jane,"dev,qa"\n');
    const port = await freePort();
    const server = await startProcess([
      `--secure-port=${port}`, `--data-dir=${dataDir}`, '--storage-backend=memory',
      '--authorization-mode=RBAC', '--anonymous-auth=false', `--token-auth-file=${tokens}`,
    ]);
    const kubeconfigPath = join(dataDir, 'admin.kubeconfig');
    try {
      const ca = readFileSync(join(dataDir, 'ca.crt'), 'utf8');
      const anonymous = JSON.parse(await getWithCa(`https://127.0.0.1:${port}/api/v1/namespaces`, ca));
      expect(anonymous).toMatchObject({ kind: 'Status', code: 401, reason: 'Unauthorized', message: 'Unauthorized' });
      const jane = JSON.parse(await requestWithCa('GET', `https://127.0.0.1:${port}/api/v1/namespaces/default/pods`, ca, undefined, { authorization: 'Bearer jane-token' }));
      expect(jane).toMatchObject({ kind: 'Status', code: 403, message: 'pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"' });
      if (hasKubectl) {
        const kubectl = (...args: string[]) =>
          execFileSync('kubectl', ['--kubeconfig', kubeconfigPath, '--cache-dir', mkdtempSync(join(tmpdir(), 'kapi-kubectl-')), ...args], { encoding: 'utf8' });
        expect(JSON.parse(kubectl('auth', 'whoami', '-o', 'json')).status.userInfo.username).toBe('kapi-admin');
        expect(kubectl('auth', 'can-i', 'create', 'pods')).toBe('yes\n');
        expect(kubectl('auth', 'can-i', '--list')).toMatch(/^\*\.\*\s+\[\]\s+\[\]\s+\[\*\]$/m);
        // jane's own kubeconfig: the admin one's cluster, a token user (kubectl would send the admin certificate too).
        const janeConfig = join(dataDir, 'jane.kubeconfig');
        const admin = parse(readFileSync(kubeconfigPath, 'utf8'));
        admin.users = [{ name: 'jane', user: { token: 'jane-token' } }];
        admin.contexts[0].context.user = 'jane';
        writeFileSync(janeConfig, JSON.stringify(admin));
        const asJane = (...args: string[]) => {
          try {
            return execFileSync('kubectl', ['--kubeconfig', janeConfig, '--cache-dir', mkdtempSync(join(tmpdir(), 'kapi-kubectl-')), ...args], { encoding: 'utf8' });
          } catch (error) {
            return (error as { stdout: string }).stdout;
          }
        };
        expect(JSON.parse(asJane('auth', 'whoami', '-o', 'json')).status.userInfo).toEqual({ username: 'jane', uid: 'uid-jane', groups: ['dev', 'qa', 'system:authenticated'] });
        expect(asJane('auth', 'can-i', 'list', 'pods')).toBe('no\n');
        expect(asJane('auth', 'can-i', '--list')).toMatch(/selfsubjectaccessreviews\.authorization\.k8s\.io/);
      }
    } finally {
      expect(await stop(server.child)).toBe(0);
    }
  }, 60_000);

  it('--default-not-ready-toleration-seconds and --default-unreachable-toleration-seconds: the tolerations pods get', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kapi-cli-tolerations-'));
    const port = await freePort();
    const server = await startProcess([
      `--secure-port=${port}`, `--data-dir=${dataDir}`, '--storage-backend=memory',
      '--default-not-ready-toleration-seconds=60', '--default-unreachable-toleration-seconds=120',
    ]);
    try {
      const ca = readFileSync(join(dataDir, 'ca.crt'), 'utf8');
      const admin = { cert: readFileSync(join(dataDir, 'admin.crt'), 'utf8'), key: readFileSync(join(dataDir, 'admin.key'), 'utf8') };
      const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
      const created = JSON.parse(await requestWithCa('POST', `https://127.0.0.1:${port}/api/v1/namespaces/default/pods`, ca, pod, {}, admin));
      expect(created.spec.tolerations).toEqual([
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 120 },
      ]);
    } finally {
      expect(await stop(server.child)).toBe(0);
    }
  }, 60_000);
});
