import { age, at, goQuote, listAt, str, type KubeObject, type TablePrinter, type TypeDefaulter } from '@kapi/apimachinery';
import type { GroupPlugin, Strategy } from '@kapi/apiserver';
import { group } from '../generated/index.js';

/** kube's ValidateRoleBindingUpdate: a binding's roleRef never changes (delete and recreate the binding instead). */
const bindingStrategy: Strategy = {
  validateUpdate(obj: KubeObject, old: KubeObject) {
    const ref = (o: KubeObject) => (o as { roleRef?: { apiGroup?: string; kind?: string; name?: string } }).roleRef ?? {};
    const [now, before] = [ref(obj), ref(old)];
    if (now.apiGroup === before.apiGroup && now.kind === before.kind && now.name === before.name) return [];
    // Go prints the struct with %#v.
    const shown = `rbac.RoleRef{APIGroup:${goQuote(now.apiGroup ?? '')}, Kind:${goQuote(now.kind ?? '')}, Name:${goQuote(now.name ?? '')}}`;
    return [{ type: 'FieldValueInvalid', field: 'roleRef', message: `${shown}: cannot change roleRef` }];
  },
};

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

/** The rbac.authorization.k8s.io group as a server installs it: bindings' strategy and printer, the defaulters. */
export const plugin: GroupPlugin = {
  definition: group,
  strategies: { RoleBinding: bindingStrategy, ClusterRoleBinding: bindingStrategy },
  printers: { RoleBinding: bindingPrinter, ClusterRoleBinding: bindingPrinter },
  defaulters: { 'rbac.authorization.k8s.io/v1/Subject': subject, 'rbac.authorization.k8s.io/v1/RoleRef': roleRef },
};
