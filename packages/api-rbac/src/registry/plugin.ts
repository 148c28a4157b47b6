import { age, at, listAt, str, type KubeObject, type TablePrinter, type TypeDefaulter } from '@kapi/apimachinery';
import type { GroupPlugin, Strategy } from '@kapi/apiserver';
import { group } from '../generated/index.js';
import { hasInvalidLabelSelector, roleRefChange, validateBinding, validateClusterRole, validateRole } from './validation.js';

/**
 * kube's pkg/registry/rbac/role strategy: ValidateRole on create; on update ValidateRole and then ValidateRoleUpdate,
 * which runs ValidateRole again (kube reports each error twice).
 */
const roleStrategy: Strategy = {
  validate: (obj) => validateRole(obj),
  validateUpdate: (obj) => [...validateRole(obj), ...validateRole(obj)],
};

/**
 * kube's clusterrole strategy: ValidateClusterRole; on update twice, as for Roles, with invalid label values in
 * aggregation selectors let through when the stored ClusterRole already had an invalid selector.
 */
const clusterRoleStrategy: Strategy = {
  validate: (obj) => validateClusterRole(obj),
  validateUpdate(obj, old) {
    const options = { allowInvalidLabelValueInSelector: hasInvalidLabelSelector(old) };
    return [...validateClusterRole(obj, options), ...validateClusterRole(obj, options)];
  },
};

/**
 * kube's (cluster)rolebinding strategies: Validate(Cluster)RoleBinding; on update that and then
 * Validate(Cluster)RoleBindingUpdate (the binding's validation again, then the roleRef, which never changes).
 */
const bindingStrategy = (namespaced: boolean): Strategy => ({
  validate: (obj) => validateBinding(obj, namespaced),
  validateUpdate: (obj, old) => [...validateBinding(obj, namespaced), ...validateBinding(obj, namespaced), ...roleRefChange(obj, old)],
});

/** rbac.SubjectsStrings: users, groups and `namespace/name` service accounts, each list `, `-joined. */
const subjects = (kind: 'User' | 'Group' | 'ServiceAccount') => (binding: KubeObject) =>
  listAt(binding, 'subjects')
    .filter((s) => at(s, 'kind') === kind)
    .map((s) => (kind === 'ServiceAccount' ? `${str(at(s, 'namespace'))}/${str(at(s, 'name'))}` : str(at(s, 'name'))))
    .join(', ');

const bindingPrinter: TablePrinter = {
  cells: {
    Role: (obj) => `${str(at(obj, 'roleRef.kind'))}/${str(at(obj, 'roleRef.name'))}`,
    Age: age,
    Users: subjects('User'),
    Groups: subjects('Group'),
    ServiceAccounts: subjects('ServiceAccount'),
  },
};

/** SetDefaults_Subject: users and groups are RBAC's, service accounts the core group's. */
const subject: TypeDefaulter = (s) => {
  if (s.apiGroup) return;
  if (s.kind === 'User' || s.kind === 'Group') s.apiGroup = 'rbac.authorization.k8s.io';
};

/** SetDefaults_(Cluster)RoleBinding: a roleRef without an API group refers to RBAC's roles. */
const roleRef: TypeDefaulter = (ref) => {
  if (!ref.apiGroup) ref.apiGroup = 'rbac.authorization.k8s.io';
};

/**
 * A binding without a roleRef has Go's zero RoleRef, which SetDefaults_(Cluster)RoleBinding then gives RBAC's API
 * group (its roleRef's own defaults follow): validation judges the missing kind and name, as kube does.
 */
const bindingDefaults: TypeDefaulter = (obj) => {
  if (obj.roleRef === undefined || obj.roleRef === null) obj.roleRef = {};
};

/** The rbac.authorization.k8s.io group as a server installs it: the kinds' validation, bindings' printer, the defaulters. */
export const plugin: GroupPlugin = {
  definition: group,
  strategies: {
    Role: roleStrategy,
    ClusterRole: clusterRoleStrategy,
    RoleBinding: bindingStrategy(true),
    ClusterRoleBinding: bindingStrategy(false),
  },
  printers: { RoleBinding: bindingPrinter, ClusterRoleBinding: bindingPrinter },
  defaulters: {
    'rbac.authorization.k8s.io/v1/Subject': subject,
    'rbac.authorization.k8s.io/v1/RoleRef': roleRef,
    'rbac.authorization.k8s.io/v1/RoleBinding': bindingDefaults,
    'rbac.authorization.k8s.io/v1/ClusterRoleBinding': bindingDefaults,
  },
  // validation.ts judges every required field of these as kube's validation.go does (a missing one is Go's zero
  // value there): the schema's `required` lists (roleRef kind and name, subject kind and name, a rule's verbs, an
  // aggregation selector requirement's key and operator) are not enforced inside them.
  validatedTypes: [
    'rbac.authorization.k8s.io/v1/RoleRef',
    'rbac.authorization.k8s.io/v1/Subject',
    'rbac.authorization.k8s.io/v1/PolicyRule',
    'rbac.authorization.k8s.io/v1/AggregationRule',
  ],
};
