import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlBinaries, kubectlOk, kubectlRunner, type KubectlResult } from '../src/kubectl.js';
import { startServerProcess, type ServerProcess } from '../src/server.js';

const kubectl = kubectlBinaries()[0];

/** Whether nothing listens on a loopback port (the scheduler's and controller-manager's, on a machine without them). */
const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });
const noControlPlane = (await refused(10259)) && (await refused(10257));

const DEPRECATED = 'Warning: v1 ComponentStatus is deprecated in v1.19+';
const down = (port: number) => `Get "https://127.0.0.1:${port}/healthz": dial tcp 127.0.0.1:${port}: connect: connection refused`;

// kubectl get componentstatuses (`cs`) against kapi-server with its default SQLite storage, on a machine with no
// scheduler or controller-manager: they show as kube shows them when absent, and the storage backend as etcd-0.
describe.skipIf(!kubectl || !noControlPlane)('kubectl get componentstatuses', { timeout: 60_000 }, () => {
  let server: ServerProcess;
  let run: (...args: string[]) => KubectlResult;
  beforeAll(async () => {
    server = await startServerProcess();
    run = kubectlRunner(kubectl!.path, server.kubeconfig);
  }, 60_000);
  afterAll(async () => server?.stop());

  it('prints NAME STATUS MESSAGE ERROR: the absent scheduler and controller-manager Unhealthy, etcd-0 Healthy', () => {
    const res = run('get', 'cs');
    expect(res.status).toBe(0);
    expect(res.stderr.trim()).toBe(DEPRECATED);
    const lines = res.stdout.trimEnd().split('\n');
    expect(lines.map((line) => line.trimEnd().split(/ {2,}/))).toEqual([
      ['NAME', 'STATUS', 'MESSAGE', 'ERROR'],
      ['scheduler', 'Unhealthy', down(10259)],
      ['controller-manager', 'Unhealthy', down(10257)],
      ['etcd-0', 'Healthy', 'ok'],
    ]);
  });

  it('gets one by name as JSON, and answers kube\'s Component not found for another', () => {
    const etcd = JSON.parse(kubectlOk(run, 'get', 'componentstatus', 'etcd-0', '-o', 'json'));
    expect(etcd).toEqual({ apiVersion: 'v1', kind: 'ComponentStatus', metadata: { name: 'etcd-0' }, conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }] });
    const scheduler = JSON.parse(kubectlOk(run, 'get', 'cs', 'scheduler', '-o', 'json'));
    expect(scheduler.conditions).toEqual([{ type: 'Healthy', status: 'False', message: down(10259) }]);
    const missing = run('get', 'cs', 'kubelet');
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('Error from server: Component not found: kubelet');
  });

  it('filters with --field-selector and -l', () => {
    expect(kubectlOk(run, 'get', 'cs', '--field-selector', 'metadata.name=etcd-0', '--no-headers').trimEnd().split(/ {2,}/)).toEqual(['etcd-0', 'Healthy', 'ok']);
    const labelled = run('get', 'cs', '-l', 'component=etcd');
    expect([labelled.status, labelled.stdout]).toEqual([0, '']);
    expect(labelled.stderr).toContain('No resources found');
  });
});
