import type { AdmissionAttributes } from '@kapi/apiserver';
import { applyPatch, checkDeadline } from '@kapi/apiserver';
import { isObj, newInternalError, type KubeObject, type ResourceInfo } from '@kapi/apimachinery';
import { callWebhook, CallingWebhookError, rejection } from './call.js';
import { exemptFromAdmission, withFailurePolicy, type DispatchDeps } from './dispatch.js';
import { shouldCallHook, VersionedObjects } from './invocation.js';
import type { AdmissionResponse, Invocation } from './review.js';
import type { Webhook } from './types.js';

const MUTATION = 'mutation.webhook.admission.k8s.io/';
const FAILED_OPEN = 'failed-open.mutation.webhook.admission.k8s.io/';

/** A mutating dispatcher's needs beyond a validating one's: the defaults of a kind's version, applied after each patch. */
export interface MutatingDeps extends DispatchDeps {
  defaults(obj: KubeObject, info: ResourceInfo): void;
}

/**
 * kube's mutating webhook dispatcher: the webhooks that apply are called one at a time, in order, each seeing
 * what the ones before made of the object; a JSONPatch answer is applied (then the kind's defaults), in the
 * version the webhook matched. Webhooks with `reinvocationPolicy: IfNeeded` are called once more, in a second
 * round, when a webhook after them changed the object (in either round, as kube's reinvocation context). The object in `attrs` is changed in place; nothing of a failed patch is
 * kept.
 */
export async function dispatchMutating(hooks: readonly Webhook[], attrs: AdmissionAttributes, deps: MutatingDeps): Promise<void> {
  if (hooks.length === 0 || exemptFromAdmission(attrs)) return;
  const versions = new VersionedObjects(attrs, deps.host);
  // kube's webhookReinvokeContext: the IfNeeded webhooks called so far, and those to call again because the object
  // changed after them.
  const invoked = new Set<Webhook>();
  const reinvoke = new Set<Webhook>();

  const round = async (r: number) => {
    for (const hook of hooks) {
      if (r > 0 && !reinvoke.has(hook)) continue;
      checkDeadline(attrs);
      const invocation = await shouldCallHook(hook, attrs, versions, deps.host, deps.getNamespace);
      if (!invocation) continue;
      const mutated = await withFailurePolicy(deps, hook, attrs, `${FAILED_OPEN}round_${r}_index_${hook.index}`, async () => {
        const response = await callWebhook(deps.client, hook, attrs, invocation);
        if (!response.allowed) throw rejection(hook.name, response.result);
        return applyMutation(hook, response, attrs, invocation, deps);
      });
      if (mutated !== undefined) {
        attrs.annotate(`${MUTATION}round_${r}_index_${hook.index}`, JSON.stringify({ configuration: hook.configuration, webhook: hook.name, mutated }));
      }
      if (mutated) {
        versions.invalidate();
        for (const earlier of invoked) reinvoke.add(earlier);
      }
      if (hook.reinvocationPolicy === 'IfNeeded') invoked.add(hook);
    }
  };

  await round(0);
  if (reinvoke.size > 0 && attrs.object) await round(1);
}

/** Applies a mutating webhook's answer to the request's object; true when it changed it. */
async function applyMutation(hook: Webhook, response: AdmissionResponse, attrs: AdmissionAttributes, invocation: Invocation, deps: MutatingDeps): Promise<boolean> {
  if (!response.patch) return false;
  let ops: unknown;
  try {
    ops = JSON.parse(Buffer.from(response.patch, 'base64').toString('utf8'));
    if (!Array.isArray(ops)) throw new Error('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  } catch (err) {
    throw new CallingWebhookError(hook.name, `received undecodable patch in webhook response: ${(err as Error).message}`, 503);
  }
  if (ops.length === 0) return false;
  const current = invocation.object;
  if (!current || !attrs.object) throw newInternalError(`admission webhook "${hook.name}" attempted to modify the object, which is not supported for this operation`);
  if (response.patchType !== 'JSONPatch') throw new CallingWebhookError(hook.name, `unsupported patch type "${response.patchType ?? ''}"`, 400);
  let patched: unknown;
  try {
    patched = applyPatch('json', current, ops, { group: invocation.info.group, kind: invocation.info.kind }, attrs.name, invocation.info.patchMeta);
  } catch (err) {
    throw newInternalError(`admission webhook "${hook.name}" returned a patch that cannot be applied: ${(err as Error).message}`);
  }
  if (!isObj(patched) || patched.apiVersion !== current.apiVersion || patched.kind !== current.kind) {
    throw newInternalError(`admission webhook "${hook.name}" returned a patch that changes the object's apiVersion or kind`);
  }
  // The kind's defaults, as kube defaults the patched object; a subresource's own kind (a Scale) has none here.
  if (!attrs.kind) deps.defaults(patched, invocation.info);
  const changed = JSON.stringify(patched) !== JSON.stringify(current);
  if (!changed) return false;
  const converted = invocation.info === attrs.resource ? patched : await deps.host.convertObject(patched, attrs.resource);
  const target = attrs.object as Record<string, unknown>;
  for (const key of Object.keys(target)) delete target[key];
  Object.assign(target, converted);
  return true;
}
