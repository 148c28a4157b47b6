// Public API of @kapi/flowcontrol: API Priority and Fairness for a Kapi server.
import { group } from '@kapi/api-flowcontrol';
import type { GroupPlugin } from '@kapi/apiserver';
import { buildConfig, type FlowConfig } from './config.js';
import { installController, type ConfigHolder } from './controller.js';
import { MANDATORY_FLOW_SCHEMAS, MANDATORY_PRIORITY_LEVELS, SUGGESTED_FLOW_SCHEMAS, SUGGESTED_PRIORITY_LEVELS } from './bootstrap.js';
import { DUMP_PRIORITY_LEVELS_PATH, DUMP_QUEUES_PATH, DUMP_REQUESTS_PATH, dumpPriorityLevels, dumpQueues, dumpRequests } from './dump.js';
import { createGate } from './gate.js';
import { flowControlMetrics } from './metrics.js';
import { defaulters, strategies } from './validation.js';

export {
  AUTO_UPDATE_ANNOTATION,
  MANDATORY_FLOW_SCHEMAS,
  MANDATORY_PRIORITY_LEVELS,
  SUGGESTED_FLOW_SCHEMAS,
  SUGGESTED_PRIORITY_LEVELS,
} from './bootstrap.js';
export { buildConfig, classify, FLOW_SCHEMA_UID_HEADER, PRIORITY_LEVEL_UID_HEADER, type FlowConfig, type PriorityLevel } from './config.js';
export { matchesFlowSchema } from './match.js';
export { Dealer, flowHash } from './dealer.js';
export { QueueSet, type QueueDigest, type QueueSetConfig, type Rejection, type RequestDigest, type Ticket } from './queue-set.js';
export { createGate, TOO_MANY_REQUESTS } from './gate.js';
export { adjustBorrowing, BORROWING_PERIOD_MS } from './borrowing.js';
export { allocateConcurrency, type AllocationItem } from './allocation.js';
export { validateFlowSchema, validatePriorityLevel } from './validation.js';
export { DUMP_PRIORITY_LEVELS_PATH, DUMP_QUEUES_PATH, DUMP_REQUESTS_PATH, dumpPriorityLevels, dumpQueues, dumpRequests } from './dump.js';
export { WatchTracker } from './watch-tracker.js';
export { estimateWork, type WorkEstimate } from './work-estimate.js';

/**
 * API Priority and Fairness (kube-apiserver's `--enable-priority-and-fairness`, on by default in kube 1.33) as a
 * plugin: it serves flowcontrol.apiserver.k8s.io/v1 (FlowSchemas and PriorityLevelConfigurations, with kube's
 * bootstrap objects) and gates every request in place of the in-flight limits. The server's concurrency is
 * `--max-requests-inflight` plus `--max-mutating-requests-inflight`, shared between priority levels by their
 * nominal concurrency shares, and lent to busier levels as demand moves; within a level, flows (a FlowSchema and a
 * user or namespace) queue fairly.
 */
export interface PriorityAndFairnessOptions {
  /** How often levels lend and borrow seats by their demand (kube's 10 s). */
  borrowingPeriodMs?: number;
}

export function priorityAndFairness(options: PriorityAndFairnessOptions = {}): GroupPlugin {
  return {
    ...flowControlGroup(),
    install(host) {
      // Until the objects are read at start, the bootstrap configuration classifies (without UIDs to report).
      const holder: ConfigHolder = {
        config: buildConfig(
          [...MANDATORY_FLOW_SCHEMAS, ...SUGGESTED_FLOW_SCHEMAS],
          [...MANDATORY_PRIORITY_LEVELS, ...SUGGESTED_PRIORITY_LEVELS],
          host.limits.maxRequestsInflight + host.limits.maxMutatingRequestsInflight,
        ),
      };
      const config = (): FlowConfig => holder.config;
      installController(host, holder, options.borrowingPeriodMs);
      host.setRequestGate(createGate(config, host, flowControlMetrics(host, config)));
      // kube's debug dumps, for those RBAC lets read them (cluster-admin).
      const text = (body: string) => new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
      host.addPath(DUMP_PRIORITY_LEVELS_PATH, () => text(dumpPriorityLevels(config())));
      host.addPath(DUMP_QUEUES_PATH, () => text(dumpQueues(config())));
      host.addPath(DUMP_REQUESTS_PATH, (request) => text(dumpRequests(config(), !!new URL(request.url).searchParams.get('includeRequestDetails'))));
    },
  };
}

/** The flowcontrol.apiserver.k8s.io/v1 group alone (validation and defaults included), gating nothing. */
export function flowControlGroup(): GroupPlugin {
  return { definition: group, strategies, defaulters };
}
