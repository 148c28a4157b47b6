// The ValidatingAdmissionPolicy admission plugin in a server: the policies and bindings followed as they change,
// params read from the server's store, and the engine's result turned into a denial, warnings and audit annotations.
import type { KubeObject } from '@kapi/apimachinery';
import { gvkFromObject, labelSelectorFromObject } from '@kapi/apimachinery';
import { ALL_OBJECTS, followObjects, type AdmissionAttributes, type AdmissionPlugin, type PluginHost, type ResourceEntry } from '@kapi/apiserver';
import type { AdmissionAuthorizer } from '@kapi/cel';
import type { LabelSelector, NamespaceGetter } from '../match/index.js';
import { exemptFromAdmission } from '../webhook/dispatch.js';
import { VersionedObjects } from '../webhook/invocation.js';
import { PolicyCompilerCache } from './compile.js';
import { policyDenialError, validateRequest, type PolicyHook } from './dispatch.js';
import type { ParamKindSource, PolicyDeps, ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from './types.js';

/** The param objects of a paramKind, read from the server's store as its own user. */
function paramSource(host: PluginHost, entry: ResourceEntry): ParamKindSource {
  const namespaced = entry.info.scope === 'Namespaced';
  const ctx = (namespace: string) => host.systemContext(entry, namespaced ? { namespace } : {});
  return {
    namespaced,
    get: async (namespace, name) => (await host.store.find(ctx(namespace), name)) as KubeObject | undefined,
    async list(namespace, selector: LabelSelector) {
      const list = await host.store.list(ctx(namespace), { ...ALL_OBJECTS, labelSelector: labelSelectorFromObject(selector) });
      return list.items as KubeObject[];
    },
  };
}

/** What the engine needs from a server, for one request. */
function policyDeps(host: PluginHost, attrs: AdmissionAttributes, getNamespace: NamespaceGetter): PolicyDeps {
  const versions = new VersionedObjects(attrs, host);
  return {
    paramKind(paramKind) {
      const { group, version, kind } = gvkFromObject(paramKind);
      const entry = host.registry.byKind(group, version, kind);
      return entry ? paramSource(host, entry) : undefined;
    },
    getNamespace,
    equivalentResources: (info) => host.equivalentResources(info),
    objectsAt: (info) => versions.at(info),
    authorize: ((a) => host.authorize(a as never)) as AdmissionAuthorizer,
  };
}

/**
 * kube's ValidatingAdmissionPolicy admission plugin in a server: follows the policies and their bindings (each
 * policy generation compiled once; `onPolicies` sees every new list of policies, for their status) and validates
 * each write against them.
 */
export function policyAdmission(
  host: PluginHost,
  policies: ResourceEntry,
  bindings: ResourceEntry,
  getNamespace: NamespaceGetter,
  onPolicies: (policies: readonly KubeObject[]) => void = () => {},
): AdmissionPlugin {
  const cache = new PolicyCompilerCache();
  let hooks: PolicyHook[] = [];
  let policyObjects: readonly ValidatingAdmissionPolicy[] = [];
  let bindingObjects: readonly ValidatingAdmissionPolicyBinding[] = [];
  const rebuild = () => {
    cache.retain(policyObjects);
    hooks = policyObjects
      .map((policy) => ({ policy, compiled: cache.get(policy), bindings: bindingObjects.filter((b) => b.spec?.policyName === policy.metadata.name) }))
      .filter((hook) => hook.bindings.length > 0);
  };
  followObjects(host, policies, (objects) => {
    policyObjects = objects as unknown as ValidatingAdmissionPolicy[];
    rebuild();
    onPolicies(objects);
  });
  followObjects(host, bindings, (objects) => {
    bindingObjects = objects as unknown as ValidatingAdmissionPolicyBinding[];
    rebuild();
  });
  return {
    name: 'ValidatingAdmissionPolicy',
    stage: 'dynamic',
    matches: () => hooks.length > 0,
    async validate(attrs) {
      if (hooks.length === 0 || exemptFromAdmission(attrs)) return;
      const result = await validateRequest(hooks, attrs, policyDeps(host, attrs, getNamespace));
      for (const [key, value] of Object.entries(result.auditAnnotations)) attrs.annotate(key, value);
      for (const warning of result.warnings) attrs.warn(warning);
      if (result.denied) throw policyDenialError(attrs, result.denied);
    },
  };
}
