import { describe, expect, it } from 'vitest';
import { ApplyConflictError, conflictCauses, conflictMessage, type ApplyConflict } from './conflicts.js';

const upd = (manager: string, field: string, extra: Partial<ApplyConflict> = {}): ApplyConflict =>
  ({ manager, operation: 'Update', apiVersion: 'apps/v1', field, ...extra });
const app = (manager: string, field: string): ApplyConflict => ({ manager, operation: 'Apply', apiVersion: 'apps/v1', field });

describe('conflict messages (kube managedfields/internal/conflict.go)', () => {
  it('one conflict', () => {
    expect(conflictMessage([upd('kubectl-client-side-apply', '.spec.template.spec.tolerations')]))
      .toBe('Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.template.spec.tolerations');
    expect(conflictMessage([app('manager-a', '.spec.replicas')])).toBe('Apply failed with 1 conflict: conflict with "manager-a": .spec.replicas');
    expect(conflictMessage([upd('kubectl', '.spec.replicas', { subresource: 'scale' })]))
      .toBe('Apply failed with 1 conflict: conflict with "kubectl" with subresource "scale" using apps/v1: .spec.replicas');
  });

  it('several, grouped by manager identifier', () => {
    const conflicts = [upd('b', '.spec.paused'), app('a', '.spec.replicas'), upd('b', '.spec.template.spec.containers[name="x"].image'), app('a', '.spec.minReadySeconds')];
    expect(conflictMessage(conflicts)).toBe([
      'Apply failed with 4 conflicts: conflicts with "a":',
      '- .spec.replicas',
      '- .spec.minReadySeconds',
      'conflicts with "b" using apps/v1:',
      '- .spec.paused',
      '- .spec.template.spec.containers[name="x"].image',
    ].join('\n'));
  });

  it('causes and the 409 Status', () => {
    const conflicts = [upd('kubectl-edit', '.spec.replicas')];
    expect(conflictCauses(conflicts)).toEqual([{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl-edit" using apps/v1', field: '.spec.replicas' }]);
    const err = new ApplyConflictError(conflicts);
    expect(err.code).toBe(409);
    expect(err.status).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'Apply failed with 1 conflict: conflict with "kubectl-edit" using apps/v1: .spec.replicas', reason: 'Conflict',
      details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl-edit" using apps/v1', field: '.spec.replicas' }] }, code: 409,
    });
    expect(err.conflicts).toBe(conflicts);
  });
});
