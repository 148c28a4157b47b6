import { group as apps } from '@kapi/api-apps';
import { group as core } from '@kapi/api-core';
import type { ResourceInfo } from '@kapi/apimachinery';
import { describe, expect, it } from 'vitest';
import { applyStrategicMergePatch, patchMetaLookup } from './apply.js';

const metaOf = (resources: readonly ResourceInfo[], kind: string) => {
  const info = resources.find((r: ResourceInfo) => r.kind === kind);
  if (!info) throw new Error(`no ${kind}`);
  return patchMetaLookup(info.patchMeta);
};
const deploymentMeta = metaOf(apps.resources, 'Deployment');
const podMeta = metaOf(core.resources, 'Pod');

const lastApplied = (spec: unknown): string =>
  `${JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default' }, spec })}\n`;

/** A Deployment as the server stores it after `kubectl apply` created it (defaults filled in). */
function liveDeployment(): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'web',
      namespace: 'default',
      uid: '1b4f3c1e-0000-4000-8000-000000000001',
      resourceVersion: '42',
      generation: 1,
      labels: { app: 'web', tier: 'frontend' },
      annotations: {
        'deployment.kubernetes.io/revision': '1',
        'kubectl.kubernetes.io/last-applied-configuration': lastApplied({ replicas: 1 }),
      },
    },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'web' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            {
              name: 'a',
              image: 'nginx:1',
              ports: [{ containerPort: 80, protocol: 'TCP' }],
              resources: {},
              terminationMessagePath: '/dev/termination-log',
              terminationMessagePolicy: 'File',
              imagePullPolicy: 'IfNotPresent',
            },
          ],
          volumes: [{ name: 'data', emptyDir: {} }],
          restartPolicy: 'Always',
          terminationGracePeriodSeconds: 30,
          dnsPolicy: 'ClusterFirst',
          securityContext: {},
          schedulerName: 'default-scheduler',
        },
      },
    },
    status: { observedGeneration: 1, replicas: 1, readyReplicas: 1 },
  };
}

describe('kubectl client-side apply patches on a Deployment (real apps/v1 patch metadata)', () => {
  it('changes a container image and adds a container, ordered by $setElementOrder/containers', () => {
    const annotation = lastApplied({ template: { spec: { containers: [{ name: 'a' }, { name: 'b' }] } } });
    // The patch kubectl 1.33 sends (CreateThreeWayMergePatch output, keys sorted as Go marshals them).
    const patch = JSON.parse(
      `{"metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":${JSON.stringify(annotation)}}},` +
        '"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"a"},{"name":"b"}],' +
        '"containers":[{"image":"nginx:2","name":"a"},{"image":"redis","name":"b"}]}}}}',
    );
    const live = liveDeployment();
    const expected = liveDeployment() as any;
    expected.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'] = annotation;
    expected.spec.template.spec.containers[0].image = 'nginx:2';
    expected.spec.template.spec.containers.push({ image: 'redis', name: 'b' });

    const result = applyStrategicMergePatch(live, patch, deploymentMeta);

    expect(result).toStrictEqual(expected);
    expect(live).toStrictEqual(liveDeployment());
  });

  it('puts a container added before the existing ones where $setElementOrder says', () => {
    const patch = {
      spec: {
        template: {
          spec: {
            '$setElementOrder/containers': [{ name: 'init-proxy' }, { name: 'a' }],
            containers: [{ name: 'init-proxy', image: 'envoy:1' }],
          },
        },
      },
    };
    const result = applyStrategicMergePatch(liveDeployment(), patch, deploymentMeta) as any;
    expect(result.spec.template.spec.containers.map((c: { name: string }) => c.name)).toStrictEqual([
      'init-proxy',
      'a',
    ]);
  });

  it('switches spec.strategy to Recreate and $retainKeys clears rollingUpdate', () => {
    const patch = { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } };
    const result = applyStrategicMergePatch(liveDeployment(), patch, deploymentMeta) as any;
    expect(result.spec.strategy).toStrictEqual({ type: 'Recreate' });
  });

  it('replaces a volume source with $retainKeys inside the merge-keyed volumes list (merge,retainKeys)', () => {
    const patch = {
      spec: {
        template: {
          spec: {
            '$setElementOrder/volumes': [{ name: 'data' }, { name: 'cache' }],
            volumes: [
              { $retainKeys: ['configMap', 'name'], configMap: { name: 'web-config' }, name: 'data' },
              { emptyDir: { medium: 'Memory' }, name: 'cache' },
            ],
          },
        },
      },
    };
    const result = applyStrategicMergePatch(liveDeployment(), patch, deploymentMeta) as any;
    expect(result.spec.template.spec.volumes).toStrictEqual([
      { name: 'data', configMap: { name: 'web-config' } },
      { emptyDir: { medium: 'Memory' }, name: 'cache' },
    ]);
  });

  it('rejects a $retainKeys list that omits a key the patch sets', () => {
    const patch = { spec: { strategy: { $retainKeys: ['type'], type: 'RollingUpdate', rollingUpdate: {} } } };
    expect(() => applyStrategicMergePatch(liveDeployment(), patch, deploymentMeta)).toThrow(
      'invalid patch format of retainKeys',
    );
  });

  it('deletes a label with null and keeps the rest of the map', () => {
    const patch = { metadata: { labels: { tier: null, track: 'stable' } } };
    const result = applyStrategicMergePatch(liveDeployment(), patch, deploymentMeta) as any;
    expect(result.metadata.labels).toStrictEqual({ app: 'web', track: 'stable' });
  });

  it('replaces a list without patch strategy (container args) wholesale', () => {
    const live = liveDeployment() as any;
    live.spec.template.spec.containers[0].args = ['--a', '--b'];
    const patch = { spec: { template: { spec: { containers: [{ name: 'a', args: ['--c'] }] } } } };
    const result = applyStrategicMergePatch(live, patch, deploymentMeta) as any;
    expect(result.spec.template.spec.containers[0].args).toStrictEqual(['--c']);
  });
});

describe('kubectl patch --type strategic on a Pod (real core/v1 patch metadata)', () => {
  const pod = (): Record<string, unknown> => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default', finalizers: ['example.com/a', 'example.com/b'] },
    spec: {
      containers: [
        {
          name: 'app',
          image: 'app:1',
          ports: [
            { name: 'dns-tcp', containerPort: 53, protocol: 'TCP' },
            { name: 'dns-udp', containerPort: 53, protocol: 'UDP' },
            { name: 'http', containerPort: 8080, protocol: 'TCP' },
          ],
          env: [
            { name: 'A', value: '1' },
            { name: 'B', value: '2' },
            { name: 'C', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
          ],
        },
      ],
    },
  });
  const container = (result: Record<string, unknown>): any => (result as any).spec.containers[0];

  it('merges spec.containers[].ports by containerPort', () => {
    const patch = {
      spec: {
        containers: [
          {
            name: 'app',
            '$setElementOrder/ports': [{ containerPort: 53 }, { containerPort: 53 }, { containerPort: 8080 }, { containerPort: 9090 }],
            ports: [
              { containerPort: 8080, name: 'web' },
              { containerPort: 9090, name: 'metrics', protocol: 'TCP' },
            ],
          },
        ],
      },
    };
    expect(container(applyStrategicMergePatch(pod(), patch, podMeta)).ports).toStrictEqual([
      { name: 'dns-tcp', containerPort: 53, protocol: 'TCP' },
      { name: 'dns-udp', containerPort: 53, protocol: 'UDP' },
      { name: 'web', containerPort: 8080, protocol: 'TCP' },
      { containerPort: 9090, name: 'metrics', protocol: 'TCP' },
    ]);
  });

  it('matches ports on containerPort alone, so a UDP twin is never the one patched (upstream behaviour)', () => {
    const patch = { spec: { containers: [{ name: 'app', ports: [{ containerPort: 53, protocol: 'UDP', name: 'dns' }] }] } };
    expect(container(applyStrategicMergePatch(pod(), patch, podMeta)).ports).toStrictEqual([
      { name: 'dns', containerPort: 53, protocol: 'UDP' },
      { name: 'dns-udp', containerPort: 53, protocol: 'UDP' },
      { name: 'http', containerPort: 8080, protocol: 'TCP' },
    ]);
  });

  it('merges env by name: $patch delete removes one, a changed value merges in place', () => {
    const patch = {
      spec: {
        containers: [
          {
            name: 'app',
            env: [{ name: 'B', $patch: 'delete' }, { name: 'C', value: 'x', valueFrom: null }, { name: 'D', value: '4' }],
          },
        ],
      },
    };
    expect(container(applyStrategicMergePatch(pod(), patch, podMeta)).env).toStrictEqual([
      { name: 'A', value: '1' },
      { name: 'C', value: 'x' },
      { name: 'D', value: '4' },
    ]);
  });

  it('puts a new env entry first when no $setElementOrder says otherwise (upstream mergeSortedSlice)', () => {
    const patch = { spec: { containers: [{ name: 'app', env: [{ name: 'D', value: '4' }] }] } };
    expect(container(applyStrategicMergePatch(pod(), patch, podMeta)).env.map((e: { name: string }) => e.name)).toStrictEqual(
      ['D', 'A', 'B', 'C'],
    );
  });

  it('orders a kubectl edit of env by $setElementOrder/env', () => {
    const patch = {
      spec: {
        containers: [
          {
            name: 'app',
            '$setElementOrder/env': [{ name: 'A' }, { name: 'C' }, { name: 'D' }],
            env: [{ name: 'D', value: '4' }, { $patch: 'delete', name: 'B' }],
          },
        ],
        '$setElementOrder/containers': [{ name: 'app' }],
      },
    };
    expect(container(applyStrategicMergePatch(pod(), patch, podMeta)).env).toStrictEqual([
      { name: 'A', value: '1' },
      { name: 'C', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      { name: 'D', value: '4' },
    ]);
  });

  it('unites metadata.finalizers (a primitive merge list) and removes with $deleteFromPrimitiveList', () => {
    const add = applyStrategicMergePatch(pod(), { metadata: { finalizers: ['example.com/b', 'example.com/c'] } }, podMeta);
    expect((add as any).metadata.finalizers).toStrictEqual(['example.com/a', 'example.com/b', 'example.com/c']);

    const remove = applyStrategicMergePatch(
      pod(),
      { metadata: { '$deleteFromPrimitiveList/finalizers': ['example.com/a'] } },
      podMeta,
    );
    expect((remove as any).metadata.finalizers).toStrictEqual(['example.com/b']);

    const ordered = applyStrategicMergePatch(
      pod(),
      {
        metadata: {
          '$setElementOrder/finalizers': ['example.com/c', 'example.com/b'],
          '$deleteFromPrimitiveList/finalizers': ['example.com/a'],
          finalizers: ['example.com/c'],
        },
      },
      podMeta,
    );
    expect((ordered as any).metadata.finalizers).toStrictEqual(['example.com/c', 'example.com/b']);
  });

  it('replaces spec.volumes entries with retainKeys on a Pod', () => {
    const live = pod() as any;
    live.spec.volumes = [
      { name: 'cfg', configMap: { name: 'old', defaultMode: 420 } },
      { name: 'tmp', emptyDir: {} },
    ];
    const patch = {
      spec: {
        '$setElementOrder/volumes': [{ name: 'cfg' }, { name: 'tmp' }],
        volumes: [{ $retainKeys: ['name', 'secret'], name: 'cfg', secret: { secretName: 's' } }],
      },
    };
    expect((applyStrategicMergePatch(live, patch, podMeta) as any).spec.volumes).toStrictEqual([
      { name: 'cfg', secret: { secretName: 's' } },
      { name: 'tmp', emptyDir: {} },
    ]);
  });
});
