// The audit log of the real server (`--audit-log-path` with `--audit-policy-file`), driven by kubectl: levels per
// resource as the policy says, a Secret's data never in the log, impersonation recorded, and nothing without a policy.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlBinaries, kubectlRunner } from '../src/kubectl.js';
import { startServerProcess, type ServerProcess } from '../src/server.js';

const kubectlPath = kubectlBinaries()[0]?.path;
const dir = mkdtempSync(join(tmpdir(), 'kapi-audit-e2e-'));
const policy = join(dir, 'policy.yaml');
writeFileSync(policy, `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
  - level: None
    nonResourceURLs: ["/api*", "/openapi*", "/version"]
  - level: Metadata
    resources: [{ group: "", resources: ["secrets"] }]
  - level: RequestResponse
    resources: [{ group: "", resources: ["configmaps"] }]
  - level: Metadata
`);
const PASSWORD = 'tr0ub4dor&3';

describe.skipIf(!kubectlPath)('audit log with a policy, through kubectl', () => {
  let server: ServerProcess;
  let kubectl: ReturnType<typeof kubectlRunner>;
  const log = join(dir, 'audit.log');
  const events = () => readFileSync(log, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
  beforeAll(async () => {
    server = await startServerProcess([`--audit-log-path=${log}`, `--audit-policy-file=${policy}`]);
    kubectl = kubectlRunner(kubectlPath!, server.kubeconfig);
  }, 60_000);
  afterAll(async () => server?.stop());

  it('writes the levels the policy gives, never a Secret’s data, and who impersonated whom', async () => {
    expect(kubectl('create', 'secret', 'generic', 'db', `--from-literal=password=${PASSWORD}`).status).toBe(0);
    expect(kubectl('create', 'configmap', 'settings', '--from-literal=color=blue').status).toBe(0);
    expect(kubectl('get', 'pods', '--as=alice').status).toBe(1);
    await new Promise((done) => setTimeout(done, 200)); // the file stream flushes asynchronously
    const text = readFileSync(log, 'utf8');
    expect(text).not.toContain(Buffer.from(PASSWORD).toString('base64'));
    expect(text).not.toContain(PASSWORD);
    const all = events();
    expect(all.every((e) => e.stage === 'ResponseComplete')).toBe(true);
    expect(all.some((e) => e.requestURI.startsWith('/api/v1?') || e.requestURI === '/api' || e.requestURI === '/version')).toBe(false);
    const secret = all.find((e) => e.verb === 'create' && e.objectRef?.resource === 'secrets');
    expect(secret).toMatchObject({ level: 'Metadata', user: { username: 'kapi-admin' }, responseStatus: { code: 201 }, userAgent: expect.stringMatching(/^kubectl/) });
    expect(secret.requestObject).toBeUndefined();
    const cm = all.find((e) => e.verb === 'create' && e.objectRef?.resource === 'configmaps');
    expect(cm).toMatchObject({ level: 'RequestResponse', requestObject: { kind: 'ConfigMap', data: { color: 'blue' } }, responseObject: { metadata: { name: 'settings' } } });
    const impersonated = all.find((e) => e.verb === 'list' && e.objectRef?.resource === 'pods');
    expect(impersonated).toMatchObject({
      user: { username: 'kapi-admin' }, impersonatedUser: { username: 'alice' }, responseStatus: { code: 403, reason: 'Forbidden' },
      annotations: { 'authorization.k8s.io/decision': 'forbid' },
    });
  });
});
