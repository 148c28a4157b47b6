import { admissionregistrationPlugin, type CheckExpression } from '@kapi/api-admissionregistration';
import { createWebhookClient, serviceResolver, type AdmissionPlugin, type GroupPlugin, type PluginHost, type ResourceEntry } from '@kapi/apiserver';
import type { KubeObject } from '@kapi/apimachinery';
import { celCheckExpression } from './cel-check.js';
import { celConditionCompiler } from './cel-conditions.js';
import type { ConditionCompiler } from './conditions.js';
import { policyAdmission } from './policy/server.js';
import { policyStatusController } from './policy/status.js';
import type { NamespaceGetter } from './match/index.js';
import { dispatchMutating } from './webhook/mutating.js';
import { followWebhooks } from './webhook/source.js';
import { dispatchValidating } from './webhook/validating.js';

const GROUP = 'admissionregistration.k8s.io';

export interface AdmissionWebhooksOptions {
  /** Compiles CEL match conditions; the default is @kapi/cel's admission environment. */
  compileCondition?: ConditionCompiler;
  /** Checks the CEL expressions of configurations and policies as they are written (422 when one does not compile); @kapi/cel's by default. */
  checkExpression?: CheckExpression;
}

const entryOf = (host: PluginHost, kind: string): ResourceEntry => {
  const entry = host.registry.byKind(GROUP, 'v1', kind);
  if (!entry) throw new Error(`${GROUP}/v1 ${kind} is not installed`);
  return entry;
};

/** Reads a namespace as the server's own user (for namespaceSelector); undefined when it does not exist. */
export function namespaceGetter(host: PluginHost): NamespaceGetter {
  return async (name) => {
    const namespaces = host.registry.byKind('', 'v1', 'Namespace');
    if (!namespaces) return undefined;
    return (await host.store.find(host.systemContext(namespaces), name)) as KubeObject | undefined;
  };
}

/**
 * The webhook admission plugins of a server (kube's MutatingAdmissionWebhook and ValidatingAdmissionWebhook): the
 * webhook configurations are followed as they change, and called through one kept-alive client.
 */
export function webhookAdmission(host: PluginHost, compile: ConditionCompiler): { mutating: AdmissionPlugin; validating: AdmissionPlugin } {
  const client = createWebhookClient(serviceResolver(host));
  const deps = {
    client,
    host,
    getNamespace: namespaceGetter(host),
    metrics: host.metrics,
    defaults: (obj: KubeObject, info: { group: string; version: string; plural: string }) => host.registry.lookup(info.group, info.version, info.plural)?.defaults(obj),
  };
  const mutating = followWebhooks(host, entryOf(host, 'MutatingWebhookConfiguration'), 'mutating', compile);
  const validating = followWebhooks(host, entryOf(host, 'ValidatingWebhookConfiguration'), 'validating', compile);
  host.onStop(() => client.close());
  return {
    mutating: {
      name: 'MutatingAdmissionWebhook',
      stage: 'dynamic',
      matches: () => mutating().length > 0,
      mutate: (attrs) => dispatchMutating(mutating(), attrs, deps),
    },
    validating: {
      name: 'ValidatingAdmissionWebhook',
      stage: 'dynamic',
      matches: () => validating().length > 0,
      validate: (attrs) => dispatchValidating(validating(), attrs, deps),
    },
  };
}

/**
 * Dynamic admission for a Kapi server (kube-apiserver's MutatingAdmissionWebhook, ValidatingAdmissionPolicy and
 * ValidatingAdmissionWebhook plugins): serves `admissionregistration.k8s.io/v1` and calls what its objects
 * configure on every write. Add it to `createApiServer({ plugins })`.
 */
export function admissionWebhooksPlugin(options: AdmissionWebhooksOptions = {}): GroupPlugin {
  return {
    ...admissionregistrationPlugin({ checkExpression: options.checkExpression ?? celCheckExpression }),
    install(host) {
      // kube's order: MutatingAdmissionWebhook, ValidatingAdmissionPolicy, ValidatingAdmissionWebhook, all after
      // the in-process plugins.
      const webhooks = webhookAdmission(host, options.compileCondition ?? celConditionCompiler);
      const policies = entryOf(host, 'ValidatingAdmissionPolicy');
      host.addAdmission(webhooks.mutating);
      host.addAdmission(policyAdmission(host, policies, entryOf(host, 'ValidatingAdmissionPolicyBinding'), namespaceGetter(host), policyStatusController(host, policies)));
      host.addAdmission(webhooks.validating);
    },
  };
}

/** The plugin with its defaults. */
export const plugin: GroupPlugin = admissionWebhooksPlugin();
