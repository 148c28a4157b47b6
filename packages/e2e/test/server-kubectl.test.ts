import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlBinaries, kubectlOk, kubectlRunner } from '../src/kubectl.js';
import { startServerProcess, type ServerProcess } from '../src/server.js';

const binaries = kubectlBinaries();

// The kubectl journey of a new user, against the TLS port with the kubeconfig the server wrote, once per client
// version (the one on PATH, 1.32 and 1.33), each with its own discovery cache and namespace.
describe.skipIf(binaries.length === 0)('kubectl against kapi-server over TLS', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess();
  }, 60_000);
  afterAll(async () => server?.stop());

  it('serves the versions under test', () => {
    expect(binaries.map((b) => b.name)).toEqual(expect.arrayContaining(['kubectl']));
  });

  for (const bin of binaries) {
    describe(bin.name, () => {
      let kubectl: ReturnType<typeof kubectlRunner>;
      const ns = `e2e-${bin.name.replace(/\W/g, '-')}`;
      const ok = (...args: string[]) => kubectlOk(kubectl, ...args);
      beforeAll(() => {
        kubectl = kubectlRunner(bin.path, server.kubeconfig);
      });

      it('version reports the emulated API level 1.33', () => {
        const version = JSON.parse(ok('version', '-o', 'json'));
        expect(version.serverVersion).toMatchObject({ major: '1', minor: '33' });
      });

      it('get --raw /readyz', () => {
        expect(ok('get', '--raw', '/readyz')).toBe('ok');
      });

      it('api-resources lists built-in and schema-defined resources', () => {
        const out = ok('api-resources');
        expect(out).toMatch(/^configmaps\s+cm\s+v1\s+true\s+ConfigMap$/m);
        expect(out).toMatch(/^deployments\s+deploy\s+apps\/v1\s+true\s+Deployment$/m);
        expect(out).toMatch(/^flunders\s+wardle\.example\.com\/v1beta1\s+true\s+Flunder$/m);
        expect(out).toMatch(/^namespaces\s+ns\s+v1\s+false\s+Namespace$/m);
      });

      it('create namespace and configmap --from-literal, then get prints the Table kube prints', () => {
        expect(ok('create', 'namespace', ns)).toBe(`namespace/${ns} created\n`);
        expect(ok('create', 'configmap', 'cm', '--from-literal=a=b', '--from-literal=c=d', '-n', ns)).toBe('configmap/cm created\n');
        const table = ok('get', 'configmap', 'cm', '-n', ns);
        const [header, row] = table.trim().split('\n');
        expect(header.split(/\s+/)).toEqual(['NAME', 'DATA', 'AGE']);
        expect(row.split(/\s+/).slice(0, 2)).toEqual(['cm', '2']);
      });

      it('get -o yaml, -o json and -o jsonpath', () => {
        expect(ok('get', 'configmap', 'cm', '-n', ns, '-o', 'yaml')).toMatch(/^data:\n  a: b\n  c: d\n/m);
        const json = JSON.parse(ok('get', 'configmap', 'cm', '-n', ns, '-o', 'json'));
        expect(json).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'cm', namespace: ns }, data: { a: 'b' } });
        expect(ok('get', 'configmap', 'cm', '-n', ns, '-o', 'jsonpath={.data.a}')).toBe('b');
      });

      it('label and annotate', () => {
        expect(ok('label', 'configmap', 'cm', 'tier=web', '-n', ns)).toBe('configmap/cm labeled\n');
        expect(ok('annotate', 'configmap', 'cm', 'note=hello', '-n', ns)).toBe('configmap/cm annotated\n');
        expect(ok('get', 'configmap', '-l', 'tier=web', '-n', ns, '-o', 'jsonpath={.items[0].metadata.annotations.note}')).toBe('hello');
      });

      it('delete', () => {
        expect(ok('delete', 'configmap', 'cm', '-n', ns)).toBe('configmap "cm" deleted\n');
        const gone = kubectl('get', 'configmap', 'cm', '-n', ns);
        expect(gone.status).toBe(1);
        expect(gone.stderr).toContain('configmaps "cm" not found');
      });

      it('delete namespace removes its contents', () => {
        ok('create', 'configmap', 'left', '--from-literal=x=y', '-n', ns);
        expect(ok('delete', 'namespace', ns)).toBe(`namespace "${ns}" deleted\n`);
        expect(kubectl('get', 'namespace', ns).stderr).toContain(`namespaces "${ns}" not found`);
        expect(kubectl('get', 'configmap', 'left', '-n', ns).stderr).toContain('not found');
      });

      it('explain reads the OpenAPI schema', () => {
        const out = ok('explain', 'deployment.spec.replicas');
        expect(out).toContain('KIND:       Deployment');
        expect(out).toContain('replicas');
      });

      it('auth can-i', () => {
        expect(ok('auth', 'can-i', 'create', 'pods')).toBe('yes\n');
      });
    });
  }
});
