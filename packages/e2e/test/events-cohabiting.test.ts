// core/v1 Events and events.k8s.io/v1 Events are one stored object, as in kube (cohabiting resources), through
// kubectl against the sample server: created through one group, listed, read, watched and deleted through the other.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlBinaries, kubectlOk, kubectlRunner, type KubectlResult } from '../src/kubectl.js';
import { manifestWriter } from '../src/manifests.js';
import { startServerProcess, type ServerProcess } from '../src/server.js';

const binaries = kubectlBinaries();
const kubectl = binaries[binaries.length - 1];
const manifest = manifestWriter('kapi-events-');

const coreEvent = (name: string) =>
  manifest(`apiVersion: v1
kind: Event
metadata:
  name: ${name}
involvedObject:
  kind: Pod
  name: web-1
  namespace: evs
  apiVersion: v1
reason: Started
message: Started container app
source:
  component: kubelet
  host: node-1
firstTimestamp: "2024-01-01T00:00:00Z"
lastTimestamp: "2024-01-01T00:05:00Z"
count: 3
type: Normal
reportingComponent: kubelet
reportingInstance: node-1
`);

const eventsEvent = (name: string) =>
  manifest(`apiVersion: events.k8s.io/v1
kind: Event
metadata:
  name: ${name}
eventTime: "2024-01-02T00:00:00.000000Z"
reportingController: example.com/controller
reportingInstance: controller-0
action: Reconcile
reason: Synced
regarding:
  kind: Deployment
  name: web
  namespace: evs
  apiVersion: apps/v1
note: Synced the deployment
type: Normal
`);

describe.skipIf(!kubectl)('core and events.k8s.io Events are one stored object, with kubectl', { timeout: 120_000 }, () => {
  let server: ServerProcess;
  let run: (...args: string[]) => KubectlResult;
  let ok: (...args: string[]) => string;
  beforeAll(async () => {
    server = await startServerProcess();
    run = kubectlRunner(kubectl!.path, server.kubeconfig);
    ok = (...args) => kubectlOk(run, ...args);
    ok('create', 'namespace', 'evs');
  }, 60_000);
  afterAll(async () => server?.stop());

  it('kubectl create through core v1; kubectl get events.v1.events.k8s.io shows regarding and note', () => {
    ok('create', '-n', 'evs', '-f', coreEvent('from-core'));
    const got = JSON.parse(ok('get', '-n', 'evs', 'events.v1.events.k8s.io', 'from-core', '-o', 'json'));
    expect(got).toMatchObject({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      regarding: { kind: 'Pod', name: 'web-1', namespace: 'evs', apiVersion: 'v1' },
      note: 'Started container app',
      reason: 'Started',
      type: 'Normal',
      reportingController: 'kubelet',
      reportingInstance: 'node-1',
      deprecatedSource: { component: 'kubelet', host: 'node-1' },
      deprecatedFirstTimestamp: '2024-01-01T00:00:00Z',
      deprecatedLastTimestamp: '2024-01-01T00:05:00Z',
      deprecatedCount: 3,
    });
    expect(got.message).toBeUndefined();
    expect(got.involvedObject).toBeUndefined();
    const list = JSON.parse(ok('get', '-n', 'evs', 'events.v1.events.k8s.io', '-o', 'json'));
    expect(list.items.map((e: { metadata: { name: string } }) => e.metadata.name)).toContain('from-core');
    // the table of events.k8s.io Events
    expect(ok('get', '-n', 'evs', 'events.v1.events.k8s.io', 'from-core')).toMatch(/Normal\s+Started\s+pod\/web-1\s+Started container app/);
  });

  it('kubectl get events (core) lists an Event created through events.k8s.io', () => {
    ok('create', '-n', 'evs', '-f', eventsEvent('from-events'));
    const list = JSON.parse(ok('get', '-n', 'evs', 'events', '-o', 'json'));
    expect(list.apiVersion).toBe('v1');
    const got = list.items.find((e: { metadata: { name: string } }) => e.metadata.name === 'from-events');
    expect(got).toMatchObject({
      apiVersion: 'v1',
      involvedObject: { kind: 'Deployment', name: 'web', namespace: 'evs', apiVersion: 'apps/v1' },
      message: 'Synced the deployment',
      reason: 'Synced',
      action: 'Reconcile',
      reportingComponent: 'example.com/controller',
      reportingInstance: 'controller-0',
      eventTime: '2024-01-02T00:00:00.000000Z',
    });
    expect(got.note).toBeUndefined();
    expect(ok('get', '-n', 'evs', 'events', '--no-headers')).toMatch(/Normal\s+Synced\s+deployment\/web\s+Synced the deployment/);
  });

  it('field selectors: regarding.name through events.k8s.io, involvedObject.name through core', () => {
    expect(ok('get', '-n', 'evs', 'events.v1.events.k8s.io', '--field-selector', 'regarding.name=web', '-o', 'name').trim()).toBe('event.events.k8s.io/from-events');
    expect(ok('get', '-n', 'evs', 'events', '--field-selector', 'involvedObject.name=web-1', '-o', 'name').trim()).toBe('event/from-core');
  });

  it('a kubectl watch through events.k8s.io sees writes made through core, and deletes go through both', async () => {
    const child = spawn(kubectl!.path, ['--kubeconfig', server.kubeconfig, 'get', '-n', 'evs', 'events.v1.events.k8s.io', '--watch', '--output-watch-events', '-o', 'json']);
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const seen = () => out.split(/\n(?=\{)/).filter((s) => s.trim()).map((s) => JSON.parse(s) as { type: string; object: { apiVersion: string; note: string; metadata: { name: string } } });
    const until = async (done: () => boolean) => {
      while (!done()) {
        if (child.exitCode !== null) throw new Error(`kubectl watch ended: ${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    try {
      // the watch is open once the current state (the two Events) has arrived
      await until(() => seen().length >= 2);
      ok('patch', '-n', 'evs', 'events', 'from-core', '--type=merge', '-p', '{"message":"Restarted"}');
      ok('delete', '-n', 'evs', 'events.v1.events.k8s.io', 'from-core');
      await until(() => seen().some((e) => e.type === 'DELETED'));
      expect(seen().map((e) => [e.type, e.object.metadata.name, e.object.apiVersion, e.object.note])).toEqual([
        ['ADDED', 'from-core', 'events.k8s.io/v1', 'Started container app'],
        ['ADDED', 'from-events', 'events.k8s.io/v1', 'Synced the deployment'],
        ['MODIFIED', 'from-core', 'events.k8s.io/v1', 'Restarted'],
        ['DELETED', 'from-core', 'events.k8s.io/v1', 'Restarted'],
      ]);
    } finally {
      child.kill();
    }
    expect(run('get', '-n', 'evs', 'events', 'from-core').stderr).toContain('NotFound');
    ok('delete', '-n', 'evs', 'events', 'from-events');
    expect(run('get', '-n', 'evs', 'events.v1.events.k8s.io', 'from-events').stderr).toContain('NotFound');
  });
});
