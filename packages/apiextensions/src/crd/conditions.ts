import type { CustomResourceDefinition, CustomResourceDefinitionCondition } from '@kapi/api-apiextensions';
import { nowTimestamp } from '@kapi/apiserver';

export type ConditionType = 'NamesAccepted' | 'Established' | 'Terminating' | 'KubernetesAPIApprovalPolicyConformant';

/** The condition of a type, if the CRD's status has it. */
export const conditionOf = (crd: CustomResourceDefinition, type: ConditionType): CustomResourceDefinitionCondition | undefined =>
  crd.status?.conditions?.find((c) => c.type === type);

/**
 * Sets a condition as kube's apiextensions helpers do (SetCRDCondition): lastTransitionTime changes only when the
 * status does; a condition new to the list is appended. Returns whether anything changed.
 */
export function setCondition(crd: CustomResourceDefinition, condition: Omit<CustomResourceDefinitionCondition, 'lastTransitionTime'>): boolean {
  const status = (crd.status ??= {} as NonNullable<CustomResourceDefinition['status']>);
  const conditions = (status.conditions ??= []);
  const existing = conditions.find((c) => c.type === condition.type);
  if (!existing) {
    conditions.push({ type: condition.type, status: condition.status, lastTransitionTime: nowTimestamp(), reason: condition.reason, message: condition.message });
    return true;
  }
  if (existing.status === condition.status && existing.reason === condition.reason && existing.message === condition.message) return false;
  if (existing.status !== condition.status) existing.lastTransitionTime = nowTimestamp();
  existing.status = condition.status;
  existing.reason = condition.reason;
  existing.message = condition.message;
  return true;
}
