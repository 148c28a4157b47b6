import { describe, expect, it } from 'vitest';
import { celConditionCompiler } from './cel-conditions.js';
import { compileMatchConditions } from './conditions.js';

const request = {
  uid: 'u',
  kind: { group: '', version: 'v1', kind: 'Pod' },
  resource: { group: '', version: 'v1', resource: 'pods' },
  namespace: 'default',
  name: 'p',
  operation: 'CREATE',
  userInfo: { username: 'alice', groups: ['system:authenticated'] },
};

describe('celConditionCompiler', () => {
  it('compiles and evaluates webhook matchConditions', async () => {
    const conditions = compileMatchConditions(
      [
        { name: 'not-system', expression: "!request.userInfo.username.startsWith('system:')" },
        { name: 'can-get', expression: "authorizer.group('').resource('pods').check('get').allowed()" },
      ],
      celConditionCompiler,
    );
    const input = { object: { metadata: { name: 'p' } }, oldObject: null, request, authorize: async () => ({ decision: 'allow' }) };
    expect(await conditions.match(input)).toEqual({ matches: true });
    expect(await conditions.match({ ...input, authorize: async () => ({ decision: 'deny' }) })).toEqual({ matches: false });
  });

  it('reports kube compile errors; params and variables are not declared', () => {
    expect(celConditionCompiler('params.x == 1')).toEqual({ error: expect.stringContaining("undeclared reference to 'params'") });
    expect(celConditionCompiler('object.metadata.name')).toEqual({ error: 'must evaluate to bool but got dyn' });
  });
});
