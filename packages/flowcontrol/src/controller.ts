import type { FlowSchema, FlowSchemaCondition, PriorityLevelConfiguration } from '@kapi/api-flowcontrol';
import { isStatusError, newNotFound, type KubeObject } from '@kapi/apimachinery';
import { ALL_OBJECTS, nowTimestamp, type PluginHost, type RequestContext, type ResourceEntry } from '@kapi/apiserver';
import { isDeepStrictEqual } from 'node:util';
import {
  AUTO_UPDATE_ANNOTATION,
  MANDATORY_FLOW_SCHEMAS,
  MANDATORY_PRIORITY_LEVELS,
  SUGGESTED_FLOW_SCHEMAS,
  SUGGESTED_PRIORITY_LEVELS,
} from './bootstrap.js';
import { adjustBorrowing, BORROWING_PERIOD_MS } from './borrowing.js';
import { buildConfig, type FlowConfig } from './config.js';

export const GROUP = 'flowcontrol.apiserver.k8s.io';

/** The reason of a kube Status error (AlreadyExists, Conflict, NotFound, ...), undefined for any other error. */
const reasonOf = (err: unknown) => (isStatusError(err) ? err.status.reason : undefined);

/** The 404 an updater gives when the object is gone. */
const gone = (entry: ResourceEntry, name: string) => newNotFound({ group: entry.info.group, resource: entry.info.plural }, name);

const sameCondition = (a: FlowSchemaCondition | undefined, b: FlowSchemaCondition) =>
  a !== undefined && a.status === b.status && a.reason === b.reason && a.message === b.message;

/** Where the gate reads the configuration the controller keeps. */
export interface ConfigHolder {
  config: FlowConfig;
}

/**
 * kube's APF configuration controllers: at start, the bootstrap FlowSchemas and PriorityLevelConfigurations are
 * made to exist (mandatory ones as kube mandates them; suggested ones created when missing and updated while their
 * autoupdate annotation is "true"); then every change to either kind, by any server on the storage, rebuilds the
 * gate's configuration, puts back a mandatory object that was changed or deleted, and sets each FlowSchema's `Dangling`
 * condition (whether its priority level exists).
 */
export function installController(host: PluginHost, holder: ConfigHolder, borrowingPeriodMs = BORROWING_PERIOD_MS): void {
  const fsEntry = host.registry.byKind(GROUP, 'v1', 'FlowSchema');
  const plEntry = host.registry.byKind(GROUP, 'v1', 'PriorityLevelConfiguration');
  if (!fsEntry || !plEntry) throw new Error(`API Priority and Fairness needs the ${GROUP}/v1 group installed`);
  const log = (message: string) => host.log(1, `flowcontrol: ${message}`);
  const ctx = (entry: ResourceEntry, subresource = ''): RequestContext => host.systemContext(entry, { subresource });
  const serverConcurrency = host.limits.maxRequestsInflight + host.limits.maxMutatingRequestsInflight;

  const list = async <T>(entry: ResourceEntry) => (await host.store.list(ctx(entry), ALL_OBJECTS)).items as unknown as T[];

  /** Creates the object, or puts its spec back as kube mandates when `force` (or its autoupdate annotation) says so. */
  const ensure = async (entry: ResourceEntry, wanted: FlowSchema | PriorityLevelConfiguration, force: boolean) => {
    const name = wanted.metadata!.name!;
    const desired = structuredClone(wanted) as unknown as KubeObject;
    entry.defaults(desired);
    try {
      const current = await host.store.find(ctx(entry), name);
      if (!current) {
        await host.store.create(ctx(entry), desired);
        return;
      }
      const autoUpdate = (current.metadata as { annotations?: Record<string, string> }).annotations?.[AUTO_UPDATE_ANNOTATION] === 'true';
      if (isDeepStrictEqual(current.spec, desired.spec) || !(force || autoUpdate)) return;
      await host.store.update(ctx(entry), name, (latest) => {
        if (!latest) throw gone(entry, name);
        return { ...latest, spec: desired.spec } as KubeObject;
      });
    } catch (err) {
      // Another server on the same storage did it first.
      const reason = reasonOf(err);
      if (reason !== 'AlreadyExists' && reason !== 'Conflict' && reason !== 'NotFound') throw err;
    }
  };

  const setDangling = async (fs: FlowSchema, levels: ReadonlySet<string>) => {
    const name = fs.metadata?.name ?? '';
    const level = fs.spec?.priorityLevelConfiguration?.name ?? '';
    const found = levels.has(level);
    const wanted: FlowSchemaCondition = {
      type: 'Dangling',
      status: found ? 'False' : 'True',
      reason: found ? 'Found' : 'NotFound',
      message: found
        ? `This FlowSchema references the PriorityLevelConfiguration object named "${level}" and it exists`
        : `This FlowSchema references the PriorityLevelConfiguration object named "${level}" but there is no such object`,
    };
    const dangling = (status: FlowSchema['status']) => (status?.conditions ?? []).find((c) => c.type === 'Dangling');
    if (sameCondition(dangling(fs.status), wanted)) return;
    await host.store.update(ctx(fsEntry, 'status'), name, (latest) => {
      if (!latest) throw gone(fsEntry, name);
      const status = latest.status as FlowSchema['status'];
      // Another server on the same storage may have set it meanwhile.
      if (sameCondition(dangling(status), wanted)) return latest;
      const conditions = (status?.conditions ?? []).filter((c) => c.type !== 'Dangling');
      return { ...latest, status: { ...status, conditions: [...conditions, { ...wanted, lastTransitionTime: nowTimestamp() }] } } as KubeObject;
    });
  };

  const reload = async () => {
    const [schemas, levels] = await Promise.all([list<FlowSchema>(fsEntry), list<PriorityLevelConfiguration>(plEntry)]);
    holder.config = buildConfig(schemas, levels, serverConcurrency, holder.config);
    const levelNames = new Set(levels.map((l) => l.metadata?.name ?? ''));
    // Mandatory objects changed or deleted are put back.
    for (const pl of MANDATORY_PRIORITY_LEVELS) await ensure(plEntry, pl, true);
    for (const fs of MANDATORY_FLOW_SCHEMAS) await ensure(fsEntry, fs, true);
    for (const fs of schemas) {
      try {
        await setDangling(fs, levelNames);
      } catch (err) {
        const reason = reasonOf(err);
        if (reason !== 'Conflict' && reason !== 'NotFound') throw err;
      }
    }
  };

  // Changes are handled one at a time, in order.
  let queue = Promise.resolve();
  const changed = () => {
    queue = queue.then(reload).catch((err: Error) => log(`reloading the configuration failed: ${err.message}`));
  };

  let borrowing: ReturnType<typeof setInterval> | undefined;
  host.onStart(async () => {
    for (const pl of MANDATORY_PRIORITY_LEVELS) await ensure(plEntry, pl, true);
    for (const pl of SUGGESTED_PRIORITY_LEVELS) await ensure(plEntry, pl, false);
    for (const fs of MANDATORY_FLOW_SCHEMAS) await ensure(fsEntry, fs, true);
    for (const fs of SUGGESTED_FLOW_SCHEMAS) await ensure(fsEntry, fs, false);
    await reload();
    // Levels lend and borrow seats as their demand changes (not when the server's concurrency is unlimited).
    if (serverConcurrency > 0) borrowing = setInterval(() => adjustBorrowing(holder.config), borrowingPeriodMs).unref();
  });
  host.onObjectsChange(fsEntry, changed);
  host.onObjectsChange(plEntry, changed);
  host.onStop(() => {
    clearInterval(borrowing);
    return queue;
  });
}
