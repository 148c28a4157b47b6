// kube's Go table printers of core/v1 kinds (pkg/printers/internalversion/printers.go), generated as for
// `-o wide`, as the server does: the cells kubectl users expect computed (Pod READY `1/2`, Service PORT(S)
// `80/TCP`, ConfigMap DATA = keys of data and binaryData) replace the JSONPath of the kinds' printer columns.
import {
  age,
  ageSince,
  at,
  formatLabels,
  humanDuration,
  int,
  isObj,
  keyCount,
  listAt,
  objAt,
  orNone,
  parseTimestamp,
  sortedUnique,
  str,
  type KubeObject,
  type TablePrinter,
} from '@kapi/apimachinery';
import { componentStatusPrinter } from './component-status/printer.js';
import { MORE_CORE_PRINTERS } from './more-printers.js';

// ---- Pod ---------------------------------------------------------------------------------------------------

interface PodSummary {
  ready: string;
  status: string;
  restarts: string;
}

const conditionTrue = (obj: unknown, type: string): boolean =>
  listAt(obj, 'status.conditions').some((c) => at(c, 'type') === type && at(c, 'status') === 'True');
const finishedAt = (containerStatus: unknown): number | null => {
  try {
    return parseTimestamp(str(at(containerStatus, 'lastState.terminated.finishedAt')));
  } catch {
    return null;
  }
};

/** printPod's READY, STATUS and RESTARTS, computed once per object. */
function podSummary(pod: KubeObject, now: number): PodSummary {
  const spec = objAt(pod, 'spec');
  const status = objAt(pod, 'status');
  const phase = str(status.phase);
  let reason = str(status.reason) || phase;
  if (listAt(status, 'conditions').some((c) => at(c, 'type') === 'PodScheduled' && at(c, 'reason') === 'SchedulingGated')) {
    reason = 'SchedulingGated';
  }

  const initSpecs = listAt(spec, 'initContainers');
  const restartable = new Set(initSpecs.filter((c) => at(c, 'restartPolicy') === 'Always').map((c) => str(at(c, 'name'))));
  const total = listAt(spec, 'containers').length + restartable.size;
  let ready = 0;
  let restarts = 0;
  let restartableRestarts = 0;
  let lastRestart = 0;
  let lastRestartableRestart = 0;

  let initializing = false;
  const initStatuses = listAt(status, 'initContainerStatuses');
  for (let i = 0; i < initStatuses.length; i++) {
    const cs = initStatuses[i];
    const isRestartable = restartable.has(str(at(cs, 'name')));
    restarts += int(at(cs, 'restartCount'));
    const finished = finishedAt(cs);
    if (finished !== null && finished > lastRestart) lastRestart = finished;
    if (isRestartable) {
      restartableRestarts += int(at(cs, 'restartCount'));
      if (finished !== null && finished > lastRestartableRestart) lastRestartableRestart = finished;
    }
    const terminated = at(cs, 'state.terminated');
    const waitingReason = str(at(cs, 'state.waiting.reason'));
    if (isObj(terminated) && int(terminated.exitCode) === 0) continue;
    if (isRestartable && at(cs, 'started') === true) {
      if (at(cs, 'ready') === true) ready++;
      continue;
    }
    if (isObj(terminated)) {
      if (str(terminated.reason)) reason = `Init:${str(terminated.reason)}`;
      else if (int(terminated.signal) !== 0) reason = `Init:Signal:${int(terminated.signal)}`;
      else reason = `Init:ExitCode:${int(terminated.exitCode)}`;
    } else if (waitingReason && waitingReason !== 'PodInitializing') {
      reason = `Init:${waitingReason}`;
    } else {
      reason = `Init:${i}/${initSpecs.length}`;
    }
    initializing = true;
    break;
  }

  if (!initializing || conditionTrue(pod, 'Initialized')) {
    restarts = restartableRestarts;
    lastRestart = lastRestartableRestart;
    let hasRunning = false;
    const statuses = listAt(status, 'containerStatuses');
    for (let i = statuses.length - 1; i >= 0; i--) {
      const cs = statuses[i];
      restarts += int(at(cs, 'restartCount'));
      const finished = finishedAt(cs);
      if (finished !== null && finished > lastRestart) lastRestart = finished;
      const terminated = at(cs, 'state.terminated');
      const waitingReason = str(at(cs, 'state.waiting.reason'));
      if (waitingReason) reason = waitingReason;
      else if (isObj(terminated) && str(terminated.reason)) reason = str(terminated.reason);
      else if (isObj(terminated)) reason = int(terminated.signal) !== 0 ? `Signal:${int(terminated.signal)}` : `ExitCode:${int(terminated.exitCode)}`;
      else if (at(cs, 'ready') === true && isObj(at(cs, 'state.running'))) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed' && hasRunning) reason = conditionTrue(pod, 'Ready') ? 'Running' : 'NotReady';
  }

  if (pod.metadata?.deletionTimestamp && status.reason === 'NodeLost') reason = 'Unknown';
  else if (pod.metadata?.deletionTimestamp && phase !== 'Succeeded' && phase !== 'Failed') reason = 'Terminating';

  const restartText = restarts !== 0 && lastRestart !== 0 ? `${restarts} (${humanDuration(now - lastRestart)} ago)` : String(restarts);
  return { ready: `${ready}/${total}`, status: reason, restarts: restartText };
}

const podSummaries = new WeakMap<KubeObject, { now: number; summary: PodSummary }>();
function cachedPodSummary(pod: KubeObject, now: number): PodSummary {
  const hit = podSummaries.get(pod);
  if (hit && hit.now === now) return hit.summary;
  const summary = podSummary(pod, now);
  podSummaries.set(pod, { now, summary });
  return summary;
}

function readinessGates(pod: KubeObject): string {
  const gates = listAt(pod, 'spec.readinessGates');
  if (gates.length === 0) return '<none>';
  const conditions = listAt(pod, 'status.conditions');
  const trueCount = gates.filter((g) => {
    const condition = conditions.find((c) => at(c, 'type') === at(g, 'conditionType'));
    return condition !== undefined && at(condition, 'status') === 'True';
  }).length;
  return `${trueCount}/${gates.length}`;
}

const pod: TablePrinter = {
  cells: {
    Ready: (obj, now) => cachedPodSummary(obj, now).ready,
    Status: (obj, now) => cachedPodSummary(obj, now).status,
    Restarts: (obj, now) => cachedPodSummary(obj, now).restarts,
    Age: age,
    IP: (obj) => orNone(str(at(listAt(obj, 'status.podIPs')[0], 'ip')) || str(at(obj, 'status.podIP'))),
    Node: (obj) => orNone(str(at(obj, 'spec.nodeName'))),
    'Nominated Node': (obj) => orNone(str(at(obj, 'status.nominatedNodeName'))),
    'Readiness Gates': readinessGates,
  },
  conditions: (obj) => {
    const phase = at(obj, 'status.phase');
    if (phase === 'Succeeded') return [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }];
    if (phase === 'Failed') return [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }];
    return undefined;
  },
};

// ---- Service -----------------------------------------------------------------------------------------------

/** getServiceExternalIP, wide: load-balancer ingress (sorted, unclipped) and external IPs by service type. */
function serviceExternalIP(svc: KubeObject): string {
  const externalIPs = listAt(svc, 'spec.externalIPs').map(str);
  switch (at(svc, 'spec.type')) {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      const ingress = sortedUnique(
        listAt(svc, 'status.loadBalancer.ingress')
          .map((i) => str(at(i, 'ip')) || str(at(i, 'hostname')))
          .filter(Boolean),
      );
      if (externalIPs.length > 0) return [...ingress, ...externalIPs].join(',');
      return ingress.length > 0 ? ingress.join(',') : '<pending>';
    }
    case 'ExternalName':
      return str(at(svc, 'spec.externalName'));
    default:
      return '<unknown>';
  }
}

function servicePorts(svc: KubeObject): string {
  const pieces = listAt(svc, 'spec.ports').map((p) => {
    // protocol is defaulted to TCP on the way in; an object stored without defaults reads the same
    const protocol = str(at(p, 'protocol')) || 'TCP';
    const nodePort = int(at(p, 'nodePort'));
    return nodePort > 0 ? `${int(at(p, 'port'))}:${nodePort}/${protocol}` : `${int(at(p, 'port'))}/${protocol}`;
  });
  return orNone(pieces.join(','));
}

const service: TablePrinter = {
  cells: {
    Type: (obj) => str(at(obj, 'spec.type')),
    'Cluster-IP': (obj) => orNone(str(listAt(obj, 'spec.clusterIPs')[0]) || str(at(obj, 'spec.clusterIP'))),
    'External-IP': serviceExternalIP,
    'Port(s)': servicePorts,
    Age: age,
    Selector: (obj) => formatLabels(at(obj, 'spec.selector')),
  },
};

// ---- Node --------------------------------------------------------------------------------------------------

function nodeStatus(node: KubeObject): string {
  const ready = listAt(node, 'status.conditions').find((c) => at(c, 'type') === 'Ready');
  const status = ready === undefined ? ['Unknown'] : [at(ready, 'status') === 'True' ? 'Ready' : 'NotReady'];
  if (at(node, 'spec.unschedulable') === true) status.push('SchedulingDisabled');
  return status.join(',');
}

function nodeRoles(node: KubeObject): string {
  const roles: string[] = [];
  for (const [key, value] of Object.entries(node.metadata?.labels ?? {})) {
    if (key.startsWith('node-role.kubernetes.io/') && key.length > 'node-role.kubernetes.io/'.length) {
      roles.push(key.slice('node-role.kubernetes.io/'.length));
    } else if (key === 'kubernetes.io/role' && value) {
      roles.push(value);
    }
  }
  return orNone(sortedUnique(roles).join(','));
}

const nodeAddress = (type: string) => (node: KubeObject) =>
  orNone(str(at(listAt(node, 'status.addresses').find((a) => at(a, 'type') === type), 'address')));
const nodeInfo = (field: string) => (node: KubeObject) => str(at(node, `status.nodeInfo.${field}`)) || '<unknown>';

const node: TablePrinter = {
  cells: {
    Status: nodeStatus,
    Roles: nodeRoles,
    Age: age,
    Version: (obj) => str(at(obj, 'status.nodeInfo.kubeletVersion')),
    'Internal-IP': nodeAddress('InternalIP'),
    'External-IP': nodeAddress('ExternalIP'),
    'OS-Image': nodeInfo('osImage'),
    'Kernel-Version': nodeInfo('kernelVersion'),
    'Container-Runtime': nodeInfo('containerRuntimeVersion'),
  },
};

// ---- Event -------------------------------------------------------------------------------------------------

function eventFirstSeen(ev: KubeObject, now: number): string {
  const first = at(ev, 'firstTimestamp');
  return first ? ageSince(first, now) : ageSince(at(ev, 'eventTime'), now);
}

function eventLastSeen(ev: KubeObject, now: number): string {
  if (isObj(at(ev, 'series'))) return ageSince(at(ev, 'series.lastObservedTime'), now);
  const last = at(ev, 'lastTimestamp');
  return last ? ageSince(last, now) : eventFirstSeen(ev, now);
}

function eventCount(ev: KubeObject): number {
  if (isObj(at(ev, 'series'))) return int(at(ev, 'series.count'));
  // singleton events of the events.k8s.io API have no count
  return int(at(ev, 'count')) || 1;
}

function eventObject(ev: KubeObject): string {
  const kind = str(at(ev, 'involvedObject.kind')).toLowerCase();
  const name = str(at(ev, 'involvedObject.name'));
  return name ? `${kind}/${name}` : kind;
}

function eventSource(ev: KubeObject): string {
  const component = str(at(ev, 'source.component')) || str(at(ev, 'reportingComponent'));
  const instance = str(at(ev, 'source.host')) || str(at(ev, 'reportingInstance'));
  return instance ? `${component}, ${instance}` : component;
}

const event: TablePrinter = {
  cells: {
    'Last Seen': eventLastSeen,
    Type: (obj) => str(at(obj, 'type')),
    Reason: (obj) => str(at(obj, 'reason')),
    Object: eventObject,
    Subobject: (obj) => str(at(obj, 'involvedObject.fieldPath')),
    Source: eventSource,
    Message: (obj) => str(at(obj, 'message')).trim(),
    'First Seen': eventFirstSeen,
    Count: eventCount,
  },
};

// ---- The small ones ----------------------------------------------------------------------------------------

/** The core group's printers, by kind. */
export const CORE_PRINTERS: Record<string, TablePrinter> = {
  Pod: pod,
  Service: service,
  Node: node,
  Event: event,
  Namespace: { cells: { Status: (obj) => str(at(obj, 'status.phase')), Age: age } },
  ConfigMap: { cells: { Data: (obj) => keyCount(at(obj, 'data'), at(obj, 'binaryData')), Age: age } },
  // stringData is merged into data on the way in; counted here for objects stored without that step
  Secret: { cells: { Type: (obj) => str(at(obj, 'type')), Data: (obj) => keyCount(at(obj, 'data'), at(obj, 'stringData')), Age: age } },
  ServiceAccount: { cells: { Secrets: (obj) => listAt(obj, 'secrets').length, Age: age } },
  ComponentStatus: componentStatusPrinter,
  ...MORE_CORE_PRINTERS,
};
