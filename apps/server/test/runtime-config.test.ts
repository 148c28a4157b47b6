import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createKapiApiServer } from '../src/apiserver.js';
import { parseFlags } from '../src/flags.js';
import { writeKubeconfig } from '@kapi/serve';
import { startServer, type RunningServer } from '@kapi/serve';

// --runtime-config through the real server: what is turned off is neither served nor discovered.

const hasKubectl = (() => {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const running: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(running.map((r) => r.close()));
});

async function start(...flags: string[]): Promise<string> {
  const parsed = parseFlags(['--storage-backend=memory', '--secure-port=0', '--insecure-port=1', '--authorization-mode=AlwaysAllow', ...flags]);
  if (parsed.help) throw new Error('help');
  const server = await startServer({
    apiServer: await createKapiApiServer(parsed.config, () => {}),
    bindAddress: '127.0.0.1',
    securePort: 0,
    insecurePort: 'ephemeral',
  });
  running.push(server);
  return server.url;
}

const status = async (url: string, path: string) => (await fetch(`${url}${path}`)).status;
const json = async (url: string, path: string): Promise<any> => (await fetch(`${url}${path}`)).json();

async function apiResources(url: string): Promise<string[]> {
  const kubeconfig = join(mkdtempSync(join(tmpdir(), 'kapi-runtime-config-')), 'kubeconfig');
  await writeKubeconfig(kubeconfig, { server: url });
  const cacheDir = mkdtempSync(join(tmpdir(), 'kapi-kubectl-'));
  // Not execFileSync: the server answering kubectl runs in this process.
  const { stdout } = await promisify(execFile)('kubectl', ['--kubeconfig', kubeconfig, '--cache-dir', cacheDir, 'api-resources', '-o', 'name'], { encoding: 'utf8' });
  return stdout.trim().split('\n');
}

describe('--runtime-config', () => {
  it('wardle.example.com/v1alpha1=false: that version is gone, v1beta1 (the storage version) still serves flunders', async () => {
    const url = await start('--runtime-config=wardle.example.com/v1alpha1=false');
    expect(await status(url, '/apis/wardle.example.com/v1alpha1')).toBe(404);
    expect(await status(url, '/apis/wardle.example.com/v1alpha1/namespaces/default/flunders')).toBe(404);
    expect((await json(url, '/apis/wardle.example.com')).versions).toEqual([{ groupVersion: 'wardle.example.com/v1beta1', version: 'v1beta1' }]);
    const created = await fetch(`${url}/apis/wardle.example.com/v1beta1/namespaces/default/flunders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'wardle.example.com/v1beta1', kind: 'Flunder', metadata: { name: 'f' } }),
    });
    expect(created.status).toBe(201);
    expect(await status(url, '/apis/wardle.example.com/v1beta1/namespaces/default/flunders/f')).toBe(200);
    if (hasKubectl) {
      const names = await apiResources(url);
      expect(names).toContain('flunders.wardle.example.com');
      expect(names).not.toContain('fischers.wardle.example.com');
    }
  });

  it('wardle.example.com/v1beta1=false: the storage version is not served, flunders are still stored in it through v1alpha1', async () => {
    const url = await start('--runtime-config=wardle.example.com/v1beta1=false');
    expect(await status(url, '/apis/wardle.example.com/v1beta1')).toBe(404);
    const created = await fetch(`${url}/apis/wardle.example.com/v1alpha1/namespaces/default/flunders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'f' }, spec: { reference: 'x' } }),
    });
    expect(created.status).toBe(201);
    const read = await json(url, '/apis/wardle.example.com/v1alpha1/namespaces/default/flunders/f');
    expect(read).toMatchObject({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', spec: { reference: 'x' } });
  });

  it('every wardle version off: the group is not served nor discovered', async () => {
    const url = await start('--runtime-config=wardle.example.com/v1alpha1=false,wardle.example.com/v1beta1=false');
    expect(await status(url, '/apis/wardle.example.com')).toBe(404);
    expect(await status(url, '/apis/wardle.example.com/v1beta1/namespaces/default/flunders')).toBe(404);
    const groups = ((await json(url, '/apis')) as { groups: { name: string }[] }).groups.map((g) => g.name);
    expect(groups).not.toContain('wardle.example.com');
    expect(groups).toContain('apps');
    if (hasKubectl) {
      const names = await apiResources(url);
      expect(names.filter((n) => n.endsWith('.wardle.example.com'))).toEqual([]);
      expect(names).toContain('deployments.apps');
    }
  });

  it('api/all=false with a few versions back on serves only those', async () => {
    const url = await start('--runtime-config=api/all=false,v1=true,apps/v1=true,flowcontrol.apiserver.k8s.io/v1=true');
    const groups = ((await json(url, '/apis')) as { groups: { name: string }[] }).groups.map((g) => g.name).sort();
    expect(groups).toEqual(['apps', 'flowcontrol.apiserver.k8s.io']);
    expect(await status(url, '/api/v1/namespaces')).toBe(200);
    expect(await status(url, '/apis/batch/v1')).toBe(404);
  });

  it("a group or version the server does not have fails the start with kube's message", async () => {
    await expect(start('--runtime-config=example.com/v1=false')).rejects.toThrow('unknown api groups example.com/v1');
    await expect(start('--runtime-config=apps/v2=true')).rejects.toThrow('group version apps/v2 that has not been registered');
  });
});
