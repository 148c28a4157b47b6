import { describe, expect, it } from 'vitest';
import { startHarness } from '../../test/harness.js';

// The dispatch rules of the resource handler: which path shapes and verbs a resource takes, before any handler runs.
describe('resource request dispatch', () => {
  it('answers path shapes the resource does not have with 404, and verbs it does not take with 405', async () => {
    const h = await startHarness();
    const cases: [string, string, number][] = [
      ['GET', '/api/v1/namespaces/default/nodes', 404], // cluster-scoped kind under a namespace
      ['GET', '/api/v1/configmaps/x', 404], // namespaced object without a namespace
      ['GET', '/api/v1/configmaps', 200], // ...but a list across namespaces is fine
      ['GET', '/api/v1/namespaces/default/configmaps/x/status', 404], // no status subresource
      ['GET', '/api/v1/namespaces/default/pods/x/log', 404], // needs a node: not served
      ['POST', '/api/v1/namespaces/default/configmaps/x', 405], // POST goes to the collection
      ['GET', '/apis/authorization.k8s.io/v1/subjectaccessreviews', 405], // create-only virtual resource
      ['GET', '/apis/nope.example.com/v1/things', 404],
      ['POST', '/api/v1/namespaces/default/configmaps?dryRun=Some', 400], // a write's dryRun is All or nothing
      ['GET', '/api/v1/namespaces/default/configmaps?dryRun=Some', 200], // reads have no dryRun (kube ignores it)
    ];
    for (const [method, path, code] of cases) {
      const res = await h.req(method, path, method === 'POST' ? { metadata: { name: 'x' } } : undefined);
      expect([method, path, res.status]).toEqual([method, path, code]);
      if (code !== 200) expect(res.body).toMatchObject({ kind: 'Status', code });
    }
  });

  it('reads the body once, whichever handler asks for it', async () => {
    const h = await startHarness();
    const res = await h.req('POST', '/api/v1/namespaces/default/configmaps?dryRun=All', { metadata: { name: 'once' }, data: { a: 'b' } });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({ a: 'b' });
  });
});
