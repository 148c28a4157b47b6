import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../test/harness.js';

const CM = '/api/v1/namespaces/default/configmaps';
const APPLY = { 'content-type': 'application/apply-patch+yaml' };
const apply = (data: Record<string, string>) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owned' }, data });

describe('server-side apply: force', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.server.stop());

  it('takes force as kube converts booleans: a conflict is forced with true, True or 1, and stays a 409 with false or 0', async () => {
    expect((await h.req('PATCH', `${CM}/owned?fieldManager=first`, apply({ a: 'first' }), APPLY)).status).toBe(201);
    for (const value of ['false', '0', 'False']) {
      const res = await h.req('PATCH', `${CM}/owned?fieldManager=second&force=${value}`, apply({ a: 'second' }), APPLY);
      expect([value, res.status, res.body.reason]).toEqual([value, 409, 'Conflict']);
    }
    // The Python client sends booleans as True/False.
    for (const [value, manager] of [['True', 'second'], ['1', 'third'], ['true', 'fourth']]) {
      const res = await h.req('PATCH', `${CM}/owned?fieldManager=${manager}&force=${value}`, apply({ a: manager }), APPLY);
      expect([value, res.status, res.body.data]).toEqual([value, 200, { a: manager }]);
    }
  });
});
