// kube's ValidatingAdmissionPolicy status controller: each new generation of a policy is type-checked against the
// kinds it matches, and `status.typeChecking` and `status.observedGeneration` written.
import { gvkFromObject, type KubeObject } from '@kapi/apimachinery';
import type { PluginHost, ResourceEntry } from '@kapi/apiserver';
import { structuralSchemaOf } from './schemas.js';
import { resourcesToCheck, typeCheckPolicy, type TypedKind } from './typecheck.js';
import type { ValidatingAdmissionPolicy } from './types.js';

interface PolicyStatus {
  observedGeneration?: number;
  typeChecking?: { expressionWarnings?: { fieldRef: string; warning: string }[] };
}

/** The kinds (with schemas) a policy is type-checked against, and its params' schema: what the server serves. */
function typedKinds(host: PluginHost, policy: ValidatingAdmissionPolicy) {
  const kinds: TypedKind[] = [];
  for (const r of resourcesToCheck(policy)) {
    const entry = host.registry.lookup(r.group, r.version, r.resource);
    const schema = entry && structuralSchemaOf(entry);
    if (entry && schema) kinds.push({ group: entry.info.group, version: entry.info.version, kind: entry.info.kind, schema });
  }
  const paramKind = policy.spec.paramKind;
  let params;
  if (paramKind) {
    const { group, version } = gvkFromObject(paramKind);
    const entry = host.registry.byKind(group, version, paramKind.kind);
    params = entry && structuralSchemaOf(entry);
  }
  return { kinds, params };
}

/**
 * Returns what to call with each new list of policies: those whose status does not yet describe their generation
 * are type-checked and their status written (one at a time; a policy changed meanwhile is checked again on the
 * next change).
 */
export function policyStatusController(host: PluginHost, entry: ResourceEntry): (policies: readonly KubeObject[]) => void {
  let queue: Promise<void> = Promise.resolve();
  const check = async (policy: ValidatingAdmissionPolicy) => {
    const { kinds, params } = typedKinds(host, policy);
    const warnings = typeCheckPolicy(policy, kinds, params);
    const ctx = host.systemContext(entry, { subresource: 'status' });
    await host.store.update(ctx, policy.metadata.name, (current) => {
      if (!current) throw new Error('gone');
      const meta = current.metadata as { generation?: number; uid?: string };
      // Another generation arrived meanwhile: it is checked on its own change.
      if (meta.generation !== policy.metadata.generation || meta.uid !== policy.metadata.uid) return current;
      const status: PolicyStatus = { ...(current.status as PolicyStatus), observedGeneration: meta.generation, typeChecking: warnings.length ? { expressionWarnings: warnings } : {} };
      return { ...current, status };
    }, { allowCreate: false });
  };
  return (policies) => {
    const stale = (policies as unknown as (ValidatingAdmissionPolicy & { status?: PolicyStatus })[]).filter(
      (p) => p.status?.observedGeneration !== p.metadata.generation,
    );
    if (stale.length === 0) return;
    queue = queue.then(async () => {
      for (const policy of stale) {
        try {
          await check(policy);
        } catch (err) {
          if ((err as Error).message !== 'gone') host.log(1, `validatingadmissionpolicies: status of ${policy.metadata.name}: ${(err as Error).message}`);
        }
      }
    });
  };
}
