import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubectlBinaries, kubectlOk, kubectlRunner, type KubectlResult } from '../src/kubectl.js';
import { startServerProcess, type ServerProcess } from '../src/server.js';

const PYTHON = '/usr/bin/python3';
const hasPythonClient = existsSync(PYTHON) && spawnSync(PYTHON, ['-c', 'import kubernetes'], { stdio: 'ignore' }).status === 0;
const hasOpenssl = spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0;
const kubectl = kubectlBinaries()[0];
const MANIFEST = join(import.meta.dirname, 'manifests', 'shop.yaml');

describe.skipIf(!kubectl)('an ordinary application on the built-in kinds of kube 1.33, with kubectl', { timeout: 60_000 }, () => {
  let server: ServerProcess;
  let run: (...args: string[]) => KubectlResult;
  let ok: (...args: string[]) => string;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kapi-kinds-'));
    writeFileSync(join(dir, 'tokens.csv'), 'bob-token,bob,uid-bob\n');
    server = await startServerProcess(['--authorization-mode=RBAC', `--token-auth-file=${join(dir, 'tokens.csv')}`]);
    run = kubectlRunner(kubectl!.path, server.kubeconfig);
    ok = (...args) => kubectlOk(run, ...args);
    ok('create', 'namespace', 'shop');
    ok('create', 'namespace', 'shop-ssa');
  }, 60_000);
  afterAll(async () => server?.stop());

  it('kubectl apply creates every kind of the manifest, and a second apply changes nothing', () => {
    const first = ok('apply', '-n', 'shop', '-f', MANIFEST);
    const kinds = first.trim().split('\n').map((line) => line.replace(/ (created|configured|unchanged)$/, ''));
    expect(first.trim().split('\n').every((line) => line.endsWith(' created'))).toBe(true);
    expect(kinds).toEqual([
      'serviceaccount/shop', 'configmap/shop-config', 'secret/shop-db', 'deployment.apps/web', 'service/web', 'service/web-public',
      'ingress.networking.k8s.io/web', 'horizontalpodautoscaler.autoscaling/web', 'poddisruptionbudget.policy/web', 'cronjob.batch/report',
      'job.batch/migrate', 'networkpolicy.networking.k8s.io/web', 'persistentvolumeclaim/data', 'statefulset.apps/db', 'daemonset.apps/agent',
      'role.rbac.authorization.k8s.io/shop-reader', 'rolebinding.rbac.authorization.k8s.io/shop-reader', 'resourcequota/shop', 'limitrange/shop',
    ]);
    // kubectl itself sends a patch for a Secret's stringData, a PodDisruptionBudget's selector (patch strategy
    // replace) and a LimitRange's limits (a list without a merge key, which the server's defaulting of its items
    // makes differ from the manifest) on every apply, and says "configured", against kube too. The selector and
    // limits patches change nothing; the stringData one moves the manager's managedFields time, as kube's field
    // manager does, and nothing else.
    const version = (what: string) => () => ok('get', what, '-n', 'shop', '-o', 'jsonpath={.metadata.resourceVersion}');
    const [pdbVersion, limitsVersion] = [version('pdb/web'), version('limitrange/shop')];
    const secretData = () => ok('get', 'secret/shop-db', '-n', 'shop', '-o', 'jsonpath={.data}');
    const before = [pdbVersion(), limitsVersion(), secretData()];
    const again = ok('apply', '-n', 'shop', '-f', MANIFEST).trim().split('\n');
    expect(again.filter((line) => !line.endsWith(' unchanged'))).toEqual(['secret/shop-db configured', 'poddisruptionbudget.policy/web configured', 'limitrange/shop configured']);
    expect([pdbVersion(), limitsVersion(), secretData()]).toEqual(before);
    expect(before[2]).toBe('{"password":"czNjcjN0"}');
  });

  it('kubectl apply --server-side creates them too, and applying again is a no-op', () => {
    const first = ok('apply', '--server-side', '-n', 'shop-ssa', '-f', MANIFEST);
    expect(first.trim().split('\n')).toHaveLength(19);
    expect(first.trim().split('\n').every((line) => line.endsWith(' serverside-applied'))).toBe(true);
    const job = JSON.parse(ok('get', 'job', 'migrate', '-n', 'shop-ssa', '-o', 'json'));
    const before = job.metadata.resourceVersion;
    ok('apply', '--server-side', '-n', 'shop-ssa', '-f', MANIFEST);
    expect(JSON.parse(ok('get', 'job', 'migrate', '-n', 'shop-ssa', '-o', 'json')).metadata.resourceVersion).toBe(before);
  });

  it('kubectl get all lists what kube lists, with kube\'s columns', () => {
    const all = ok('get', 'all', '-n', 'shop');
    for (const name of [
      'service/web ', 'service/web-public ', 'daemonset.apps/agent ', 'deployment.apps/web ', 'statefulset.apps/db ',
      'horizontalpodautoscaler.autoscaling/web ', 'cronjob.batch/report ', 'job.batch/migrate ',
    ]) {
      expect(all).toContain(name);
    }
    expect(all).toMatch(/NAME +TYPE +CLUSTER-IP +EXTERNAL-IP +PORT\(S\) +AGE/);
    expect(all).toMatch(/service\/web +ClusterIP +10\.0\.0\.\d+ +<none> +80\/TCP/);
    expect(all).toMatch(/service\/web-public +NodePort +10\.0\.0\.\d+ +<none> +80:3\d{4}\/TCP/);
    expect(all).toMatch(/NAME +DESIRED +CURRENT +READY +UP-TO-DATE +AVAILABLE +NODE SELECTOR +AGE\ndaemonset\.apps\/agent +0 +0 +0 +0 +0 +<none>/);
    expect(all).toMatch(/NAME +READY +AGE\nstatefulset\.apps\/db +0\/1/);
    expect(all).toMatch(/NAME +REFERENCE +TARGETS +MINPODS +MAXPODS +REPLICAS +AGE\nhorizontalpodautoscaler\.autoscaling\/web +Deployment\/web +cpu: <unknown>\/70% +2 +6 +0/);
    expect(all).toMatch(/NAME +SCHEDULE +TIMEZONE +SUSPEND +ACTIVE +LAST SCHEDULE +AGE\ncronjob\.batch\/report +0 3 \* \* \* +<none> +False +0 +<none>/);
    expect(all).toMatch(/NAME +STATUS +COMPLETIONS +DURATION +AGE\njob\.batch\/migrate +Running +0\/1 /);
    const other = ok('get', 'ingress,pvc,netpol,pdb,quota,limits', '-n', 'shop');
    expect(other).toMatch(/ingress\.networking\.k8s\.io\/web +<none> +shop\.example\.com +80 /);
    expect(other).toMatch(/persistentvolumeclaim\/data +Pending +/);
    expect(other).toMatch(/networkpolicy\.networking\.k8s\.io\/web +app=web /);
    expect(other).toMatch(/poddisruptionbudget\.policy\/web +1 +N\/A +0 /);
  });

  it('kubectl describe shows the new kinds', () => {
    expect(ok('describe', 'cronjob', 'report', '-n', 'shop')).toMatch(/Schedule: +0 3 \* \* \*/);
    expect(ok('describe', 'ingress', 'web', '-n', 'shop')).toMatch(/shop\.example\.com\s+\/ +web:80/);
    expect(ok('describe', 'hpa', 'web', '-n', 'shop')).toMatch(/Min replicas: +2/);
    expect(ok('describe', 'statefulset', 'db', '-n', 'shop')).toMatch(/Replicas: +1 desired/);
    expect(ok('describe', 'service', 'web', '-n', 'shop')).toMatch(/IP: +10\.0\.0\.\d+/);
  });

  it('kubectl create job --from=cronjob, expose, create ingress and autoscale', () => {
    ok('create', 'job', 'report-now', '--from=cronjob/report', '-n', 'shop');
    const job = JSON.parse(ok('get', 'job', 'report-now', '-n', 'shop', '-o', 'json'));
    expect(job.metadata.ownerReferences[0]).toMatchObject({ kind: 'CronJob', name: 'report' });
    expect(job.spec.selector).toEqual({ matchLabels: { 'batch.kubernetes.io/controller-uid': job.metadata.uid } });
    expect(job.spec.template.metadata.labels).toMatchObject({ 'batch.kubernetes.io/job-name': 'report-now', 'job-name': 'report-now' });

    ok('expose', 'deployment', 'web', '--name=web-alt', '--port=8080', '--target-port=80', '-n', 'shop');
    const exposed = JSON.parse(ok('get', 'service', 'web-alt', '-n', 'shop', '-o', 'json'));
    expect(exposed.spec.clusterIP).toMatch(/^10\.0\.0\.\d+$/);
    expect(exposed.spec.selector).toEqual({ app: 'web' });

    ok('create', 'ingress', 'simple', '--rule=foo.example.com/bar=web:80', '-n', 'shop');
    expect(ok('get', 'ingress', 'simple', '-n', 'shop')).toMatch(/simple +<none> +foo\.example\.com +80 /);

    ok('autoscale', 'statefulset', 'db', '--min=1', '--max=3', '--cpu-percent=60', '-n', 'shop');
    const hpa = JSON.parse(ok('get', 'hpa', 'db', '-n', 'shop', '-o', 'json'));
    expect(hpa).toMatchObject({ apiVersion: 'autoscaling/v2', spec: { minReplicas: 1, maxReplicas: 3, scaleTargetRef: { kind: 'StatefulSet', name: 'db' } } });
  });

  it('a Job whose pods would restart Always, or whose template changes, is refused as kube refuses it', () => {
    const always = run('create', 'job', 'bad', '--image=busybox', '-n', 'shop', '--dry-run=server', '-o', 'json');
    expect(always.status).toBe(0); // kubectl create job sets restartPolicy Never
    const manifest = JSON.parse(ok('get', 'job', 'migrate', '-n', 'shop', '-o', 'json'));
    manifest.spec.template.spec.containers[0].image = 'busybox:1.37';
    writeFileSync(join(dir, 'job.json'), JSON.stringify(manifest));
    const changed = run('replace', '-f', join(dir, 'job.json'));
    expect(changed.status).not.toBe(0);
    expect(changed.stderr).toContain('The Job "migrate" is invalid: spec.template: Invalid value: field is immutable');
  });

  it('kubectl patch grows a Bound claim only when its StorageClass allows volume expansion, as kube does', () => {
    const grow = (name: string, storage: string) => run('patch', 'pvc', name, '-n', 'shop', '-p', JSON.stringify({ spec: { resources: { requests: { storage } } } }));
    const bind = (name: string) =>
      ok('patch', 'pvc', name, '-n', 'shop', '--subresource=status', '--type=merge', '-p', JSON.stringify({ status: { phase: 'Bound', capacity: { storage: '1Gi' } } }));
    // The manifest's claim is Pending (nothing binds it): its request cannot change.
    const pending = grow('data', '2Gi');
    expect(pending.status).not.toBe(0);
    expect(pending.stderr).toContain(
      'The PersistentVolumeClaim "data" is invalid: spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
    );
    // Bound, but without a StorageClass that allows expansion: 403 from PersistentVolumeClaimResize.
    bind('data');
    const refused = grow('data', '2Gi');
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain(
      'persistentvolumeclaims "data" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize',
    );
    writeFileSync(join(dir, 'expandable.json'), JSON.stringify({
      apiVersion: 'v1', kind: 'List', items: [
        { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'expandable' }, provisioner: 'example.com/disk', allowVolumeExpansion: true },
        { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'grows', namespace: 'shop' }, spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'expandable', resources: { requests: { storage: '1Gi' } } } },
      ],
    }));
    ok('create', '-f', join(dir, 'expandable.json'));
    // A claim without access modes or a storage request is refused with kube's message.
    writeFileSync(join(dir, 'bare-claim.json'), JSON.stringify({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'bare', namespace: 'shop' }, spec: { storageClassName: 'expandable' } }));
    const bare = run('create', '-f', join(dir, 'bare-claim.json'));
    expect(bare.status).not.toBe(0);
    expect(bare.stderr).toContain(
      'The PersistentVolumeClaim "bare" is invalid: \n* spec.accessModes: Required value: at least 1 access mode is required\n* spec.resources[storage]: Required value',
    );
    bind('grows');
    expect(grow('grows', '5Gi').stdout).toContain('persistentvolumeclaim/grows patched');
    expect(ok('get', 'pvc', 'grows', '-n', 'shop', '-o', 'jsonpath={.spec.resources.requests.storage}')).toBe('5Gi');
  });

  it.skipIf(!hasOpenssl)('kubectl certificate approve records the decision; without approve on the signer it is 403, and /status cannot decide', () => {
    execFileSync('openssl', ['req', '-new', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'u.key'), '-subj', '/CN=jane', '-out', join(dir, 'u.csr')], { stdio: 'ignore' });
    const csr = (name: string) => ({
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { name },
      spec: { request: readFileSync(join(dir, 'u.csr')).toString('base64'), signerName: 'kubernetes.io/kube-apiserver-client', usages: ['client auth'] },
    });
    writeFileSync(join(dir, 'csr.json'), JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [csr('jane'), csr('mallory')] }));
    ok('create', '-f', join(dir, 'csr.json'));
    expect(ok('get', 'csr', 'jane')).toMatch(/jane +\S+ +kubernetes\.io\/kube-apiserver-client +kapi-admin +<none> +Pending/);
    expect(ok('certificate', 'approve', 'jane')).toContain('approved');
    expect(ok('get', 'csr', 'jane')).toMatch(/ Approved\n$/);

    // bob may update CSR approvals but not approve for the signer.
    ok('create', 'clusterrole', 'csr-approval', '--verb=get,update', '--resource=certificatesigningrequests,certificatesigningrequests/approval,certificatesigningrequests/status');
    ok('create', 'clusterrolebinding', 'bob-csr', '--clusterrole=csr-approval', '--user=bob');
    const bobConfig = join(dir, 'bob.kubeconfig');
    const admin = JSON.parse(ok('config', 'view', '--raw', '-o', 'json'));
    admin.users = [{ name: 'bob', user: { token: 'bob-token' } }];
    admin.contexts[0].context.user = 'bob';
    writeFileSync(bobConfig, JSON.stringify(admin));
    const asBob = kubectlRunner(kubectl!.path, bobConfig);
    const denied = asBob('certificate', 'approve', 'mallory');
    expect(denied.status).not.toBe(0);
    expect(denied.stderr).toContain('user not permitted to approve requests with signerName "kubernetes.io/kube-apiserver-client"');
    const viaStatus = JSON.parse(ok('get', 'csr', 'mallory', '-o', 'json'));
    viaStatus.status = { conditions: [{ type: 'Approved', status: 'True', reason: 'Sneaky', message: '' }] };
    writeFileSync(join(dir, 'status.json'), JSON.stringify(viaStatus));
    const sneaky = asBob('replace', '--subresource=status', '-f', join(dir, 'status.json'));
    expect(sneaky.status).not.toBe(0);
    expect(sneaky.stderr).toContain('status.conditions: Forbidden: updates may not add a condition of type "Approved"');
    expect(ok('get', 'csr', 'mallory')).toMatch(/ Pending\n$/);
  });

  it('kubectl create token gives the application\'s service account a token for the API', () => {
    const token = ok('create', 'token', 'shop', '-n', 'shop').trim();
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
    expect(claims.sub).toBe('system:serviceaccount:shop:shop');
  });

  it('the kubernetes Service, its endpoints and the system PriorityClasses exist as in kube', () => {
    expect(ok('get', 'service', 'kubernetes', '-n', 'default')).toMatch(/kubernetes +ClusterIP +10\.0\.0\.1 +<none> +443\/TCP/);
    const endpoints = JSON.parse(ok('get', 'endpoints', 'kubernetes', '-n', 'default', '-o', 'json'));
    expect(endpoints.subsets).toEqual([{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: Number(new URL(server.url).port), protocol: 'TCP' }] }]);
    expect(ok('get', 'priorityclasses', '-o', 'name')).toBe('priorityclass.scheduling.k8s.io/system-cluster-critical\npriorityclass.scheduling.k8s.io/system-node-critical\n');
  });

  it.skipIf(!hasPythonClient)('python3-kubernetes creates a Job and a CronJob with the typed batch/v1 API', () => {
    const res = spawnSync(PYTHON, [join(import.meta.dirname, 'python/batch.py'), server.kubeconfig, 'shop'], { encoding: 'utf8', timeout: 60_000 });
    expect(res.stderr).toBe('');
    expect(JSON.parse(res.stdout)).toEqual({
      job: { uidLabel: true, jobName: 'py-job', selector: true, completions: 1, backoffLimit: 6, replacedLabels: { replaced: 'yes' } },
      cron: { schedule: '*/10 * * * *', concurrencyPolicy: 'Allow', successfulJobsHistoryLimit: 3, listed: ['py-cron', 'report'] },
    });
  });
});
