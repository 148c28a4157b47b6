import { asObjects, isObj, str } from '@kapi/apimachinery';
import type { ScopeSelector } from './evaluators.js';

/**
 * One entry of the ResourceQuota admission plugin's `limitedResources` (kube's resourcequota LimitedResource): a
 * resource whose consumption needs a covering quota, for the resource names containing one of `matchContains`
 * (`cpu` catches `requests.cpu` and `limits.cpu`), and the scopes objects in which need one (`matchScopes`).
 */
export interface LimitedResource {
  apiGroup: string;
  resource: string;
  matchContains: string[];
  matchScopes: ScopeSelector[];
}

/** The ResourceQuota admission plugin's configuration (kube's ResourceQuotaConfiguration). */
export interface ResourceQuotaConfiguration {
  limitedResources: LimitedResource[];
}

/** The kinds kube's ResourceQuota plugin reads its configuration as (its scheme: the current one and the legacy ones). */
const KINDS = new Set([
  'apiserver.config.k8s.io/v1/ResourceQuotaConfiguration',
  'resourcequota.admission.k8s.io/v1beta1/Configuration',
  'resourcequota.admission.k8s.io/v1alpha1/Configuration',
]);

/**
 * kube's LoadConfiguration and ValidateConfiguration of the ResourceQuota plugin: the configuration of an
 * AdmissionConfiguration's `ResourceQuota` entry, decoded (as JSON or YAML already parsed). Throws kube's reason
 * when it is another kind, or an entry names no resource.
 */
export function parseResourceQuotaConfiguration(value: unknown): ResourceQuotaConfiguration {
  if (!isObj(value)) throw new Error("Object 'Kind' is missing in the ResourceQuota configuration");
  const apiVersion = str(value.apiVersion);
  const kind = str(value.kind);
  if (!kind) throw new Error("Object 'Kind' is missing in the ResourceQuota configuration");
  if (!apiVersion) throw new Error("Object 'apiVersion' is missing in the ResourceQuota configuration");
  if (!KINDS.has(`${apiVersion}/${kind}`)) throw new Error(`no kind "${kind}" is registered for version "${apiVersion}" in the ResourceQuota plugin's scheme`);
  const errors: string[] = [];
  const limitedResources = asObjects(value.limitedResources).map((entry, i): LimitedResource => {
    if (!str(entry.resource)) errors.push(`limitedResources[${i}].resource: Required value`);
    return {
      apiGroup: str(entry.apiGroup),
      resource: str(entry.resource),
      matchContains: Array.isArray(entry.matchContains) ? entry.matchContains.map(String) : [],
      matchScopes: asObjects(entry.matchScopes).map((s) => ({ scopeName: str(s.scopeName), operator: str(s.operator), values: Array.isArray(s.values) ? s.values.map(String) : [] })),
    };
  });
  // field.ErrorList.ToAggregate: one error as it is, several in brackets.
  if (errors.length === 1) throw new Error(errors[0]);
  if (errors.length) throw new Error(`[${errors.join(', ')}]`);
  return { limitedResources };
}
