// What `kubectl create` then `kubectl get -o yaml` shows for built-in kinds: kube 1.33's defaults, field by field.
// The expected objects are what kube-apiserver 1.33 returns for the same commands, without what the server sets
// per object (uid, times, resourceVersion, managedFields), without what kube's controllers and admission plugins
// add later (deployment revision annotation, pod service account volumes, cluster IPs),
// and without Go's `creationTimestamp: null` in pod templates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { kubectlBinaries, kubectlOk, kubectlRunner } from '../src/kubectl.js';
import { startServerProcess, type ServerProcess } from '../src/server.js';

const kubectlPath = kubectlBinaries()[0]?.path;

describe.skipIf(!kubectlPath)('kubectl sees defaulted built-in objects', () => {
  let server: ServerProcess;
  let kubectl: ReturnType<typeof kubectlRunner>;
  const ok = (...args: string[]) => kubectlOk(kubectl, ...args);
  beforeAll(async () => {
    server = await startServerProcess();
    kubectl = kubectlRunner(kubectlPath!, server.kubeconfig);
  }, 60_000);
  afterAll(async () => server?.stop());

  it('kubectl create deployment web --image=nginx', () => {
    ok('create', 'deployment', 'web', '--image=nginx');
    const deployment = parse(ok('get', 'deployment', 'web', '-o', 'yaml'));
    expect(deployment.metadata).toMatchObject({ name: 'web', namespace: 'default', generation: 1, labels: { app: 'web' } });
    expect(deployment.spec).toEqual({
      progressDeadlineSeconds: 600,
      replicas: 1,
      revisionHistoryLimit: 10,
      selector: { matchLabels: { app: 'web' } },
      strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' }, type: 'RollingUpdate' },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [{
            image: 'nginx', imagePullPolicy: 'Always', name: 'nginx', resources: {},
            terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File',
          }],
          dnsPolicy: 'ClusterFirst', restartPolicy: 'Always', schedulerName: 'default-scheduler', securityContext: {},
          terminationGracePeriodSeconds: 30,
        },
      },
    });
    expect(deployment.status).toEqual({});
  });

  it('kubectl run and kubectl create service', () => {
    ok('run', 'p', '--image=nginx:1.27', '--port=80');
    const pod = parse(ok('get', 'pod', 'p', '-o', 'yaml'));
    // kube's ServiceAccount admission: the default account, its credentials in a projected volume.
    const volume = pod.spec.volumes?.[0]?.name as string;
    expect(volume).toMatch(/^kube-api-access-[a-z0-9]{5}$/);
    expect(pod.spec).toEqual({
      containers: [{
        image: 'nginx:1.27', imagePullPolicy: 'IfNotPresent', name: 'p', ports: [{ containerPort: 80, protocol: 'TCP' }], resources: {},
        terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File',
        volumeMounts: [{ mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', name: volume, readOnly: true }],
      }],
      serviceAccount: 'default', serviceAccountName: 'default',
      volumes: [{
        name: volume,
        projected: {
          defaultMode: 420,
          sources: [
            { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
            { configMap: { items: [{ key: 'ca.crt', path: 'ca.crt' }], name: 'kube-root-ca.crt' } },
            { downwardAPI: { items: [{ fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' }, path: 'namespace' }] } },
          ],
        },
      }],
      dnsPolicy: 'ClusterFirst', enableServiceLinks: true, restartPolicy: 'Always', schedulerName: 'default-scheduler',
      securityContext: {}, terminationGracePeriodSeconds: 30,
      // kube's Priority admission: no class and no global default.
      preemptionPolicy: 'PreemptLowerPriority', priority: 0,
      // kube's DefaultTolerationSeconds admission.
      tolerations: [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ],
    });
    ok('create', 'service', 'clusterip', 'web', '--tcp=80:8080');
    const service = parse(ok('get', 'service', 'web', '-o', 'yaml'));
    const clusterIP = service.spec.clusterIP as string;
    expect(clusterIP).toMatch(/^10\.0\.0\.\d+$/);
    expect(service.spec).toEqual({
      clusterIP,
      clusterIPs: [clusterIP],
      internalTrafficPolicy: 'Cluster',
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      ports: [{ name: '80-8080', port: 80, protocol: 'TCP', targetPort: 8080 }],
      selector: { app: 'web' },
      sessionAffinity: 'None',
      type: 'ClusterIP',
    });
  });
});
