// kube 1.33's ServiceAccount admission plugin, as clients see it: a new Pod runs as an existing ServiceAccount
// (`default` unless it names one) with its API credentials mounted; a static pod references none.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiServer } from '@kapi/apiserver';
import { startCoreServer, type JsonResponse } from '../src/core-server.js';
import { kubectlBinaries, kubectlOf } from '../src/kubectl.js';
import { startServerProcess, type ServerProcess } from '../src/server.js';

const kubectlBin = kubectlBinaries()[0];
const opensslBin = spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0 ? 'openssl' : undefined;
const MOUNT = '/var/run/secrets/kubernetes.io/serviceaccount';

describe('ServiceAccount admission (kube 1.33 plugin/pkg/admission/serviceaccount)', { timeout: 30_000 }, () => {
  let server: ApiServer;
  let req: (method: string, path: string, body?: unknown, contentType?: string) => Promise<JsonResponse>;
  beforeAll(async () => {
    ({ server, req } = await startCoreServer());
  });
  afterAll(() => server?.stop());
  const pod = (name: string, spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}) => ({
    metadata: { name, ...metadata },
    spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec },
  });
  const create = async (ns: string, body: unknown) => {
    const res = await req('POST', `/api/v1/namespaces/${ns}/pods`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  };

  it('runs a new pod as the default account, with a projected token, CA and namespace volume mounted in every container', async () => {
    const created = await create('default', pod('plain', { initContainers: [{ name: 'init', image: 'busybox' }] }));
    expect(created.spec.serviceAccountName).toBe('default');
    // The deprecated serviceAccount field follows, as kube's defaulting has it.
    expect(created.spec.serviceAccount).toBe('default');
    const volume = created.spec.volumes.find((v: any) => v.name.startsWith('kube-api-access-'));
    expect(volume.name).toMatch(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(volume.projected).toEqual({
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
      defaultMode: 420,
    });
    for (const c of [...created.spec.containers, ...created.spec.initContainers]) {
      expect(c.volumeMounts).toEqual([{ name: volume.name, readOnly: true, mountPath: MOUNT }]);
    }
    // A dry run is admitted the same way and stores nothing.
    const dry = await req('POST', '/api/v1/namespaces/default/pods?dryRun=All', pod('dry'));
    expect(dry.body.spec.serviceAccountName).toBe('default');
    expect((await req('GET', '/api/v1/namespaces/default/pods/dry')).status).toBe(404);
  });

  it('mounts nothing when the pod or its account opts out, nor where a container has its own mount', async () => {
    expect((await req('POST', '/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'quiet' }, automountServiceAccountToken: false, imagePullSecrets: [{ name: 'regcred' }] })).status).toBe(201);
    const optedOut = await create('default', pod('opted-out', { automountServiceAccountToken: false }));
    expect(optedOut.spec.volumes).toBeUndefined();
    expect(optedOut.spec.containers[0].volumeMounts).toBeUndefined();
    const quiet = await create('default', pod('quiet', { serviceAccountName: 'quiet' }));
    expect(quiet.spec.volumes).toBeUndefined();
    // The account's pull secrets are the pod's when it names none.
    expect(quiet.spec.imagePullSecrets).toEqual([{ name: 'regcred' }]);
    // The pod's own choice wins over its account's.
    const optedIn = await create('default', pod('opted-in', { serviceAccountName: 'quiet', automountServiceAccountToken: true, imagePullSecrets: [{ name: 'mine' }] }));
    expect(optedIn.spec.volumes.map((v: any) => v.name)).toEqual([expect.stringMatching(/^kube-api-access-/)]);
    expect(optedIn.spec.imagePullSecrets).toEqual([{ name: 'mine' }]);
    const own = await create(
      'default',
      pod('own-mount', {
        volumes: [{ name: 'mine', emptyDir: {} }],
        containers: [
          { name: 'app', image: 'nginx', volumeMounts: [{ name: 'mine', mountPath: MOUNT }] },
          { name: 'side', image: 'nginx' },
        ],
      }),
    );
    expect(own.spec.containers[0].volumeMounts).toEqual([{ name: 'mine', mountPath: MOUNT }]);
    expect(own.spec.containers[1].volumeMounts[0].mountPath).toBe(MOUNT);
  });

  it('refuses a pod naming an account that does not exist, and waits for the default account of a new namespace', async () => {
    const missing = await req('POST', '/api/v1/namespaces/default/pods', pod('lost', { serviceAccountName: 'nope' }));
    expect(missing.status).toBe(403);
    expect(missing.body.message).toBe('pods "lost" is forbidden: error looking up service account default/nope: serviceaccount "nope" not found');
    const generated = await req('POST', '/api/v1/namespaces/default/pods', { ...pod(''), metadata: { generateName: 'lost-' }, spec: { ...pod('').spec, serviceAccountName: 'nope' } });
    expect(generated.body.message).toBe('pods "lost-" is forbidden: error looking up service account default/nope: serviceaccount "nope" not found');
    // A pod created as soon as its namespace is: the account is made by the controller meanwhile.
    expect((await req('POST', '/api/v1/namespaces', { metadata: { name: 'fresh' } })).status).toBe(201);
    const fresh = await create('fresh', pod('first'));
    expect(fresh.spec.serviceAccountName).toBe('default');
  });

  it('takes the deprecated serviceAccount field as the account name, in pods and templates, and writes it back as an alias', async () => {
    const aliased = await create('default', pod('aliased', { serviceAccount: 'quiet' }));
    expect([aliased.spec.serviceAccountName, aliased.spec.serviceAccount]).toEqual(['quiet', 'quiet']);
    // The new field wins.
    const both = await create('default', pod('both', { serviceAccountName: 'default', serviceAccount: 'quiet' }));
    expect([both.spec.serviceAccountName, both.spec.serviceAccount]).toEqual(['default', 'default']);
    const deployment = {
      metadata: { name: 'old-manifest' },
      spec: { selector: { matchLabels: { app: 'old' } }, template: { metadata: { labels: { app: 'old' } }, spec: { serviceAccount: 'builder', containers: [{ name: 'app', image: 'nginx' }] } } },
    };
    const res = await req('POST', '/apis/apps/v1/namespaces/default/deployments', deployment);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect([res.body.spec.template.spec.serviceAccountName, res.body.spec.template.spec.serviceAccount]).toEqual(['builder', 'builder']);
  });

  it('leaves a static (mirror) pod unchanged, and refuses one that references an account or a secret', async () => {
    const mirror = { 'kubernetes.io/config.mirror': 'hash' };
    const plain = await create('default', pod('static-plain', { nodeName: 'node-1' }, { annotations: mirror }));
    expect(plain.spec.serviceAccountName).toBeUndefined();
    expect(plain.spec.volumes).toBeUndefined();
    const refusals: [Record<string, unknown>, string][] = [
      [{ serviceAccountName: 'default' }, 'a mirror pod may not reference service accounts'],
      [{ volumes: [{ name: 's', secret: { secretName: 'x' } }] }, 'a mirror pod may not reference secrets'],
      [{ containers: [{ name: 'app', image: 'nginx', env: [{ name: 'A', valueFrom: { secretKeyRef: { name: 'x', key: 'k' } } }] }] }, 'a mirror pod may not reference secrets'],
    ];
    for (const [i, [spec, message]] of refusals.entries()) {
      const res = await req('POST', '/api/v1/namespaces/default/pods', pod(`static-${i}`, { nodeName: 'node-1', ...spec }, { annotations: mirror }));
      expect(res.status, JSON.stringify(spec)).toBe(403);
      expect(res.body.message).toBe(`pods "static-${i}" is forbidden: ${message}`);
    }
  });

  it('holds the pods of an account that enforces mountable secrets to the secrets it lists, ephemeral containers too', async () => {
    const ns = 'default';
    const account = (name: string, enforce: string) => ({
      metadata: { name, annotations: { 'kubernetes.io/enforce-mountable-secrets': enforce } },
      secrets: [{ name: 'listed' }],
      imagePullSecrets: [{ name: 'regcred' }],
    });
    expect((await req('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, account('strict', 'true'))).status).toBe(201);
    // Go's ParseBool: "yes" is not true, so that account enforces nothing.
    expect((await req('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, account('lenient', 'yes'))).status).toBe(201);
    const env = (ref: Record<string, unknown>) => ({ name: 'app', image: 'nginx', ...ref });
    const refusals: [Record<string, unknown>, string][] = [
      [{ volumes: [{ name: 'v', secret: { secretName: 'other' } }] }, 'volume with secret.secretName="other" is not allowed because service account strict does not reference that secret'],
      [
        { containers: [env({ env: [{ name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'other', key: 'k' } } }] })] },
        'container app with envVar TOKEN referencing secret.secretName="other" is not allowed because service account strict does not reference that secret',
      ],
      [
        { initContainers: [{ name: 'init', image: 'busybox', envFrom: [{ secretRef: { name: 'other' } }] }] },
        'init container init with envFrom referencing secret.secretName="other" is not allowed because service account strict does not reference that secret',
      ],
      [{ imagePullSecrets: [{ name: 'regcred' }, { name: 'stolen' }] }, 'imagePullSecrets[1].name="stolen" is not allowed because service account strict does not reference that imagePullSecret'],
    ];
    for (const [i, [spec, message]] of refusals.entries()) {
      const res = await req('POST', `/api/v1/namespaces/${ns}/pods`, pod(`strict-${i}`, { serviceAccountName: 'strict', ...spec }));
      expect(res.status, JSON.stringify(spec)).toBe(403);
      expect(res.body.message).toBe(`pods "strict-${i}" is forbidden: ${message}`);
      // The same pod under an account that does not enforce is admitted.
      expect((await req('POST', `/api/v1/namespaces/${ns}/pods`, pod(`lenient-${i}`, { serviceAccountName: 'lenient', ...spec }))).status).toBe(201);
    }
    // What the account lists is allowed; a projected secret is not among kube's checks.
    const allowed = await create(
      ns,
      pod('strict-ok', {
        serviceAccountName: 'strict',
        volumes: [{ name: 'v', secret: { secretName: 'listed' } }, { name: 'p', projected: { sources: [{ secret: { name: 'other' } }] } }],
        containers: [env({ envFrom: [{ secretRef: { name: 'listed' } }] })],
      }),
    );
    expect(allowed.spec.imagePullSecrets).toEqual([{ name: 'regcred' }]);
    // kubectl debug's subresource: an ephemeral container's environment is held to the same list.
    const debug = (name: string, ref: string) =>
      req(
        'PATCH',
        `/api/v1/namespaces/${ns}/pods/strict-ok/ephemeralcontainers`,
        { spec: { ephemeralContainers: [{ name, image: 'busybox', env: [{ name: 'S', valueFrom: { secretKeyRef: { name: ref, key: 'k' } } }] }] } },
        'application/strategic-merge-patch+json',
      );
    const refused = await debug('dbg', 'other');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('pods "strict-ok" is forbidden: ephemeral container dbg with envVar S referencing secret.secretName="other" is not allowed because service account strict does not reference that secret');
    expect((await debug('dbg', 'listed')).status).toBe(200);
  });
});

describe("kube's root CA publisher: kube-root-ca.crt in every namespace", { timeout: 30_000 }, () => {
  const CA = '-----BEGIN CERTIFICATE-----\nMIIBtest\n-----END CERTIFICATE-----\n';
  let server: ApiServer;
  let request: (method: string, path: string, body?: unknown, contentType?: string) => Promise<JsonResponse>;
  beforeAll(async () => {
    ({ server, req: request } = await startCoreServer({ rootCA: CA }));
  });
  afterAll(() => server?.stop());
  const req = (method: string, path: string, body?: unknown) => request(method, path, body, 'application/merge-patch+json');
  /** The ConfigMap once the publisher has (re)written it as `ok` expects. */
  const published = async (ns: string, ok: (cm: any) => boolean) => {
    for (let i = 0; i < 200; i++) {
      const res = await req('GET', `/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`);
      if (res.status === 200 && ok(res.body)) return res.body;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`kube-root-ca.crt never published in ${ns}`);
  };

  it('is made with each namespace, and put back when deleted or changed', async () => {
    const cm = await published('default', () => true);
    expect(cm.data).toEqual({ 'ca.crt': CA });
    expect(cm.metadata.annotations['kubernetes.io/description']).toMatch(/^Contains a CA bundle that can be used to verify the kube-apiserver/);
    expect((await request('POST', '/api/v1/namespaces', { metadata: { name: 'later' } })).status).toBe(201);
    expect((await published('later', () => true)).data).toEqual({ 'ca.crt': CA });
    expect((await req('PATCH', '/api/v1/namespaces/later/configmaps/kube-root-ca.crt', { data: { 'ca.crt': 'forged', extra: 'x' } })).status).toBe(200);
    expect((await published('later', (c) => c.data['ca.crt'] === CA)).data).toEqual({ 'ca.crt': CA });
    expect((await req('DELETE', '/api/v1/namespaces/later/configmaps/kube-root-ca.crt')).status).toBe(200);
    expect((await published('later', () => true)).data).toEqual({ 'ca.crt': CA });
  });
});

describe.skipIf(!kubectlBin)('ServiceAccount admission through kubectl, against the built server', { timeout: 60_000 }, () => {
  let server: ServerProcess;
  const { kubectl, ok } = kubectlOf(() => server);
  beforeAll(async () => {
    server = await startServerProcess(['--storage-backend=memory']);
  }, 60_000);
  afterAll(() => server?.stop());

  it('kubectl run makes a pod running as the default account with its token mounted; kubectl describe shows it', async () => {
    await ok(kubectlBin!.path, 'run', 'web', '--image=nginx');
    expect(await ok(kubectlBin!.path, 'get', 'pod', 'web', '-o', 'jsonpath={.spec.serviceAccountName} {.spec.containers[0].volumeMounts[0].mountPath}')).toBe(`default ${MOUNT}`);
    const described = await ok(kubectlBin!.path, 'describe', 'pod', 'web');
    expect(described).toMatch(/Service Account:\s+default/);
    expect(described).toMatch(/kube-api-access-\w{5}:\n\s+Type:\s+Projected/);
    // The CA the projected volume mounts: the one that signed the server's generated certificate.
    const published = await ok(kubectlBin!.path, 'get', 'configmap', 'kube-root-ca.crt', '-o', 'jsonpath={.data.ca\\.crt}');
    expect(published.trim()).toBe(readFileSync(join(server.dataDir, 'ca.crt'), 'utf8').trim());
    const missing = await kubectl(kubectlBin!.path, 'run', 'lost', '--image=nginx', '--overrides={"spec":{"serviceAccountName":"nope"}}');
    expect(missing.stderr).toContain('Error from server (Forbidden): pods "lost" is forbidden: error looking up service account default/nope: serviceaccount "nope" not found');
  });
});

describe.skipIf(!kubectlBin || !opensslBin)('--root-ca-file: the bundle kube-root-ca.crt publishes', { timeout: 60_000 }, () => {
  let server: ServerProcess;
  const { ok } = kubectlOf(() => server);
  let bundle: string;
  beforeAll(async () => {
    // A CA of the operator's own (as with a --tls-cert-file signed elsewhere and given without its chain).
    const dir = mkdtempSync(join(tmpdir(), 'kapi-root-ca-'));
    execFileSync(opensslBin!, ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', join(dir, 'ca.key'), '-out', join(dir, 'ca.crt'), '-subj', '/CN=operator-ca', '-days', '1'], { stdio: 'ignore' });
    bundle = readFileSync(join(dir, 'ca.crt'), 'utf8');
    server = await startServerProcess(['--storage-backend=memory', `--root-ca-file=${join(dir, 'ca.crt')}`]);
  }, 60_000);
  afterAll(() => server?.stop());

  it('is published as every namespace\'s kube-root-ca.crt instead of the serving certificate\'s CA', async () => {
    let published = '';
    for (let i = 0; i < 100 && !published; i++) {
      published = await ok(kubectlBin!.path, 'get', 'configmap', 'kube-root-ca.crt', '-n', 'kube-system', '-o', 'jsonpath={.data.ca\\.crt}').catch(() => '');
      if (!published) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // The file as it is, byte for byte.
    expect(published).toBe(bundle);
    expect(published.trim()).not.toBe(readFileSync(join(server.dataDir, 'ca.crt'), 'utf8').trim());
  });
});
