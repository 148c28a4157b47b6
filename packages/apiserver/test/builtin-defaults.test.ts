// What kube-apiserver gives built-in objects on create and keeps on update, that clients and selectors rely on.
import { describe, expect, it } from 'vitest';
import { encodeCbor } from '../src/endpoints/media/cbor-codec.js';
import { startHarness } from './harness.js';

const NS = '/api/v1/namespaces';

describe('namespaces carry kubernetes.io/metadata.name', () => {
  it('on the namespaces the server creates, on create (generateName too), and back after an update removes it', async () => {
    const h = await startHarness();
    expect((await h.req('GET', `${NS}/default`)).body.metadata.labels).toEqual({ 'kubernetes.io/metadata.name': 'default' });
    const named = await h.req('POST', NS, { metadata: { name: 'team-a', labels: { 'kubernetes.io/metadata.name': 'other', tier: 'x' } } });
    expect(named.body.metadata.labels).toEqual({ 'kubernetes.io/metadata.name': 'team-a', tier: 'x' });
    expect(named.body.status).toEqual({ phase: 'Active' });
    const generated = await h.req('POST', NS, { metadata: { generateName: 'gen-' } });
    expect(generated.status).toBe(201);
    expect(generated.body.metadata.labels).toEqual({ 'kubernetes.io/metadata.name': generated.body.metadata.name });
    const stripped = await h.req('PATCH', `${NS}/team-a`, [{ op: 'remove', path: '/metadata/labels/kubernetes.io~1metadata.name' }], {
      'content-type': 'application/json-patch+json',
    });
    expect(stripped.status).toBe(200);
    expect(stripped.body.metadata.labels['kubernetes.io/metadata.name']).toBe('team-a');
    const selected = await h.req('GET', `${NS}?labelSelector=kubernetes.io/metadata.name%3Dteam-a`);
    expect(selected.body.items.map((n: { metadata: { name: string } }) => n.metadata.name)).toEqual(['team-a']);
  });
});

describe('services', () => {
  it('are created with an empty status (loadBalancer: {}), whatever status the client sent', async () => {
    const h = await startHarness();
    const created = await h.req('POST', '/api/v1/namespaces/default/services', {
      metadata: { name: 'web' },
      spec: { ports: [{ port: 80 }] },
      status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } },
    });
    expect(created.status).toBe(201);
    expect(created.body.status).toEqual({ loadBalancer: {} });
  });
});

// kube 1.33's defaulting (SetDefaults_* and `+default=` markers), field by field against what kube returns for the
// same request. The bodies are what kubectl sends (`kubectl create deployment web --image=nginx`, ...).
describe('built-in kinds are defaulted as kube defaults them', () => {
  const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';
  const kubectlCreateDeployment = {
    kind: 'Deployment', apiVersion: 'apps/v1',
    metadata: { name: 'web', creationTimestamp: null, labels: { app: 'web' } },
    spec: {
      replicas: 1, selector: { matchLabels: { app: 'web' } },
      template: { metadata: { creationTimestamp: null, labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx', resources: {} }] } },
      strategy: {},
    },
    status: {},
  };
  // kube 1.33's `kubectl get deploy web -o json` after that create, without the server-set metadata and the
  // template's `creationTimestamp: null` (Go's zero time, which Kapi does not write).
  const kubeDeployment = {
    spec: {
      progressDeadlineSeconds: 600, replicas: 1, revisionHistoryLimit: 10,
      selector: { matchLabels: { app: 'web' } },
      strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' }, type: 'RollingUpdate' },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [{ image: 'nginx', imagePullPolicy: 'Always', name: 'nginx', resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' }],
          dnsPolicy: 'ClusterFirst', restartPolicy: 'Always', schedulerName: 'default-scheduler', securityContext: {}, terminationGracePeriodSeconds: 30,
        },
      },
    },
    status: {},
  };

  it('a Deployment from kubectl create: every default kube fills in, on create and when read back', async () => {
    const h = await startHarness();
    const created = await h.req('POST', `${DEPLOYMENTS}?fieldManager=kubectl-create`, kubectlCreateDeployment);
    expect(created.status).toBe(201);
    expect({ spec: created.body.spec, status: created.body.status }).toEqual(kubeDeployment);
    const read = await h.req('GET', `${DEPLOYMENTS}/web`);
    expect({ spec: read.body.spec, status: read.body.status }).toEqual(kubeDeployment);
  });

  it('defaults what an update, a patch and an apply leave out, and keeps what the client set', async () => {
    const h = await startHarness();
    const created = (await h.req('POST', DEPLOYMENTS, kubectlCreateDeployment)).body;
    // Recreate has no rollingUpdate; a tagged image is IfNotPresent; the client's own values stay.
    const spec = {
      ...created.spec, replicas: 3, strategy: { type: 'Recreate' }, revisionHistoryLimit: 2,
      template: { ...created.spec.template, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', imagePullPolicy: 'Never' }, { name: 'sidecar', image: 'busybox:1.36' }] } },
    };
    const updated = await h.req('PUT', `${DEPLOYMENTS}/web`, { ...created, spec });
    expect(updated.status).toBe(200);
    expect(updated.body.spec).toMatchObject({ replicas: 3, strategy: { type: 'Recreate' }, revisionHistoryLimit: 2, progressDeadlineSeconds: 600 });
    expect(updated.body.spec.strategy.rollingUpdate).toBeUndefined();
    expect(updated.body.spec.template.spec.containers.map((c: { imagePullPolicy: string }) => c.imagePullPolicy)).toEqual(['Never', 'IfNotPresent']);
    expect(updated.body.spec.template.spec.dnsPolicy).toBe('ClusterFirst');

    const patched = await h.req('PATCH', `${DEPLOYMENTS}/web`, { spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } } }, {
      'content-type': 'application/merge-patch+json',
    });
    expect(patched.body.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: '25%' } });

    const applied = await h.req('PATCH', `${DEPLOYMENTS}/applied?fieldManager=me`, {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'applied' },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'registry.example.com:5000/team/app@sha256:' + 'a'.repeat(64) }] } } },
    }, { 'content-type': 'application/apply-patch+yaml' });
    expect(applied.status).toBe(201);
    expect(applied.body.spec).toMatchObject({ replicas: 1, strategy: { type: 'RollingUpdate' }, template: { spec: { restartPolicy: 'Always' } } });
    expect(applied.body.spec.template.spec.containers[0].imagePullPolicy).toBe('IfNotPresent');
  });

  it('a Pod from kubectl run: container and pod defaults, service links, requests from limits, probes', async () => {
    const h = await startHarness();
    const created = await h.req('POST', '/api/v1/namespaces/default/pods', {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: { run: 'p' } },
      spec: {
        containers: [{
          name: 'p', image: 'nginx:1.25', ports: [{ containerPort: 80 }], resources: { limits: { cpu: '500m' } },
          readinessProbe: { httpGet: { port: 80 } },
        }],
        volumes: [{ name: 'cfg', configMap: { name: 'cfg' } }, { name: 'tok', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } }],
      },
    });
    expect(created.status).toBe(201);
    // Not defaults: kube's ServiceAccount admission (the core plugin's) adds the account and its token volume.
    const access = created.body.spec.volumes[2];
    expect(access.name).toMatch(/^kube-api-access-/);
    expect(created.body.spec).toEqual({
      containers: [{
        name: 'p', image: 'nginx:1.25', imagePullPolicy: 'IfNotPresent', ports: [{ containerPort: 80, protocol: 'TCP' }],
        resources: { limits: { cpu: '500m' }, requests: { cpu: '500m' } },
        readinessProbe: { httpGet: { port: 80, path: '/', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 },
        terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File',
        volumeMounts: [{ name: access.name, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }],
      }],
      volumes: [
        { name: 'cfg', configMap: { name: 'cfg', defaultMode: 420 } },
        { name: 'tok', projected: { sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3600 } }], defaultMode: 420 } },
        access,
      ],
      serviceAccountName: 'default', serviceAccount: 'default',
      dnsPolicy: 'ClusterFirst', enableServiceLinks: true, restartPolicy: 'Always', schedulerName: 'default-scheduler',
      securityContext: {}, terminationGracePeriodSeconds: 30,
      // Not a default: kube's DefaultTolerationSeconds admission (the core plugin's), which kube runs too.
      tolerations: [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ],
    });
  });

  it('a Service: target ports, protocol, affinity and traffic policies by type', async () => {
    const h = await startHarness();
    const SERVICES = '/api/v1/namespaces/default/services';
    const clusterIP = await h.req('POST', SERVICES, { metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ name: '80-8080', port: 80, targetPort: 8080 }, { name: 'dns', port: 53 }] } });
    expect(clusterIP.status).toBe(201);
    expect(clusterIP.body.spec).toEqual({
      selector: { app: 'web' },
      ports: [{ name: '80-8080', port: 80, targetPort: 8080, protocol: 'TCP' }, { name: 'dns', port: 53, targetPort: 53, protocol: 'TCP' }],
      type: 'ClusterIP', sessionAffinity: 'None', internalTrafficPolicy: 'Cluster',
    });
    const lb = await h.req('POST', SERVICES, { metadata: { name: 'lb' }, spec: { type: 'LoadBalancer', sessionAffinity: 'ClientIP', ports: [{ port: 443, protocol: 'TCP' }] } });
    expect(lb.body.spec).toMatchObject({
      sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } }, externalTrafficPolicy: 'Cluster', internalTrafficPolicy: 'Cluster', allocateLoadBalancerNodePorts: true,
    });
    const external = await h.req('POST', SERVICES, { metadata: { name: 'ext' }, spec: { type: 'ExternalName', externalName: 'example.com', sessionAffinityConfig: { clientIP: { timeoutSeconds: 5 } } } });
    expect(external.body.spec).toEqual({ type: 'ExternalName', externalName: 'example.com', sessionAffinity: 'None' });
  });

  it('RBAC subjects and roleRefs get their API group', async () => {
    const h = await startHarness();
    const created = await h.req('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', {
      metadata: { name: 'b' },
      roleRef: { kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'User', name: 'jane' }, { kind: 'Group', name: 'devs' }, { kind: 'ServiceAccount', name: 'default', namespace: 'default' }],
    });
    expect(created.status).toBe(201);
    expect(created.body.roleRef).toEqual({ kind: 'ClusterRole', name: 'view', apiGroup: 'rbac.authorization.k8s.io' });
    expect(created.body.subjects).toEqual([
      { kind: 'User', name: 'jane', apiGroup: 'rbac.authorization.k8s.io' },
      { kind: 'Group', name: 'devs', apiGroup: 'rbac.authorization.k8s.io' },
      { kind: 'ServiceAccount', name: 'default', namespace: 'default' },
    ]);
  });

  it('a zero value that Go does not write (a non-pointer omitempty field) is unset; a pointer field keeps its zero', async () => {
    const h = await startHarness();
    const created = await h.req('POST', DEPLOYMENTS, {
      ...kubectlCreateDeployment,
      spec: { ...kubectlCreateDeployment.spec, replicas: 0, minReadySeconds: 0, paused: false, template: {
        ...kubectlCreateDeployment.spec.template,
        spec: { containers: [{ name: 'nginx', image: 'nginx', ports: [{ containerPort: 80, hostPort: 0, hostIP: '' }] }], nodeName: '', hostNetwork: false, dnsPolicy: '' },
      } },
    });
    expect(created.status).toBe(201);
    expect(created.body.spec.replicas).toBe(0);
    expect(created.body.spec).not.toHaveProperty('minReadySeconds');
    expect(created.body.spec).not.toHaveProperty('paused');
    const podSpec = created.body.spec.template.spec;
    expect(podSpec.containers[0].ports).toEqual([{ containerPort: 80, protocol: 'TCP' }]);
    expect(podSpec).not.toHaveProperty('nodeName');
    expect(podSpec).not.toHaveProperty('hostNetwork');
    expect(podSpec.dnsPolicy).toBe('ClusterFirst'); // "" is unset, so it is defaulted
  });
});

describe('numbers as Go decodes them', () => {
  // (A Protobuf varint for an int32 field is cut to 32 bits by every decoder, Go's too: it cannot carry more.)
  it('an int32 field refuses what an int32 cannot hold, and a fraction, with a 400 in JSON, YAML and CBOR', async () => {
    const h = await startHarness({ CBORServingAndStorage: true });
    const deployment = (replicas: unknown) => ({
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'n' },
      spec: { replicas, selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
    });
    const D = '/apis/apps/v1/namespaces/default/deployments';
    for (const [replicas, text] of [[2 ** 40, '1099511627776'], [-(2 ** 31) - 1, '-2147483649'], [1.5, '1.5']] as const) {
      const bodies: [string | Uint8Array, string][] = [
        [JSON.stringify(deployment(replicas)), 'application/json'],
        [encodeCbor(deployment(replicas)), 'application/cbor'],
        [`apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: "n"}\nspec:\n  replicas: ${replicas}\n  selector: {matchLabels: {a: b}}\n  template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: i}]}}\n`, 'application/yaml'],
      ];
      for (const [body, type] of bodies) {
        const res = await h.req('POST', D, body, { 'content-type': type });
        expect([type, res.status]).toEqual([type, 400]);
        expect(res.body.message).toBe(`Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal number ${text} into Go struct field DeploymentSpec.spec.replicas of type int32`);
      }
    }
    expect((await h.req('POST', D, deployment(2 ** 31 - 1))).status).toBe(201);
    const patched = await h.req('PATCH', `${D}/n`, { spec: { replicas: 2 ** 31 } }, { 'content-type': 'application/merge-patch+json' });
    expect(patched.status).toBe(400);
  });
});

describe('validation messages in kube’s words', () => {
  it('a missing required field reads "<field>: Required value", once', async () => {
    const h = await startHarness();
    const res = await h.req('POST', '/api/v1/namespaces/default/pods', { metadata: { name: 'p' }, spec: { containers: [{ image: 'nginx' }] } });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Pod "p" is invalid: spec.containers[0].name: Required value');
    expect(res.body.details.causes).toEqual([{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers[0].name' }]);
  });
});

describe('times as kube decodes them', () => {
  it('every Time and MicroTime field is parsed and written canonically, in JSON, YAML and CBOR; a bad one is 400', async () => {
    const h = await startHarness({ CBORServingAndStorage: true });
    const LEASES = '/apis/coordination.k8s.io/v1/namespaces/default/leases';
    const lease = (name: string) => ({
      apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name },
      spec: { holderIdentity: 'me', acquireTime: '2026-11-24T12:00:00+02:00', renewTime: '2026-11-24T10:00:01.5Z' },
    });
    const expected = { holderIdentity: 'me', acquireTime: '2026-11-24T10:00:00.000000Z', renewTime: '2026-11-24T10:00:01.500000Z' };
    expect((await h.req('POST', LEASES, lease('json'))).body.spec).toEqual(expected);
    const yaml = `apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata: {name: yaml}\nspec: {holderIdentity: me, acquireTime: "2026-11-24T12:00:00+02:00", renewTime: "2026-11-24T10:00:01.5Z"}\n`;
    expect((await h.req('POST', LEASES, yaml, { 'content-type': 'application/yaml' })).body.spec).toEqual(expected);
    expect((await h.req('POST', LEASES, encodeCbor(lease('cbor')), { 'content-type': 'application/cbor' })).body.spec).toEqual(expected);
    expect((await h.req('GET', `${LEASES}/cbor`)).body.spec).toEqual(expected);

    // Time (whole seconds) in status conditions, through the status subresource and a patch.
    const D = '/apis/apps/v1/namespaces/default/deployments';
    const created = (await h.req('POST', D, {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 't' },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
    })).body;
    const condition = { type: 'Available', status: 'True', lastUpdateTime: '2026-11-24T11:50:56.789+00:00', lastTransitionTime: '2026-11-24T06:50:56-05:00' };
    const status = await h.req('PUT', `${D}/t/status`, { ...created, status: { conditions: [condition] } });
    expect(status.status).toBe(200);
    expect(status.body.status.conditions[0]).toMatchObject({ lastUpdateTime: '2026-11-24T11:50:56Z', lastTransitionTime: '2026-11-24T11:50:56Z' });
    const patched = await h.req('PATCH', `${D}/t`, { metadata: { annotations: { a: 'b' } }, spec: { paused: true } }, { 'content-type': 'application/merge-patch+json' });
    expect(patched.body.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    const bad = await h.req('POST', LEASES, { ...lease('bad'), spec: { renewTime: 'yesterday' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Lease in version "v1" cannot be handled as a Lease: parsing time "yesterday": not an RFC 3339 timestamp');
    const badPatch = await h.req('PATCH', `${LEASES}/json`, { spec: { renewTime: '2026-13-01T00:00:00Z' } }, { 'content-type': 'application/merge-patch+json' });
    expect(badPatch.status).toBe(400);
  });
});

describe('quantities as kube writes them', () => {
  it('are canonical on the way in (numbers too), requests defaulted from limits included; a bad one is 400', async () => {
    const h = await startHarness();
    const PODS = '/api/v1/namespaces/default/pods';
    const created = await h.req('POST', PODS, {
      metadata: { name: 'q' },
      spec: {
        containers: [{ name: 'c', image: 'nginx:1', resources: { limits: { cpu: 0.5, memory: '1024Mi' }, requests: { 'ephemeral-storage': '1.5k' } } }],
        volumes: [{ name: 'scratch', emptyDir: { sizeLimit: '0.5Gi' } }],
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.spec.containers[0].resources).toEqual({
      limits: { cpu: '500m', memory: '1Gi' },
      requests: { 'ephemeral-storage': '1500', cpu: '500m', memory: '1Gi' },
    });
    expect(created.body.spec.volumes[0].emptyDir).toEqual({ sizeLimit: '512Mi' });
    const bad = await h.req('POST', PODS, { metadata: { name: 'b' }, spec: { containers: [{ name: 'c', image: 'i', resources: { limits: { cpu: 'lots' } } }] } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(
      "Pod in version \"v1\" cannot be handled as a Pod: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    );
  });
});

describe('objects read from storage', () => {
  it('get the defaults a write would give them (data written by an older server), in gets, lists and watches', async () => {
    const h = await startHarness();
    const old = {
      apiVersion: 'apps/v1', kind: 'Deployment',
      metadata: { name: 'old', namespace: 'default', uid: 'u-old', creationTimestamp: '2020-01-01T00:00:00Z', generation: 1 },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    };
    await h.storage.create('/registry/apps/deployments/default/old', new TextEncoder().encode(JSON.stringify(old)));
    const D = '/apis/apps/v1/namespaces/default/deployments';
    const expectDefaulted = (d: any) => {
      expect(d.spec).toMatchObject({ replicas: 1, revisionHistoryLimit: 10, progressDeadlineSeconds: 600, strategy: { type: 'RollingUpdate' } });
      expect(d.spec.template.spec.containers[0]).toMatchObject({ imagePullPolicy: 'Always', terminationMessagePolicy: 'File' });
    };
    const read = await h.req('GET', `${D}/old`);
    expect(read.status).toBe(200);
    expectDefaulted(read.body);
    expectDefaulted((await h.req('GET', `${D}?resourceVersion=0`)).body.items.find((d: any) => d.metadata.name === 'old'));
    expectDefaulted((await h.req('GET', D)).body.items.find((d: any) => d.metadata.name === 'old'));
  });
});
