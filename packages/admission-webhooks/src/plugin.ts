import { admissionregistrationPlugin, type CheckExpression } from '@kapi/api-admissionregistration';
import { createWebhookClient, serviceResolver, type GroupPlugin, type PluginHost, type ResourceEntry } from '@kapi/apiserver';
import type { KubeObject } from '@kapi/apimachinery';
import type { ConditionCompiler } from './conditions.js';
import type { NamespaceGetter } from './match/index.js';
import { dispatchMutating } from './webhook/mutating.js';
import { createWebhookSource } from './webhook/source.js';
import { dispatchValidating } from './webhook/validating.js';

const GROUP = 'admissionregistration.k8s.io';

export interface AdmissionWebhooksOptions {
  /** Compiles CEL match conditions; the default is @kapi/cel's admission environment. */
  compileCondition?: ConditionCompiler;
  /** Checks the CEL expressions of configurations and policies as they are written (422 when one does not compile). */
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
 * Installs dynamic admission in a server: the webhook configurations are followed as they change, and the
 * MutatingAdmissionWebhook and ValidatingAdmissionWebhook admission plugins call them, at the end of the chain.
 */
export function installWebhooks(host: PluginHost, compile: ConditionCompiler): void {
  const client = createWebhookClient(serviceResolver(host));
  const getNamespace = namespaceGetter(host);
  const deps = {
    client,
    host,
    getNamespace,
    metrics: host.metrics,
    defaults: (obj: KubeObject, info: { group: string; version: string; plural: string }) => host.registry.lookup(info.group, info.version, info.plural)?.defaults(obj),
  };
  const mutatingEntry = entryOf(host, 'MutatingWebhookConfiguration');
  const validatingEntry = entryOf(host, 'ValidatingWebhookConfiguration');
  const mutating = createWebhookSource(host, mutatingEntry, 'mutating', compile);
  const validating = createWebhookSource(host, validatingEntry, 'validating', compile);
  host.onStart(() => Promise.all([mutating.sync(), validating.sync()]).then(() => undefined));
  host.onObjectsChange(mutatingEntry, () => void mutating.sync());
  host.onObjectsChange(validatingEntry, () => void validating.sync());
  host.onStop(() => client.close());
  host.addAdmission({ name: 'MutatingAdmissionWebhook', stage: 'dynamic', mutate: (attrs) => dispatchMutating(mutating.webhooks(), attrs, deps) });
  host.addAdmission({ name: 'ValidatingAdmissionWebhook', stage: 'dynamic', validate: (attrs) => dispatchValidating(validating.webhooks(), attrs, deps) });
}

/**
 * Dynamic admission for a Kapi server (kube-apiserver's MutatingAdmissionWebhook, ValidatingAdmissionPolicy and
 * ValidatingAdmissionWebhook plugins): serves `admissionregistration.k8s.io/v1` and calls what its objects
 * configure on every write. Add it to `createApiServer({ plugins })`.
 */
export function admissionWebhooksPlugin(options: AdmissionWebhooksOptions = {}): GroupPlugin {
  return {
    ...admissionregistrationPlugin({ checkExpression: options.checkExpression }),
    install(host) {
      installWebhooks(host, options.compileCondition ?? (() => ({ error: 'CEL is not available' })));
    },
  };
}

/** The plugin with its defaults. */
export const plugin: GroupPlugin = admissionWebhooksPlugin();
