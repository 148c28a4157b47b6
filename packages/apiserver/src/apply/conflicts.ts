// Apply conflicts and how kube reports them (managedfields/internal/conflict.go): the message groups the fields by
// manager, a manager printed as `"name"`, `"name" with subresource "status"`, and for an updater `... using apps/v1`.
import { goQuote, newApplyConflict, StatusError, type StatusCause } from '@kapi/apimachinery';
import { compareStrings } from './go-json.js';
import { managerIdentifier, type Operation } from './managers.js';

/** One field another manager owns and the apply would change. */
export interface ApplyConflict {
  manager: string;
  operation: Operation;
  apiVersion: string;
  subresource?: string;
  /** The field path as upstream prints it: `.spec.replicas`, `.spec.containers[name="a"].image`. */
  field: string;
}

/** How kube names a conflicting manager (printManager). */
export function printManager(c: Omit<ApplyConflict, 'field'>): string {
  let s = goQuote(c.manager);
  if (c.subresource) s = `${s} with subresource ${goQuote(c.subresource)}`;
  if (c.operation === 'Update') s = `${s} using ${c.apiVersion}`;
  return s;
}

const idOf = (c: ApplyConflict): string => managerIdentifier(c);

/**
 * kube's conflict message: `Apply failed with 1 conflict: conflict with "m" using apps/v1: .spec.replicas`, or for
 * several `Apply failed with N conflicts: conflicts with "m":\n- .a\n- .b\nconflicts with "n" using v1:\n- .c`
 * (managers in the order of their identifiers, fields in the order given).
 */
export function conflictMessage(conflicts: readonly ApplyConflict[]): string {
  if (conflicts.length === 1) return `Apply failed with 1 conflict: conflict with ${printManager(conflicts[0]!)}: ${conflicts[0]!.field}`;
  const byManager = new Map<string, ApplyConflict[]>();
  for (const c of conflicts) {
    const id = idOf(c);
    byManager.set(id, [...(byManager.get(id) ?? []), c]);
  }
  const lines: string[] = [];
  for (const id of [...byManager.keys()].sort(compareStrings)) {
    const group = byManager.get(id)!;
    lines.push(`conflicts with ${printManager(group[0]!)}:`);
    for (const c of group) lines.push(`- ${c.field}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

/** One StatusCause per conflict: `{reason: 'FieldManagerConflict', message: 'conflict with "m"', field}`. */
export function conflictCauses(conflicts: readonly ApplyConflict[]): StatusCause[] {
  return conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${printManager(c)}`, field: c.field }));
}

/** The 409 Conflict a conflicting apply fails with (a StatusError, ready for HTTP), carrying the conflicts. */
export class ApplyConflictError extends StatusError {
  readonly conflicts: readonly ApplyConflict[];

  constructor(conflicts: readonly ApplyConflict[]) {
    super(newApplyConflict(conflictCauses(conflicts), conflictMessage(conflicts)).status);
    this.conflicts = conflicts;
  }
}
