import { beforeAll, describe, expect, it } from 'vitest';
import { findUnknownFields, metaValidators, type GroupDefinition } from '@kapi/apimachinery';
import { loadGroups } from '../src/groups.js';

describe('generated validators and field trees of the built-in groups', () => {
  let groups: Map<string, GroupDefinition>;
  beforeAll(async () => {
    groups = new Map((await loadGroups()).map((g) => [g.group, g]));
  });
  const group = (name: string) => {
    const g = groups.get(name);
    if (!g) throw new Error(`group ${name} not generated`);
    return g;
  };

  const deployment = () => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', labels: { app: 'web' } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'web', image: 'nginx', ports: [{ containerPort: 80 }] }] },
      },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } },
    },
  });

  it('accept a valid Deployment, with int-or-string values in both forms', () => {
    expect(group('apps').validators['apps/v1/Deployment'](deployment())).toEqual([]);
  });

  it('report missing required fields at kube field paths', () => {
    const d = deployment() as any;
    delete d.spec.selector;
    delete d.spec.template.spec.containers[0].name;
    expect(group('apps').validators['apps/v1/Deployment'](d)).toEqual([
      { type: 'FieldValueRequired', field: 'spec.selector', message: '' },
      { type: 'FieldValueRequired', field: 'spec.template.spec.containers[0].name', message: '' },
    ]);
  });

  it('report wrong types with the bad value', () => {
    const d = deployment() as any;
    d.spec.replicas = 'two';
    d.spec.template.spec.containers[0].ports[0].containerPort = true;
    expect(group('apps').validators['apps/v1/Deployment'](d)).toEqual([
      { type: 'FieldValueTypeInvalid', field: 'spec.replicas', badValue: 'two', message: 'must be of type integer' },
      {
        type: 'FieldValueTypeInvalid',
        field: 'spec.template.spec.containers[0].ports[0].containerPort',
        badValue: true,
        message: 'must be of type integer',
      },
    ]);
  });

  it('report enum violations (wardle referenceType)', () => {
    const validate = group('wardle.example.com').validators['wardle.example.com/v1alpha1/Flunder'];
    expect(validate({ spec: { reference: 'f', referenceType: 'Flunder' } })).toEqual([]);
    expect(validate({ spec: { referenceType: 'Gnome' } })).toEqual([
      { type: 'FieldValueNotSupported', field: 'spec.referenceType', badValue: 'Gnome', message: 'supported values: "Flunder", "Fischer"' },
    ]);
  });

  it('leave unknown fields to the field tree, which names and prunes them', () => {
    const d = deployment() as any;
    d.spec.replica = 3;
    d.spec.template.spec.containers[0].imagePullPolicyy = 'Always';
    d.metadata.labels.extra = 'fine';
    const apps = group('apps');
    expect(apps.validators['apps/v1/Deployment'](d)).toEqual([]);
    expect(findUnknownFields(apps.fieldTree, 'apps/v1/Deployment', d, { prune: true })).toEqual([
      'spec.template.spec.containers[0].imagePullPolicyy',
      'spec.replica',
    ]);
    expect(d).toEqual({ ...deployment(), metadata: { name: 'web', labels: { app: 'web', extra: 'fine' } } });
  });

  it('validate meta types too (DeleteOptions from @kapi/apimachinery)', () => {
    const validate = metaValidators['meta.k8s.io/v1/DeleteOptions'];
    expect(validate({ gracePeriodSeconds: 0, dryRun: ['All'] })).toEqual([]);
    expect(validate({ gracePeriodSeconds: 'now' })).toEqual([
      { type: 'FieldValueTypeInvalid', field: 'gracePeriodSeconds', badValue: 'now', message: 'must be of type integer' },
    ]);
  });

  it('describe each resource as kubectl expects (Pods and Deployments)', () => {
    const pods = group('').resources.find((r) => r.plural === 'pods')!;
    expect(pods).toMatchObject({ kind: 'Pod', scope: 'Namespaced', shortNames: ['po'], categories: ['all'] });
    expect(pods.subresources.status).toEqual({});
    expect(pods.patchMeta['spec.containers']).toMatchObject({ patchStrategy: 'merge', patchMergeKey: 'name' });
    const deployments = group('apps').resources.find((r) => r.plural === 'deployments')!;
    expect(deployments.subresources.scale).toEqual({
      specReplicasPath: '.spec.replicas',
      statusReplicasPath: '.status.replicas',
      labelSelectorPath: '.status.selector',
    });
    expect(deployments.printerColumns.map((c) => c.name)).toEqual(
      expect.arrayContaining(['Ready', 'Up-to-date', 'Available', 'Age']),
    );
    const namespaces = group('').resources.find((r) => r.plural === 'namespaces')!;
    expect(namespaces.scope).toBe('Cluster');
  });
});
