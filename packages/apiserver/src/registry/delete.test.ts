import { isStatusError, type KubeObject } from '@kapi/apimachinery';
import { describe, expect, it } from 'vitest';
import { ALL_GROUPS, dataPlugin } from '../../test/harness.js';
import { checkPreconditions, validateUnsafeDelete } from './delete.js';
import { createResourceRegistry } from './resources.js';

const configMaps = createResourceRegistry(ALL_GROUPS.map(dataPlugin)).lookup('', 'v1', 'configmaps')!;
const stored: KubeObject = { metadata: { name: 'c', uid: 'u-1', resourceVersion: '9' } };
const statusOf = (fn: () => void) => {
  try {
    fn();
  } catch (err) {
    if (isStatusError(err)) return { code: err.status.code, message: err.status.message };
    throw err;
  }
  return undefined;
};

describe('delete preconditions (kube\'s messages)', () => {
  it('pass when they match or are absent', () => {
    expect(statusOf(() => checkPreconditions(configMaps, 'c', stored, { preconditions: { uid: 'u-1', resourceVersion: '9' } }))).toBeUndefined();
    expect(statusOf(() => checkPreconditions(configMaps, 'c', stored, {}))).toBeUndefined();
  });

  it('409 on a uid or resourceVersion other than the stored one', () => {
    expect(statusOf(() => checkPreconditions(configMaps, 'c', stored, { preconditions: { uid: 'other' } }))).toEqual({
      code: 409,
      message: 'Operation cannot be fulfilled on configmaps "c": Precondition failed: UID in precondition: other, UID in object meta: u-1',
    });
    expect(statusOf(() => checkPreconditions(configMaps, 'c', stored, { preconditions: { resourceVersion: '8' } }))).toEqual({
      code: 409,
      message: 'Operation cannot be fulfilled on configmaps "c": Precondition failed: ResourceVersion in precondition: 8, ResourceVersion in object meta: 9',
    });
  });
});

describe('delete preconditions, further', () => {
  it('check the uid first, and name an object without a uid with an empty one', () => {
    expect(statusOf(() => checkPreconditions(configMaps, 'c', stored, { preconditions: { uid: 'x', resourceVersion: '1' } }))?.message).toContain('UID in precondition: x');
    expect(statusOf(() => checkPreconditions(configMaps, 'c', { metadata: { name: 'c', resourceVersion: '2' } }, { preconditions: { uid: 'x' } }))).toEqual({
      code: 409,
      message: 'Operation cannot be fulfilled on configmaps "c": Precondition failed: UID in precondition: x, UID in object meta: ',
    });
  });

  it('name the group of a grouped resource', () => {
    const deployments = createResourceRegistry(ALL_GROUPS.map(dataPlugin)).lookup('apps', 'v1', 'deployments')!;
    expect(statusOf(() => checkPreconditions(deployments, 'd', stored, { preconditions: { resourceVersion: '1' } }))?.message).toBe(
      'Operation cannot be fulfilled on deployments.apps "d": Precondition failed: ResourceVersion in precondition: 1, ResourceVersion in object meta: 9',
    );
  });
});

describe('forced deletion rules', () => {
  it('need the AllowUnsafeMalformedObjectDeletion gate (422)', () => {
    expect(statusOf(() => validateUnsafeDelete({}, false))).toMatchObject({ code: 422 });
  });

  it('refuse the other delete options beside it (400), naming them', () => {
    expect(statusOf(() => validateUnsafeDelete({ gracePeriodSeconds: 0, preconditions: {}, dryRunGiven: true }, true))).toEqual({
      code: 400,
      message: 'ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: cannot be set together with dryRun, gracePeriodSeconds, preconditions',
    });
    expect(statusOf(() => validateUnsafeDelete({}, true))).toBeUndefined();
  });

  it('name each other option alone, and answer the gate first', () => {
    const others: [Parameters<typeof validateUnsafeDelete>[0], string][] = [
      [{ orphanDependents: false }, 'orphanDependents'],
      [{ propagationPolicy: 'Background' }, 'propagationPolicy'],
      [{ gracePeriodSeconds: 0 }, 'gracePeriodSeconds'],
      [{ dryRunGiven: true }, 'dryRun'],
    ];
    for (const [options, name] of others) {
      expect(statusOf(() => validateUnsafeDelete(options, true))).toEqual({
        code: 400, message: `ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: cannot be set together with ${name}`,
      });
    }
    expect(statusOf(() => validateUnsafeDelete({ gracePeriodSeconds: 0 }, false))).toEqual({
      code: 422,
      message: 'DeleteOptions.meta.k8s.io "" is invalid: ignoreStoreReadErrorWithClusterBreakingPotential: Forbidden: not allowed when the AllowUnsafeMalformedObjectDeletion feature gate is disabled',
    });
  });
});
