import { goQuote, newForbidden, type KubeObject } from '@kapi/apimachinery';
import type { AdmissionAttributes, AdmissionPlugin, UserInfo } from '../../admission/types.js';
import { jsonEqual } from '../../registry/diff.js';
import type { Authorizer } from '../types.js';
import { compactRules, compactString, covers } from './covers.js';
import { aggregateErrors, collectRulesFor, roleReferenceRules } from './resolver.js';
import { RBAC_GROUP, type PolicyRule, type RbacSource, type RoleRef } from './types.js';

/** kube's superuser group: the API server's own loopback connections use it, so it may always grant anything. */
const SYSTEM_MASTERS = 'system:masters';

/** What using an aggregationRule takes: everything (it can gather any rule). */
const FULL_AUTHORITY: PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

const ROLES = new Set(['Role', 'ClusterRole']);
const BINDINGS = new Set(['RoleBinding', 'ClusterRoleBinding']);

/**
 * RBAC escalation prevention, as kube's RBAC registry does it (pkg/registry/rbac/*\/policybased): a user may create
 * or update a Role or ClusterRole only with rules she already holds in its scope (or with the `escalate` verb on
 * it), and bind a role only when she holds its rules in the binding's scope (or has the `bind` verb on that role).
 * Members of system:masters are exempt. Only changes to ownerReferences and finalizers (what the garbage collector
 * writes) are never checked. Runs as a validating admission plugin of the RBAC authorization mode, so it judges the
 * object as it will be stored, on every write path (create, update, patch, apply) and dry runs alike.
 */
export function rbacEscalationPrevention(source: RbacSource, authorizer: Authorizer): AdmissionPlugin {
  /** kube's ConfirmNoEscalation: the message naming what is missing, or undefined when the user holds it all. */
  const escalation = async (user: UserInfo, namespace: string, wanted: readonly PolicyRule[]): Promise<string | undefined> => {
    const owner = await collectRulesFor(source, user, namespace);
    const { covered, missing } = covers(owner.rules, wanted);
    if (covered) return undefined;
    const descriptions = [...new Set(compactRules(missing).map(compactString))].sort();
    const groups = `[${user.groups.map(goQuote).join(' ')}]`;
    let message = `user ${goQuote(user.username)} (groups=${groups}) is attempting to grant RBAC permissions not currently held:\n${descriptions.join('\n')}`;
    if (owner.errors.length) message += `; resolution errors: [${owner.errors.join(' ')}]`;
    return message;
  };

  /** Whether the authorizer grants `verb` on a role (`escalate` on the one written, `bind` on the one referenced). */
  const authorized = async (user: UserInfo, verb: string, resource: string, namespace: string, name: string) =>
    (await authorizer.authorize({
      user, verb, resourceRequest: true, path: '', apiGroup: RBAC_GROUP, apiVersion: '*', resource, subresource: '', namespace, name,
    })).decision === 'allow';

  const checkRole = async (attrs: AdmissionAttributes, role: KubeObject & { rules?: PolicyRule[] | null; aggregationRule?: unknown }) => {
    const { user, resource, namespace, name } = attrs;
    if (await authorized(user, 'escalate', resource.plural, namespace, name)) return;
    const gr = { group: RBAC_GROUP, resource: resource.plural };
    const missing = await escalation(user, namespace, role.rules ?? []);
    if (missing) throw newForbidden(gr, name, missing);
    const old = attrs.oldObject as { aggregationRule?: unknown } | undefined;
    if (resource.kind === 'ClusterRole' && (role.aggregationRule || old?.aggregationRule)) {
      if (await escalation(user, '', FULL_AUTHORITY)) throw newForbidden(gr, name, 'must have cluster-admin privileges to use the aggregationRule');
    }
  };

  const checkBinding = async (attrs: AdmissionAttributes, binding: KubeObject & { roleRef?: RoleRef }) => {
    const { user, resource, namespace, name } = attrs;
    const roleRef = binding.roleRef;
    if (!roleRef) return;
    const roleResource = roleRef.kind === 'Role' ? 'roles' : 'clusterroles';
    if (await authorized(user, 'bind', roleResource, namespace, roleRef.name)) return;
    const gr = { group: RBAC_GROUP, resource: resource.plural };
    let rules: PolicyRule[];
    try {
      rules = await roleReferenceRules(source, roleRef, namespace);
    } catch (err) {
      throw newForbidden(gr, name, aggregateErrors([(err as Error).message]));
    }
    const missing = await escalation(user, namespace, rules);
    if (missing) throw newForbidden(gr, name, missing);
  };

  return {
    name: 'RBACEscalationPrevention',
    operations: ['CREATE', 'UPDATE'],
    async validate(attrs) {
      const { resource, object } = attrs;
      if (resource.group !== RBAC_GROUP || attrs.subresource || !object) return;
      if (!ROLES.has(resource.kind) && !BINDINGS.has(resource.kind)) return;
      if (attrs.user.groups.includes(SYSTEM_MASTERS)) return;
      if (attrs.operation === 'UPDATE' && onlyGarbageCollectorFields(object, attrs.oldObject)) return;
      if (ROLES.has(resource.kind)) await checkRole(attrs, object);
      else await checkBinding(attrs, object);
    },
  };
}

/**
 * Whether an update changes nothing but what the garbage collector writes (ownerReferences, finalizers), or the
 * server itself (resourceVersion, managedFields, generation): kube's IsOnlyMutatingGCFields.
 */
function onlyGarbageCollectorFields(obj: KubeObject, old: KubeObject | undefined): boolean {
  if (!old) return false;
  const strip = (o: KubeObject) => {
    const { ownerReferences: _o, finalizers: _f, resourceVersion: _r, managedFields: _m, generation: _g, ...meta } = (o.metadata ?? {}) as Record<string, unknown>;
    return { ...o, metadata: meta };
  };
  return jsonEqual(strip(obj), strip(old));
}
