import { execFileSync, spawnSync } from 'node:child_process';
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
