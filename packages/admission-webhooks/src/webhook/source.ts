import type { KubeObject } from '@kapi/apimachinery';
import { followObjects, type PluginHost, type ResourceEntry } from '@kapi/apiserver';
import { compileMatchConditions, type ConditionCompiler } from '../conditions.js';
import type { Webhook } from './types.js';

interface WebhookSpec {
  name: string;
  clientConfig?: Webhook['clientConfig'];
  rules?: Webhook['rules'];
  failurePolicy?: string;
  matchPolicy?: string;
  namespaceSelector?: Webhook['namespaceSelector'];
  objectSelector?: Webhook['objectSelector'];
  sideEffects?: string;
  timeoutSeconds?: number;
  admissionReviewVersions?: string[];
  reinvocationPolicy?: string;
  matchConditions?: { name: string; expression: string }[];
}

/**
 * The webhooks of the Mutating- or ValidatingWebhookConfigurations of a server (kube's configuration manager), in
 * kube's order: by configuration name, then as listed; current within a second of a change. Each configuration's
 * match conditions are compiled once per resourceVersion.
 */
export function followWebhooks(host: PluginHost, entry: ResourceEntry, type: Webhook['type'], compile: ConditionCompiler): () => readonly Webhook[] {
  let current: Webhook[] = [];
  const compiled = new Map<string, { rv: string; hooks: Webhook[] }>();

  const toWebhooks = (config: KubeObject): Webhook[] => {
    const meta = config.metadata as { name: string; resourceVersion?: string };
    const cached = compiled.get(meta.name);
    if (cached && cached.rv === meta.resourceVersion) return cached.hooks;
    const hooks = ((config.webhooks as WebhookSpec[] | undefined) ?? []).map(
      (w): Webhook => ({
        type,
        configuration: meta.name,
        name: w.name,
        index: 0,
        clientConfig: w.clientConfig ?? {},
        rules: w.rules ?? [],
        failurePolicy: w.failurePolicy === 'Ignore' ? 'Ignore' : 'Fail',
        matchPolicy: w.matchPolicy === 'Exact' ? 'Exact' : 'Equivalent',
        namespaceSelector: w.namespaceSelector,
        objectSelector: w.objectSelector,
        sideEffects: w.sideEffects,
        timeoutSeconds: w.timeoutSeconds ?? 10,
        admissionReviewVersions: w.admissionReviewVersions ?? [],
        reinvocationPolicy: w.reinvocationPolicy === 'IfNeeded' ? 'IfNeeded' : 'Never',
        matchConditions: compileMatchConditions(w.matchConditions ?? [], compile),
      }),
    );
    compiled.set(meta.name, { rv: String(meta.resourceVersion ?? ''), hooks });
    return hooks;
  };

  followObjects(host, entry, (configs) => {
    const names = new Set(configs.map((c) => String((c.metadata as { name: string }).name)));
    for (const name of compiled.keys()) if (!names.has(name)) compiled.delete(name);
    current = configs.flatMap(toWebhooks).map((h, index) => ({ ...h, index }));
  });
  return () => current;
}
