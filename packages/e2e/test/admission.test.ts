// Admission webhooks and ValidatingAdmissionPolicies through real clients: kubectl (1.32 and 1.33), the Python
// client and @kubernetes/client-node against the sample server, with a real HTTPS webhook served here (a test CA)
// that mutates Pods (a label and a sidecar) and denies ConfigMaps with a forbidden key.
import * as k8s from '@kubernetes/client-node';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePki } from '../../admission-webhooks/test/tls.js';
import { patchOf, startWebhook, type TestWebhook } from '../../admission-webhooks/test/webhook-server.js';
import { kubectlBinaries, kubectlOf, runAsync } from '../src/kubectl.js';
import { manifestWriter } from '../src/manifests.js';
import { startServerProcess, type ServerProcess } from '../src/server.js';

const PYTHON = '/usr/bin/python3';
const hasPythonClient = existsSync(PYTHON) && spawnSync(PYTHON, ['-c', 'import kubernetes'], { stdio: 'ignore' }).status === 0;
const hasOpenssl = spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0;
const kubectls = kubectlBinaries();
const manifest = manifestWriter('kapi-admission-');

describe.skipIf(!kubectls.length || !hasOpenssl)('admission webhooks with kubectl and client libraries', { timeout: 120_000 }, () => {
  let server: ServerProcess;
  let wh: TestWebhook;
  const { kubectl, ok } = kubectlOf(() => server);
  const main = kubectls[0].path;

  beforeAll(async () => {
    const pki = makePki();
    wh = await startWebhook(pki);
    wh.handle('/mutate-pods', () => ({
      allowed: true,
      ...patchOf([
        { op: 'add', path: '/metadata/labels', value: { injected: 'true' } },
        { op: 'add', path: '/spec/containers/-', value: { name: 'sidecar', image: 'busybox' } },
      ]),
    }));
    wh.handle('/validate-configmaps', (req) =>
      req.object && 'forbidden' in (req.object.data ?? {})
        ? { allowed: false, status: { code: 403, reason: 'Forbidden', message: 'the key "forbidden" is not allowed' } }
        : { allowed: true },
    );
    server = await startServerProcess();
    await ok(main, 'create', 'namespace', 'adm');
    const clientConfig = (path: string) => `    clientConfig:\n      url: ${wh.url(path)}\n      caBundle: ${pki.caBundle}\n`;
    await ok(main, 'apply', '-f', manifest(
      'apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingWebhookConfiguration\nmetadata:\n  name: pod-injector\nwebhooks:\n' +
        '  - name: inject.kapi.example.com\n    admissionReviewVersions: [v1]\n    sideEffects: None\n' +
        '    rules:\n      - {apiGroups: [""], apiVersions: [v1], resources: [pods], operations: [CREATE]}\n' +
        '    namespaceSelector:\n      matchExpressions: [{key: kubernetes.io/metadata.name, operator: In, values: [adm]}]\n' +
        clientConfig('/mutate-pods') +
        '---\napiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata:\n  name: configmap-policy\nwebhooks:\n' +
        '  - name: deny.kapi.example.com\n    admissionReviewVersions: [v1]\n    sideEffects: None\n    timeoutSeconds: 5\n' +
        '    rules:\n      - {apiGroups: [""], apiVersions: [v1], resources: [configmaps], operations: [CREATE, UPDATE]}\n' +
        '    namespaceSelector:\n      matchExpressions: [{key: kubernetes.io/metadata.name, operator: In, values: [adm]}]\n' +
        clientConfig('/validate-configmaps'),
    ));
    // A configuration takes effect within a second.
    for (let i = 0; i < 50 && !wh.reviews.some((r) => r.path === '/validate-configmaps'); i++) {
      await kubectl(main, 'create', 'configmap', 'probe', '-n', 'adm', '--dry-run=server');
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await wh?.close();
  });

  it('kubectl lists the configurations with kube\'s columns', async () => {
    const table = (await ok(main, 'get', 'mutatingwebhookconfigurations,validatingwebhookconfigurations')).trim().split('\n');
    expect(table[0].split(/\s+/)).toEqual(['NAME', 'WEBHOOKS', 'AGE']);
    expect(table.some((l) => /^mutatingwebhookconfiguration.admissionregistration.k8s.io\/pod-injector\s+1\s/.test(l))).toBe(true);
  });

  for (const { name, path } of kubectls) {
    it(`kubectl ${name} sees the webhook's mutation and its denial message`, async () => {
      const pod = `web-${name.replaceAll('.', '-')}`;
      await ok(path, 'run', pod, '-n', 'adm', '--image=nginx');
      const got = JSON.parse(await ok(path, 'get', 'pod', pod, '-n', 'adm', '-o', 'json'));
      expect(got.metadata.labels).toMatchObject({ injected: 'true' });
      expect(got.spec.containers.map((c: { name: string }) => c.name)).toEqual([pod, 'sidecar']);

      const denied = await kubectl(path, 'create', 'configmap', `bad-${pod}`, '-n', 'adm', '--from-literal=forbidden=1');
      expect(denied.status).not.toBe(0);
      expect(denied.stderr).toContain('admission webhook "deny.kapi.example.com" denied the request: the key "forbidden" is not allowed');
      expect((await kubectl(path, 'get', 'configmap', `bad-${pod}`, '-n', 'adm')).status).not.toBe(0);
      expect(await ok(path, 'create', 'configmap', `good-${pod}`, '-n', 'adm', '--from-literal=fine=1')).toContain('created');
    });
  }

  it('kubectl --dry-run=server reaches a sideEffects None webhook with dryRun true and stores nothing', async () => {
    wh.reviews.length = 0;
    const out = await kubectl(main, 'create', 'configmap', 'dry', '-n', 'adm', '--from-literal=forbidden=1', '--dry-run=server');
    expect(out.status).not.toBe(0);
    const review = wh.reviews.find((r) => r.path === '/validate-configmaps')!.review.request;
    expect(review.dryRun).toBe(true);
    expect(review.options.dryRun).toEqual(['All']);
    expect(review.options.fieldManager).toBe('kubectl-create');
  });

  it.skipIf(!hasPythonClient)('python3-kubernetes: the mutated Pod comes back; the denial is a 403 ApiException with the message', async () => {
    const res = await runAsync(PYTHON, [join(import.meta.dirname, 'python/admission.py'), server.kubeconfig, 'adm']);
    expect(res.status, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(out.podLabels).toEqual({ injected: 'true' });
    expect(out.containers).toEqual(['app', 'sidecar']);
    expect(out.denied).toEqual({ status: 403, message: 'admission webhook "deny.kapi.example.com" denied the request: the key "forbidden" is not allowed' });
  });

  it('@kubernetes/client-node creates a Pod the webhook mutates, and gets the denial as an ApiException', async () => {
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(server.kubeconfig);
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const pod = await core.createNamespacedPod({ namespace: 'adm', body: { metadata: { name: 'node-pod' }, spec: { containers: [{ name: 'app', image: 'nginx' }] } } });
    expect(pod.metadata?.labels).toEqual({ injected: 'true' });
    expect(pod.spec?.containers.map((c) => c.name)).toEqual(['app', 'sidecar']);
    const err = await core.createNamespacedConfigMap({ namespace: 'adm', body: { metadata: { name: 'node-cm' }, data: { forbidden: 'x' } } }).catch((e) => e);
    expect(err.code).toBe(403);
    expect(JSON.parse(err.body).message).toBe('admission webhook "deny.kapi.example.com" denied the request: the key "forbidden" is not allowed');
  });
});

describe.skipIf(!kubectls.length)('ValidatingAdmissionPolicy with kubectl', { timeout: 120_000 }, () => {
  let server: ServerProcess;
  const { kubectl, ok } = kubectlOf(() => server);
  const main = kubectls[0].path;
  const policy = (actions: string) =>
    manifest(`apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: replica-limit
spec:
  failurePolicy: Fail
  paramKind: {apiVersion: v1, kind: ConfigMap}
  matchConstraints:
    resourceRules:
      - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments]}
  validations:
    - expression: "object.spec.replicas <= int(params.data.maxReplicas)"
      messageExpression: "'replicas must be no greater than ' + params.data.maxReplicas"
      reason: Invalid
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: replica-limit-binding
spec:
  policyName: replica-limit
  validationActions: [${actions}]
  paramRef: {name: replica-limits, namespace: vap, parameterNotFoundAction: Deny}
  matchResources:
    namespaceSelector:
      matchLabels: {kubernetes.io/metadata.name: vap}
`);

  beforeAll(async () => {
    server = await startServerProcess();
    await ok(main, 'create', 'namespace', 'vap');
    await ok(main, 'create', 'configmap', 'replica-limits', '-n', 'vap', '--from-literal=maxReplicas=3');
  }, 60_000);
  afterAll(() => server?.stop());

  /** Waits until the policy's binding acts (a configuration change takes effect within a second). */
  const until = async (check: () => Promise<boolean>) => {
    for (let i = 0; i < 50; i++) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the policy did not take effect');
  };

  for (const { name, path } of kubectls) {
    it(`kubectl ${name}: Deny refuses a Deployment over the param's limit; Warn lets it through and kubectl prints the warning`, async () => {
      await ok(path, 'apply', '-f', policy('Deny'));
      const big = `big-${name.replace('.', '-')}`;
      await until(async () => (await kubectl(path, 'create', 'deployment', 'probe', '-n', 'vap', '--image=nginx', '--replicas=9', '--dry-run=server')).status !== 0);
      const denied = await kubectl(path, 'create', 'deployment', big, '-n', 'vap', '--image=nginx', '--replicas=5');
      expect(denied.status).not.toBe(0);
      expect(denied.stderr).toContain(
        `deployments.apps "${big}" is forbidden: ValidatingAdmissionPolicy 'replica-limit' with binding 'replica-limit-binding' denied request: replicas must be no greater than 3`,
      );
      expect(await ok(path, 'create', 'deployment', `small-${big}`, '-n', 'vap', '--image=nginx', '--replicas=2')).toContain('created');

      await ok(path, 'apply', '-f', policy('Warn, Audit'));
      await until(async () => (await kubectl(path, 'create', 'deployment', 'probe', '-n', 'vap', '--image=nginx', '--replicas=9', '--dry-run=server')).status === 0);
      const warned = await kubectl(path, 'create', 'deployment', big, '-n', 'vap', '--image=nginx', '--replicas=5');
      expect(warned.status, warned.stderr).toBe(0);
      expect(warned.stderr).toContain(
        `Warning: Validation failed for ValidatingAdmissionPolicy 'replica-limit' with binding 'replica-limit-binding': replicas must be no greater than 3`,
      );
      await ok(path, 'delete', 'deployment', big, `small-${big}`, '-n', 'vap');
      await ok(path, 'delete', 'validatingadmissionpolicybinding', 'replica-limit-binding');
    });
  }

  it('kubectl get shows policies and bindings with kube\'s columns, and the policy\'s status', async () => {
    await ok(main, 'apply', '-f', policy('Deny'));
    const policies = (await ok(main, 'get', 'validatingadmissionpolicies')).trim().split('\n').map((l) => l.split(/\s{2,}/));
    expect(policies[0]).toEqual(['NAME', 'VALIDATIONS', 'PARAMKIND', 'AGE']);
    expect(policies[1].slice(0, 3)).toEqual(['replica-limit', '1', 'v1/ConfigMap']);
    const bindings = (await ok(main, 'get', 'validatingadmissionpolicybindings')).trim().split('\n').map((l) => l.split(/\s{2,}/));
    expect(bindings[0]).toEqual(['NAME', 'POLICYNAME', 'PARAMREF', 'AGE']);
    expect(bindings[1].slice(0, 3)).toEqual(['replica-limit-binding', 'replica-limit', 'vap/replica-limits']);
    await until(async () => (await ok(main, 'get', 'validatingadmissionpolicy', 'replica-limit', '-o', 'jsonpath={.status.observedGeneration}')) !== '');
    expect(JSON.parse(await ok(main, 'get', 'validatingadmissionpolicy', 'replica-limit', '-o', 'jsonpath={.status}'))).toMatchObject({ typeChecking: {} });
  });
});
