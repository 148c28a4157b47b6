// kube 1.33's warnings for Pods and pod templates (pkg/api/pod/warnings.go), as clients see them in `Warning`
// headers: in-process with the sample server's plugins, then as kubectl prints them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer, type ApiServer } from '@kapi/apiserver';
import { serverPlugins } from '@kapi/server';
import { createMemoryBackend } from '@kapi/storage';
import { kubectlBinaries, kubectlOf } from '../src/kubectl.js';
import { manifestWriter } from '../src/manifests.js';
import { startServerProcess, type ServerProcess } from '../src/server.js';

const kubectlBin = kubectlBinaries()[0];

/** The warnings of a create, as the `Warning` headers carry them (`299 - "text"`). */
async function warningsOf(server: ApiServer, path: string, body: unknown): Promise<{ status: number; warnings: string[] }> {
  const res = await server.fetch(new Request(`http://kapi.test${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
  const header = res.headers.get('warning') ?? '';
  const warnings = [...header.matchAll(/299 - "((?:[^"\\]|\\.)*)"/g)].map((m) => m[1].replace(/\\(.)/g, '$1'));
  return { status: res.status, warnings };
}

const spec = {
  nodeSelector: { 'beta.kubernetes.io/os': 'linux' },
  affinity: {
    nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'failure-domain.beta.kubernetes.io/zone', operator: 'In', values: ['a'] }] }] } },
    podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname' }] },
  },
  topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'ScheduleAnyway' }],
  volumes: [{ name: 'src', gitRepo: { repository: 'https://example.com/repo.git' } }],
  hostAliases: [{ ip: '10.0.0.1', hostnames: ['a'] }, { ip: '10.0.0.1', hostnames: ['b'] }],
  terminationGracePeriodSeconds: -1,
  containers: [
    {
      name: 'app',
      image: 'nginx',
      env: [{ name: 'A', value: '1' }, { name: 'A', value: '2' }],
      ports: [{ containerPort: 80 }, { containerPort: 80, hostPort: 8080 }],
      resources: { limits: { memory: '100m' } },
    },
  ],
};

const EXPECTED = (prefix: string) => [
  `${prefix}spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead`,
  `${prefix}spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].key: failure-domain.beta.kubernetes.io/zone is deprecated since v1.17; use "topology.kubernetes.io/zone" instead`,
  `${prefix}spec.topologySpreadConstraints[0].labelSelector: a null labelSelector results in matching no pod`,
  `${prefix}spec.volumes[0].gitRepo: deprecated in v1.11`,
  `${prefix}spec.hostAliases[1].ip: duplicate ip "10.0.0.1"`,
  `${prefix}spec.containers[0].resources.limits[memory]: fractional byte value "100m" is invalid, must be an integer`,
  `${prefix}spec.containers[0].resources.requests[memory]: fractional byte value "100m" is invalid, must be an integer`,
  `${prefix}spec.containers[0].env[1]: hides previous definition of "A", which may be dropped when using apply`,
  `${prefix}spec.containers[0].ports[1]: overlapping port definition with ${prefix}spec.containers[0].ports[0]`,
  `${prefix}spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1`,
  `${prefix}spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector: a null labelSelector results in matching no pod`,
];

describe('Pod warnings', { timeout: 30_000 }, () => {
  let server: ApiServer;
  beforeAll(async () => {
    server = createApiServer({ storage: createMemoryBackend(), plugins: serverPlugins() });
    await server.start();
  });
  afterAll(() => server?.stop());

  it("warns of a Pod's deprecated and doubtful settings, as kube does, and creates it", async () => {
    const res = await warningsOf(server, '/api/v1/namespaces/default/pods', { metadata: { name: 'warned' }, spec });
    expect(res.status).toBe(201);
    expect(res.warnings).toEqual(EXPECTED(''));
  });

  it('warns of the same in a Deployment\'s and a CronJob\'s pod template, at their paths', async () => {
    const template = { metadata: { labels: { app: 'w' }, annotations: { 'container.apparmor.security.beta.kubernetes.io/app': 'runtime/default' } }, spec };
    const deployment = await warningsOf(server, '/apis/apps/v1/namespaces/default/deployments', { metadata: { name: 'warned' }, spec: { selector: { matchLabels: { app: 'w' } }, template } });
    expect(deployment.status).toBe(201);
    // The AppArmor annotation is warned of in a template (kube warns Pods of it another way), with the container's
    // other warnings.
    // A template's containers get no requests from their limits (kube defaults those for Pods only).
    const expected = EXPECTED('spec.template.').filter((w) => !w.includes('requests[memory]'));
    expected.splice(5, 0, 'spec.template.metadata.annotations[container.apparmor.security.beta.kubernetes.io/app]: deprecated since v1.30; use the "appArmorProfile" field instead');
    expect(deployment.warnings).toEqual(expected);
    const cron = await warningsOf(server, '/apis/batch/v1/namespaces/default/cronjobs', {
      metadata: { name: 'warned' },
      spec: { schedule: '@hourly', jobTemplate: { spec: { template: { spec: { ...spec, restartPolicy: 'Never', volumes: [{ name: 'old', rbd: { monitors: ['m'], image: 'i' } }] } } } } },
    });
    expect(cron.status).toBe(201);
    expect(cron.warnings).toContain('spec.jobTemplate.spec.template.spec.volumes[0].rbd: deprecated in v1.28, non-functional in v1.31+');
  });

  it('stays quick and bounded for a hostile pod whose warnings would grow with the square of its ports', async () => {
    const ports = Array.from({ length: 20_000 }, () => ({ containerPort: 80 }));
    const res = await warningsOf(server, '/api/v1/namespaces/default/pods', { metadata: { name: 'many-ports' }, spec: { containers: [{ name: 'app', image: 'nginx', ports }] } });
    expect(res.status).toBe(201);
    // What kube's recorder writes: the first warnings cut to 256 characters, 4,096 characters at most.
    expect(res.warnings[0]).toBe('spec.containers[0].ports[1]: duplicate port definition with spec.containers[0].ports[0]');
    expect(res.warnings.join('').length).toBeLessThanOrEqual(4096 + 256);
  });

  it('gives no warning for a Pod without such settings', async () => {
    const res = await warningsOf(server, '/api/v1/namespaces/default/pods', { metadata: { name: 'quiet' }, spec: { containers: [{ name: 'app', image: 'nginx', resources: { limits: { memory: '128Mi' } } }] } });
    expect(res).toEqual({ status: 201, warnings: [] });
  });
});

describe.skipIf(!kubectlBin)('Pod warnings through kubectl, against the built server', { timeout: 60_000 }, () => {
  let server: ServerProcess;
  const write = manifestWriter('kapi-pod-warnings-');
  const { kubectl } = kubectlOf(() => server);
  beforeAll(async () => {
    server = await startServerProcess(['--storage-backend=memory']);
  }, 60_000);
  afterAll(() => server?.stop());

  it('kubectl apply prints the warnings and creates the pod', async () => {
    const res = await kubectl(
      kubectlBin!.path,
      'apply',
      '-f',
      write('apiVersion: v1\nkind: Pod\nmetadata: {name: old}\nspec:\n  nodeSelector: {beta.kubernetes.io/arch: amd64}\n  containers: [{name: app, image: nginx}]\n'),
    );
    expect(res.status).toBe(0);
    expect(res.stderr).toContain('Warning: spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use "kubernetes.io/arch" instead');
    expect(res.stdout).toContain('pod/old created');
  });
});
