import { describe, expect, it } from 'vitest';
import { defaultTableColumns, humanDuration, NAME_COLUMN_DESCRIPTION, type KubeObject, type ResourceInfo } from '@kapi/apimachinery';
import { group as apps, plugin as appsPlugin } from '@kapi/api-apps';
import { group as core, plugin as corePlugin } from '@kapi/api-core';
import { group as rbac, plugin as rbacPlugin } from '@kapi/api-rbac';
import { group as wardle } from '@kapi/api-wardle';
import type { GroupPlugin } from '../plugin.js';
import { buildTable, columnCell, tableColumns } from './table.js';

const NOW = Date.parse('2024-05-01T12:00:00Z');
const info = (defs: { resources: ResourceInfo[] }, kind: string) => defs.resources.find((r) => r.kind === kind)!;
/** The printer the group's plugin gives a kind. */
const printer = (plugin: GroupPlugin, kind: string) => plugin.printers?.[kind];
const meta = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  namespace: 'default',
  uid: `uid-${name}`,
  resourceVersion: '7',
  creationTimestamp: '2024-05-01T11:55:00Z',
  ...extra,
});

describe('ConfigMap', () => {
  const cm: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta('settings'), data: { a: '1', b: '2' }, binaryData: { c: 'AA==' } };
  const table = buildTable(info(core, 'ConfigMap'), [cm], { printer: printer(corePlugin, 'ConfigMap'), now: NOW, listMeta: { resourceVersion: '42' } });

  it('has the columns Name, Data and Age', () => {
    expect(table.kind).toBe('Table');
    expect(table.apiVersion).toBe('meta.k8s.io/v1');
    expect(table.metadata).toEqual({ resourceVersion: '42' });
    expect(table.columnDefinitions.map((c) => [c.name, c.type, c.format, c.priority])).toEqual([
      ['Name', 'string', 'name', 0],
      ['Data', 'integer', '', 0],
      ['Age', 'date', '', 0],
    ]);
    expect(table.columnDefinitions[0].description).toBe(NAME_COLUMN_DESCRIPTION);
    expect(table.columnDefinitions[0].description.startsWith('Name must be unique within a namespace.')).toBe(true);
  });

  it('counts the keys of data and binaryData, and shows the age as kube does', () => {
    expect(table.rows[0].cells).toEqual(['settings', 3, '5m']);
    expect(table.rows[0]).not.toHaveProperty('conditions');
  });
});

describe('Pod', () => {
  const podInfo = info(core, 'Pod');
  const pod = (status: Record<string, unknown>, extra: Record<string, unknown> = {}): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: meta('web', extra),
    spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'nginx' }, { name: 'sidecar', image: 'envoy' }] },
    status,
  });
  const cells = (p: KubeObject) => {
    const names = tableColumns(podInfo).map((c) => c.name);
    const row = buildTable(podInfo, [p], { printer: printer(corePlugin, 'Pod'), now: NOW }).rows[0].cells;
    return Object.fromEntries(names.map((n, i) => [n, row[i]]));
  };

  it('shows READY 1/2 when one of two containers is ready', () => {
    const p = pod({
      phase: 'Pending',
      podIPs: [{ ip: '10.0.0.5' }],
      containerStatuses: [
        { name: 'app', ready: true, restartCount: 0, state: { running: { startedAt: '2024-05-01T11:56:00Z' } } },
        { name: 'sidecar', ready: false, restartCount: 0, state: { waiting: { reason: 'ContainerCreating' } } },
      ],
    });
    expect(cells(p)).toEqual({
      Name: 'web',
      Ready: '1/2',
      Status: 'ContainerCreating',
      Restarts: '0',
      Age: '5m',
      IP: '10.0.0.5',
      Node: 'node-1',
      'Nominated Node': '<none>',
      'Readiness Gates': '<none>',
    });
  });

  it('shows Running, restarts with the last restart age, and Terminating', () => {
    const running = pod({
      phase: 'Running',
      containerStatuses: [
        { name: 'app', ready: true, restartCount: 2, state: { running: {} }, lastState: { terminated: { exitCode: 1, finishedAt: '2024-05-01T11:58:00Z' } } },
        { name: 'sidecar', ready: true, restartCount: 1, state: { running: {} } },
      ],
    });
    expect(cells(running)).toMatchObject({ Ready: '2/2', Status: 'Running', Restarts: '3 (2m ago)' });
    expect(cells({ ...running, metadata: meta('web', { deletionTimestamp: '2024-05-01T11:59:00Z' }) }).Status).toBe('Terminating');
    const initializing = pod({ phase: 'Pending', initContainerStatuses: [{ name: 'init', state: { waiting: { reason: 'PodInitializing' } } }] });
    (initializing.spec as Record<string, unknown>).initContainers = [{ name: 'init', image: 'busybox' }];
    expect(cells(initializing)).toMatchObject({ Ready: '0/2', Status: 'Init:0/1' });
  });

  it('marks finished pods with the Completed row condition', () => {
    const table = buildTable(podInfo, [pod({ phase: 'Succeeded' })], { printer: printer(corePlugin, 'Pod'), now: NOW });
    expect(table.rows[0].conditions).toEqual([{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }]);
  });
});

describe('built-in printers', () => {
  it('Deployment: READY ready/desired and comma-joined containers', () => {
    const d: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: meta('web'),
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['b', 'a'] }] },
        template: { spec: { containers: [{ name: 'app', image: 'nginx' }, { name: 'log', image: 'fluent' }] } },
      },
      status: { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 },
    };
    expect(buildTable(info(apps, 'Deployment'), [d], { printer: printer(appsPlugin, 'Deployment'), now: NOW }).rows[0].cells).toEqual([
      'web',
      '2/3',
      3,
      2,
      '5m',
      'app,log',
      'nginx,fluent',
      'app=web,tier in (a,b)',
    ]);
  });

  it('Service: ports as port/protocol and the external IP by type', () => {
    const svc: KubeObject = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: meta('web'),
      spec: {
        type: 'NodePort',
        clusterIP: '10.96.0.10',
        clusterIPs: ['10.96.0.10'],
        ports: [{ port: 80, protocol: 'TCP' }, { port: 443, nodePort: 30443, protocol: 'TCP' }, { port: 53, protocol: 'UDP' }],
        selector: { b: '2', a: '1' },
      },
    };
    expect(buildTable(info(core, 'Service'), [svc], { printer: printer(corePlugin, 'Service'), now: NOW }).rows[0].cells).toEqual([
      'web',
      'NodePort',
      '10.96.0.10',
      '<none>',
      '80/TCP,443:30443/TCP,53/UDP',
      '5m',
      'a=1,b=2',
    ]);
  });

  it('Node: Ready status, roles and addresses', () => {
    const n: KubeObject = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n1', creationTimestamp: '2024-04-01T12:00:00Z', labels: { 'node-role.kubernetes.io/control-plane': '', 'kubernetes.io/role': 'edge' } },
      spec: { unschedulable: true },
      status: {
        conditions: [{ type: 'MemoryPressure', status: 'False' }, { type: 'Ready', status: 'True' }],
        addresses: [{ type: 'InternalIP', address: '192.168.1.2' }],
        nodeInfo: { kubeletVersion: 'v1.33.0', osImage: 'Debian' },
      },
    };
    expect(buildTable(info(core, 'Node'), [n], { printer: printer(corePlugin, 'Node'), now: NOW }).rows[0].cells).toEqual([
      'n1',
      'Ready,SchedulingDisabled',
      'control-plane,edge',
      '30d',
      'v1.33.0',
      '192.168.1.2',
      '<none>',
      'Debian',
      '<unknown>',
      '<unknown>',
    ]);
  });

  it('RoleBinding: role kind/name and subjects', () => {
    const rb: KubeObject = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: meta('rb'),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [
        { kind: 'User', name: 'alice' },
        { kind: 'User', name: 'bob' },
        { kind: 'ServiceAccount', name: 'default', namespace: 'ns1' },
      ],
    };
    expect(buildTable(info(rbac, 'RoleBinding'), [rb], { printer: printer(rbacPlugin, 'RoleBinding'), now: NOW }).rows[0].cells).toEqual(['rb', 'ClusterRole/view', '5m', 'alice, bob', '', 'ns1/default']);
  });
});

describe('Flunder (no printer columns)', () => {
  const flunder: KubeObject = { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: meta('f1') };

  it('has exactly the default Name and Created At columns', () => {
    const table = buildTable(info(wardle, 'Flunder'), [flunder], { now: NOW });
    expect(table.columnDefinitions).toEqual(defaultTableColumns());
    expect(table.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'Created At']);
    expect(table.rows[0].cells).toEqual(['f1', '2024-05-01T11:55:00Z']);
  });
});

describe('includeObject and headers', () => {
  const cmInfo = info(core, 'ConfigMap');
  const cm: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta('c'), data: { k: 'v' } };

  it('defaults to PartialObjectMetadata rows', () => {
    expect(buildTable(cmInfo, [cm], { now: NOW }).rows[0].object).toEqual({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: cm.metadata,
    });
    expect(buildTable(cmInfo, [cm], { now: NOW, includeObject: 'Metadata' }).rows[0].object).toMatchObject({ kind: 'PartialObjectMetadata' });
  });

  it('carries the whole object for Object and null for None', () => {
    expect(buildTable(cmInfo, [cm], { now: NOW, includeObject: 'Object' }).rows[0].object).toEqual(cm);
    expect(buildTable(cmInfo, [cm], { now: NOW, includeObject: 'None' }).rows[0].object).toBeNull();
  });

  it('omits column definitions with noHeaders and keeps list metadata', () => {
    const table = buildTable(cmInfo, [cm, cm], { now: NOW, noHeaders: true, listMeta: { resourceVersion: '9', continue: 'tok', remainingItemCount: 4 } });
    expect(table.columnDefinitions).toEqual([]);
    expect(table.rows).toHaveLength(2);
    expect(table.metadata).toEqual({ resourceVersion: '9', continue: 'tok', remainingItemCount: 4 });
    expect(buildTable(cmInfo, [], { now: NOW }).rows).toEqual([]);
  });
});

describe('CRD column rules', () => {
  const obj: KubeObject = {
    metadata: { name: 'x', creationTimestamp: '2024-05-01T11:59:30Z' },
    spec: { replicas: 2.7, ratio: 0.5, enabled: true, tags: ['a', 'b'], selector: { z: '1', a: '<&>' }, when: 'yesterday', empty: null, big: 1500000.5 },
    items: [{ n: 'first' }, { n: 'second' }],
  };
  const cell = (jsonPath: string, type: 'string' | 'integer' | 'number' | 'boolean' | 'date') => columnCell({ name: 'c', type, jsonPath }, obj, NOW);

  it('takes the first match and prints lists and maps as Go JSON', () => {
    expect(cell('.items[*].n', 'string')).toBe('first');
    expect(cell('.spec.tags', 'string')).toBe('["a","b"]');
    expect(cell('.spec.selector', 'string')).toBe('{"a":"\\u003c\\u0026\\u003e","z":"1"}');
    expect(cell('.spec.enabled', 'string')).toBe('true');
    expect(cell('.spec.replicas', 'string')).toBe('2.7');
    expect(cell('.spec.big', 'string')).toBe('1.5000005e+06');
    expect(cell('.spec.empty', 'string')).toBe('<no value>');
  });

  it('converts typed columns and leaves mismatches and missing values null', () => {
    expect(cell('.spec.replicas', 'integer')).toBe(2);
    expect(cell('.spec.ratio', 'number')).toBe(0.5);
    expect(cell('.spec.enabled', 'boolean')).toBe(true);
    expect(cell('.spec.tags', 'integer')).toBeNull();
    expect(cell('.spec.missing', 'string')).toBeNull();
    expect(cell('.spec[', 'string')).toBeNull();
  });

  it('shows dates as ages', () => {
    expect(cell('.metadata.creationTimestamp', 'date')).toBe('30s');
    expect(cell('.spec.when', 'date')).toBe('<invalid>');
    expect(cell('.spec.replicas', 'date')).toBeNull();
  });

  it('uses the CRD default description for a column without one', () => {
    const columns = tableColumns({ ...info(wardle, 'Flunder'), printerColumns: [{ name: 'Ref', type: 'string', jsonPath: '.spec.reference' }] });
    expect(columns[1]).toEqual({
      name: 'Ref',
      type: 'string',
      format: '',
      description: 'Custom resource definition column (in JSONPath format): .spec.reference',
      priority: 0,
    });
  });
});

describe('humanDuration', () => {
  it('rounds like kube', () => {
    const s = 1000;
    const m = 60 * s;
    const h = 60 * m;
    const d = 24 * h;
    expect([
      humanDuration(-3 * s),
      humanDuration(-1500),
      humanDuration(45 * s),
      humanDuration(119 * s),
      humanDuration(3 * m + 12 * s),
      humanDuration(5 * m),
      humanDuration(15 * m),
      humanDuration(5 * h + 4 * m),
      humanDuration(20 * h),
      humanDuration(3 * d + 4 * h),
      humanDuration(100 * d),
      humanDuration(2 * 365 * d + 30 * d),
      humanDuration(9 * 365 * d),
    ]).toEqual(['<invalid>', '0s', '45s', '119s', '3m12s', '5m', '15m', '5h4m', '20h', '3d4h', '100d', '2y30d', '9y']);
  });
});
