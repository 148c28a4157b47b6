// --audit-policy-file: levels per resource as kube's policy gives them, checked in the log itself. A Secret's data
// never reaches the log unless a rule asks for Request or RequestResponse on secrets.
import { describe, expect, it } from 'vitest';
import { loadAuditPolicy } from '../src/audit/index.js';
import { configMap, startHarness } from './harness.js';

const CM = '/api/v1/namespaces/default/configmaps';
const SECRETS = '/api/v1/namespaces/default/secrets';
const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';
const PASSWORD = Buffer.from('s3cr3t-value').toString('base64');
const secret = (name: string) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name }, data: { password: PASSWORD } });
const deployment = {
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
  spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
};

const POLICY = `
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
  - level: None
    nonResourceURLs: ["/healthz*", "/version"]
  - level: Metadata
    resources: [{ group: "", resources: ["secrets"] }]
  - level: RequestResponse
    resources: [{ group: "", resources: ["configmaps"] }]
    omitManagedFields: true
  - level: Request
    resources: [{ group: "apps" }]
    verbs: ["create", "update", "patch"]
  - level: Metadata
`;

async function audited(policyText: string) {
  const lines: string[] = [];
  const h = await startHarness({}, { audit: { write: (line) => lines.push(line) }, auditPolicy: loadAuditPolicy(policyText) });
  const events = () => lines.map((line) => JSON.parse(line));
  return { h, lines, events };
}

describe('audit policy', () => {
  it('logs each request at its rule’s level: secrets as metadata only, configmaps with both objects, none for /version', async () => {
    const { h, lines, events } = await audited(POLICY);
    expect((await h.req('POST', `${SECRETS}?fieldManager=t`, secret('db'))).status).toBe(201);
    expect((await h.req('GET', `${SECRETS}/db`)).status).toBe(200);
    expect((await h.req('POST', `${CM}?fieldManager=t`, configMap('settings', { color: 'blue' }))).status).toBe(201);
    expect((await h.req('PATCH', `${CM}/settings`, { data: { color: 'red' } }, { 'content-type': 'application/merge-patch+json' })).status).toBe(200);
    expect((await h.req('POST', DEPLOYMENTS, deployment)).status).toBe(201);
    expect((await h.req('GET', `${DEPLOYMENTS}/web`)).status).toBe(200);
    expect((await h.req('GET', '/version')).status).toBe(200);
    expect((await h.req('GET', '/healthz')).status).toBe(200);

    const all = events();
    // omitStages: only ResponseComplete; /version and /healthz are None.
    expect(all.map((e) => [e.stage, e.level, e.verb, e.objectRef?.resource])).toEqual([
      ['ResponseComplete', 'Metadata', 'create', 'secrets'],
      ['ResponseComplete', 'Metadata', 'get', 'secrets'],
      ['ResponseComplete', 'RequestResponse', 'create', 'configmaps'],
      ['ResponseComplete', 'RequestResponse', 'patch', 'configmaps'],
      ['ResponseComplete', 'Request', 'create', 'deployments'],
      ['ResponseComplete', 'Metadata', 'get', 'deployments'],
    ]);
    // The Secret's data is nowhere in the log.
    expect(lines.join('')).not.toContain(PASSWORD);
    expect(all[0].requestObject).toBeUndefined();
    expect(all[1].responseObject).toBeUndefined();

    const [, , cmCreate, cmPatch, deployCreate, deployGet] = all;
    expect(cmCreate.requestObject).toEqual(configMap('settings', { color: 'blue' }));
    expect(cmCreate.responseObject).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'settings', uid: expect.any(String) }, data: { color: 'blue' } });
    // omitManagedFields: the stored object has them, the event does not.
    expect((await h.req('GET', `${CM}/settings`)).body.metadata.managedFields).toBeDefined();
    expect(cmCreate.responseObject.metadata.managedFields).toBeUndefined();
    expect(cmPatch.requestObject).toEqual({ data: { color: 'red' } });
    expect(cmPatch.responseObject.data).toEqual({ color: 'red' });
    expect(deployCreate.requestObject).toEqual(deployment);
    expect(deployCreate.requestObject.metadata.uid).toBeUndefined(); // as decoded, before the server filled it in
    expect(deployCreate.responseObject).toBeUndefined();
    expect(deployGet.requestObject).toBeUndefined();
  });

  it('logs a Secret’s data only when a rule asks for Request or RequestResponse on secrets', async () => {
    const { h, lines, events } = await audited(`
apiVersion: audit.k8s.io/v1
kind: Policy
rules:
  - level: RequestResponse
    resources: [{ resources: ["secrets"], resourceNames: ["visible"] }]
  - level: Metadata
`);
    expect((await h.req('POST', SECRETS, secret('hidden'))).status).toBe(201);
    expect(lines.join('')).not.toContain(PASSWORD);
    // resourceNames match requests that name the object: its get, not its create.
    expect((await h.req('POST', SECRETS, secret('visible'))).status).toBe(201);
    expect(lines.join('')).not.toContain(PASSWORD);
    expect((await h.req('GET', `${SECRETS}/visible`)).status).toBe(200);
    const get = events().find((e) => e.verb === 'get' && e.stage === 'ResponseComplete');
    expect(get.level).toBe('RequestResponse');
    expect(get.responseObject.data).toEqual({ password: PASSWORD });
  });

  it('writes RequestReceived, ResponseStarted and ResponseComplete for a watch; a Status error fills responseStatus; annotations say why it was allowed', async () => {
    const { h, events } = await audited('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Metadata\n');
    const watch = await h.server.fetch(new Request(`http://kapi.test${CM}?watch=true`));
    expect(events().map((e) => e.stage)).toEqual(['RequestReceived', 'ResponseStarted']);
    await watch.body!.cancel();
    expect(events().map((e) => e.stage)).toEqual(['RequestReceived', 'ResponseStarted', 'ResponseComplete']);
    expect(events()[2].annotations).toMatchObject({ 'authorization.k8s.io/decision': 'allow' });

    expect((await h.req('POST', CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'Bad_Name' } })).status).toBe(422);
    const invalid = events().at(-1);
    expect(invalid.responseStatus).toMatchObject({ status: 'Failure', reason: 'Invalid', code: 422 });
    expect(invalid.responseStatus.message).toContain('Bad_Name');
  });
});

describe('loadAuditPolicy', () => {
  it('reads kube’s Policy and refuses what kube refuses', () => {
    expect(loadAuditPolicy(POLICY).rules).toHaveLength(5);
    expect(() => loadAuditPolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: []\n')).toThrow('loaded illegal policy with 0 rules');
    expect(() => loadAuditPolicy('apiVersion: audit.k8s.io/v1beta2\nkind: Policy\nrules: [{level: None}]\n')).toThrow('no kind "Policy" is registered for version "audit.k8s.io/v1beta2"');
    expect(() => loadAuditPolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: Everything}]\n')).toThrow('rules[0].level: Unsupported value: "Everything"');
    expect(() => loadAuditPolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nomitStages: [Later]\nrules: [{level: None}]\n')).toThrow('omitStages[0]: Unsupported value: "Later"');
    expect(() => loadAuditPolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: None, nonResourceURLs: ["/x"], resources: [{group: ""}]}]\n')).toThrow('rules cannot apply to both regular resources and non-resource URLs');
    expect(() => loadAuditPolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: None, nonResourceURLs: ["healthz", "/a*b"]}]\n')).toThrow(/nonResourceURLs\[0\].*nonResourceURLs\[1\]/);
    expect(() => loadAuditPolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: None, resources: [{group: "", resourceNames: ["a"]}]}]\n')).toThrow('using resourceNames requires at least one resource');
    expect(() => loadAuditPolicy('{ not yaml')).toThrow('failed decoding');
  });
});
