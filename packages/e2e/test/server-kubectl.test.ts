import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from '../src/server.js';

const hasKubectl = (() => {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!hasKubectl)('kubectl against kapi-server', () => {
  let server: ServerProcess;
  const cacheDir = mkdtempSync(join(tmpdir(), 'kapi-kubectl-'));
  const kubectl = (...args: string[]) =>
    execFileSync('kubectl', ['--server', server.url, '--cache-dir', cacheDir, ...args], { encoding: 'utf8' });

  beforeAll(async () => {
    server = await startServerProcess();
  });
  afterAll(async () => server?.stop());

  it('reads the health endpoints', () => {
    expect(kubectl('get', '--raw', '/readyz')).toBe('ok');
    expect(kubectl('get', '--raw', '/livez')).toBe('ok');
  });

  it('reports the server version', () => {
    expect(kubectl('version', '-o', 'json')).toContain('"gitVersion": "v1.33.0-kapi');
  });
});
