import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** The kubectl binaries to test with: the one on PATH, and the versioned ones installed beside its real binary. */
export function kubectlBinaries(versions: string[] = ['1.32', '1.33']): { name: string; path: string }[] {
  let onPath: string;
  try {
    onPath = execFileSync('sh', ['-c', 'command -v kubectl'], { encoding: 'utf8' }).trim();
  } catch {
    return [];
  }
  if (!onPath) return [];
  const dir = dirname(realpathSync(onPath));
  const found = [{ name: 'kubectl', path: onPath }];
  for (const v of versions) {
    const path = join(dir, `kubectl.${v}`);
    if (existsSync(path)) found.push({ name: `kubectl.${v}`, path });
  }
  return found;
}

export interface KubectlResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs one kubectl with its own discovery cache directory against a kubeconfig. */
export function kubectlRunner(path: string, kubeconfig: string) {
  const cacheDir = mkdtempSync(join(tmpdir(), 'kapi-kubectl-cache-'));
  return (...args: string[]): KubectlResult => {
    const res = spawnSync(path, ['--kubeconfig', kubeconfig, '--cache-dir', cacheDir, ...args], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    return { status: res.status ?? -1, stdout: res.stdout, stderr: res.stderr };
  };
}

/** Runs kubectl through `run` and returns its stdout; a non-zero exit throws with the command and its stderr. */
export function kubectlOk(run: (...args: string[]) => KubectlResult, ...args: string[]): string {
  const res = run(...args);
  if (res.status !== 0) throw new Error(`kubectl ${args.join(' ')} exited ${res.status}: ${res.stderr}`);
  return res.stdout;
}

/**
 * Runs a command without blocking this process (unlike kubectlRunner), so servers in this process (a test webhook)
 * can answer meanwhile; resolves with its exit status and output.
 */
export function runAsync(cmd: string, args: string[]): Promise<KubectlResult> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (status) => resolve({ status: status ?? -1, stdout, stderr }));
  });
}

/** kubectl against a server, run asynchronously; `ok` throws with kubectl's stderr when it fails. */
export function kubectlOf(server: () => { kubeconfig: string }) {
  const kubectl = (bin: string, ...args: string[]) => runAsync(bin, ['--kubeconfig', server().kubeconfig, ...args]);
  const ok = async (bin: string, ...args: string[]) => {
    const res = await kubectl(bin, ...args);
    if (res.status !== 0) throw new Error(`kubectl ${args.join(' ')}: ${res.stderr}`);
    return res.stdout;
  };
  return { kubectl, ok };
}
