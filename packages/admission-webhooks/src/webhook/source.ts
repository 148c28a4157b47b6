import type { KubeObject } from '@kapi/apimachinery';
import { ALL_OBJECTS, type PluginHost, type ResourceEntry } from '@kapi/apiserver';
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

/** The webhooks of the configurations of one kind, in kube's order: by configuration name, then as listed. */
export interface WebhookSource {
  webhooks(): readonly Webhook[];
  /** Reads the configurations again (called on every change of them). */
  sync(): Promise<void>;
}

/**
 * Follows the Mutating- or ValidatingWebhookConfigurations of a server (kube's configuration manager): read at
 * start and again whenever one changes, so a change takes effect without a restart. Each webhook's match
 * conditions are compiled once, when its configuration is read.
 */
export function createWebhookSource(host: PluginHost, entry: ResourceEntry, type: Webhook['type'], compile: ConditionCompiler): WebhookSource {
  let current: Webhook[] = [];
  const compiled = new Map<string, { rv: string; hooks: Webhook[] }>();
  let running: Promise<void> | undefined;
  let again = false;

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

  const load = async () => {
    const list = await host.store.list(host.systemContext(entry), ALL_OBJECTS);
    const configs = (list.items as KubeObject[]).slice().sort((a, b) => {
      const an = String((a.metadata as { name: string }).name);
      const bn = String((b.metadata as { name: string }).name);
      return an < bn ? -1 : an > bn ? 1 : 0;
    });
    const names = new Set<string>();
    const hooks: Webhook[] = [];
    for (const config of configs) {
      names.add(String((config.metadata as { name: string }).name));
      hooks.push(...toWebhooks(config));
    }
    for (const name of compiled.keys()) if (!names.has(name)) compiled.delete(name);
    current = hooks.map((h, index) => ({ ...h, index }));
  };

  return {
    webhooks: () => current,
    async sync() {
      if (running) {
        again = true;
        return running;
      }
      running = (async () => {
        try {
          do {
            again = false;
            await load();
          } while (again);
        } catch (err) {
          host.log(1, `${type} webhook configurations: ${(err as Error).message}`);
        } finally {
          running = undefined;
        }
      })();
      return running;
    },
  };
}
