// status.typeChecking of a policy against the schemas of the kinds it matches.
import { describe, expect, it } from 'vitest';
import { resourcesToCheck, typeCheckPolicy, type ValidatingAdmissionPolicy } from './index.js';

const deploymentSchema = {
  type: 'object',
  properties: { spec: { type: 'object', properties: { replicas: { type: 'integer' }, paused: { type: 'boolean' } } } },
};

const policy = (validations: ValidatingAdmissionPolicy['spec']['validations']): ValidatingAdmissionPolicy => ({
  metadata: { name: 'p' },
  spec: {
    matchConstraints: {
      resourceRules: [
        { apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments', 'deployments/scale', '*'], operations: ['CREATE'] },
        { apiGroups: ['*'], apiVersions: ['v1'], resources: ['pods'], operations: ['CREATE'] },
      ],
    },
    validations,
  },
});

describe('type checking', () => {
  it('lists the resources kube checks: no wildcards, no subresources', () => {
    expect(resourcesToCheck(policy([]))).toEqual([{ group: 'apps', version: 'v1', resource: 'deployments' }]);
  });

  it('warns per expression with the kind and cel-go issues', () => {
    const p = policy([
      { expression: 'object.spec.replicas > 1' },
      { expression: 'object.spec.replicaz > 1', messageExpression: "'x' + object.spek.paused" },
    ]);
    expect(typeCheckPolicy(p, [{ group: 'apps', version: 'v1', kind: 'Deployment', schema: deploymentSchema }])).toEqual([
      {
        fieldRef: 'spec.validations[1].expression',
        warning: "apps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replicaz'\n | object.spec.replicaz > 1\n | ...........^\n",
      },
      {
        fieldRef: 'spec.validations[1].messageExpression',
        warning: "apps/v1, Kind=Deployment: ERROR: <input>:1:13: undefined field 'spek'\n | 'x' + object.spek.paused\n | ............^\n",
      },
    ]);
  });
});
