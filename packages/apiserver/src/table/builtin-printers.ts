// Cells of built-in kinds that kubectl users expect computed, mirroring kube's Go printers
// (pkg/printers/internalversion/printers.go, generated as for `-o wide`, as the server does). The kinds' printer
// columns are imported approximations; where a printer computes a value (Pod READY `1/2`, Service PORT(S)
// `80/TCP`, ConfigMap DATA = keys of data and binaryData), the computer here replaces the column's JSONPath.
import { labelSelectorFromObject, type KubeObject, type LabelSelector, type TableRowCondition } from '@kapi/apimachinery';
import { ageSince, humanDuration, parseTimestamp } from './human-duration.js';

/** One cell of one object; `now` (ms since the epoch) is the moment ages are measured at. Must not mutate `obj`. */
export type CellComputer = (obj: KubeObject, now: number) => unknown;

/** The computed cells of one kind by column name, and the row conditions kube's printer sets. */
export interface BuiltinPrinter {
  cells: Readonly<Record<string, CellComputer>>;
  conditions?: (obj: KubeObject) => TableRowCondition[] | undefined;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
/** The value at a dotted path, undefined when any step is missing. */
const at = (v: unknown, path: string): unknown => path.split('.').reduce<unknown>((cur, key) => (isObj(cur) ? cur[key] : undefined), v);
const objAt = (v: unknown, path: string): Obj => {
  const found = at(v, path);
  return isObj(found) ? found : {};
};
const listAt = (v: unknown, path: string): unknown[] => {
  const found = at(v, path);
  return Array.isArray(found) ? found : [];
};
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const int = (v: unknown, fallback = 0): number => (typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : fallback);
const keyCount = (...maps: unknown[]): number => new Set(maps.flatMap((m) => (isObj(m) ? Object.keys(m) : []))).size;
const orNone = (s: string): string => s || '<none>';
const sortedUnique = (items: string[]): string[] => [...new Set(items)].sort();

const age: CellComputer = (obj, now) => ageSince(obj.metadata?.creationTimestamp, now);

/** kube's labels.FormatLabels: `a=1,b=2` by key, `<none>` when empty. */
function formatLabels(labels: unknown): string {
  if (!isObj(labels)) return '<none>';
  const pairs = Object.keys(labels)
    .sort()
    .map((k) => `${k}=${str(labels[k])}`);
  return orNone(pairs.join(','));
}

/** A metav1.LabelSelector as kube's selector string; `fallback` when it cannot be a selector. */
function selectorString(selector: unknown, fallback: string): string {
  try {
    return labelSelectorFromObject(selector as LabelSelector | undefined).toString();
  } catch {
    return fallback;
  }
}

/** kube's metav1.FormatLabelSelector: `<none>` for an empty selector, `<error>` for an invalid one. */
const formatLabelSelector = (selector: unknown): string => orNone(selectorString(selector, '<error>'));

/** layoutContainerCells: container names and images, comma-joined. */
const containerNames = (containers: unknown[]): string => containers.map((c) => str(at(c, 'name'))).join(',');
const containerImages = (containers: unknown[]): string => containers.map((c) => str(at(c, 'image'))).join(',');
const templateContainers = (obj: KubeObject): unknown[] => listAt(obj, 'spec.template.spec.containers');

/** An IntOrString as its String(), `N/A` when unset (PodDisruptionBudget's min/max). */
const intOrString = (v: unknown): string => (typeof v === 'number' ? String(Math.trunc(v)) : typeof v === 'string' ? v : 'N/A');

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

const pod: BuiltinPrinter = {
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

const service: BuiltinPrinter = {
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

const node: BuiltinPrinter = {
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

const event: BuiltinPrinter = {
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

// ---- RBAC bindings -----------------------------------------------------------------------------------------

/** rbac.SubjectsStrings: users, groups and `namespace/name` service accounts, each list `, `-joined. */
const subjects = (kind: 'User' | 'Group' | 'ServiceAccount') => (binding: KubeObject) =>
  listAt(binding, 'subjects')
    .filter((s) => at(s, 'kind') === kind)
    .map((s) => (kind === 'ServiceAccount' ? `${str(at(s, 'namespace'))}/${str(at(s, 'name'))}` : str(at(s, 'name'))))
    .join(', ');

const binding: BuiltinPrinter = {
  cells: {
    Role: (obj) => `${str(at(obj, 'roleRef.kind'))}/${str(at(obj, 'roleRef.name'))}`,
    Age: age,
    Users: subjects('User'),
    Groups: subjects('Group'),
    ServiceAccounts: subjects('ServiceAccount'),
  },
};

// ---- Workloads ---------------------------------------------------------------------------------------------

const deployment: BuiltinPrinter = {
  cells: {
    // spec.replicas is defaulted to 1 on the way in; an object stored without defaults reads the same
    Ready: (obj) => `${int(at(obj, 'status.readyReplicas'))}/${int(at(obj, 'spec.replicas'), 1)}`,
    'Up-to-date': (obj) => int(at(obj, 'status.updatedReplicas')),
    Available: (obj) => int(at(obj, 'status.availableReplicas')),
    Age: age,
    Containers: (obj) => containerNames(templateContainers(obj)),
    Images: (obj) => containerImages(templateContainers(obj)),
    Selector: (obj) => selectorString(at(obj, 'spec.selector'), '<invalid>'),
  },
};

const replicaSet: BuiltinPrinter = {
  cells: {
    Desired: (obj) => int(at(obj, 'spec.replicas'), 1),
    Current: (obj) => int(at(obj, 'status.replicas')),
    Ready: (obj) => int(at(obj, 'status.readyReplicas')),
    Age: age,
    Containers: (obj) => containerNames(templateContainers(obj)),
    Images: (obj) => containerImages(templateContainers(obj)),
    Selector: (obj) => formatLabelSelector(at(obj, 'spec.selector')),
  },
};

// ---- The small ones ----------------------------------------------------------------------------------------

const PRINTERS: Record<string, BuiltinPrinter> = {
  '/Pod': pod,
  '/Service': service,
  '/Node': node,
  '/Event': event,
  '/Namespace': { cells: { Status: (obj) => str(at(obj, 'status.phase')), Age: age } },
  '/ConfigMap': { cells: { Data: (obj) => keyCount(at(obj, 'data'), at(obj, 'binaryData')), Age: age } },
  // stringData is merged into data on the way in; counted here for objects stored without that step
  '/Secret': { cells: { Type: (obj) => str(at(obj, 'type')), Data: (obj) => keyCount(at(obj, 'data'), at(obj, 'stringData')), Age: age } },
  '/ServiceAccount': { cells: { Secrets: (obj) => listAt(obj, 'secrets').length, Age: age } },
  'apps/Deployment': deployment,
  'apps/ReplicaSet': replicaSet,
  'coordination.k8s.io/Lease': { cells: { Holder: (obj) => str(at(obj, 'spec.holderIdentity')), Age: age } },
  'policy/PodDisruptionBudget': {
    cells: {
      'Min Available': (obj) => intOrString(at(obj, 'spec.minAvailable')),
      'Max Unavailable': (obj) => intOrString(at(obj, 'spec.maxUnavailable')),
      'Allowed Disruptions': (obj) => int(at(obj, 'status.disruptionsAllowed')),
      Age: age,
    },
  },
  'rbac.authorization.k8s.io/RoleBinding': binding,
  'rbac.authorization.k8s.io/ClusterRoleBinding': binding,
};

/** The printer of a built-in kind, undefined for any other kind (custom resources use their columns' JSONPath). */
export function builtinPrinter(group: string, kind: string): BuiltinPrinter | undefined {
  return PRINTERS[`${group}/${kind}`];
}

/** The computed cell of one column of a built-in kind, undefined when the column's JSONPath applies. */
export function builtinCell(group: string, kind: string, column: string): CellComputer | undefined {
  return builtinPrinter(group, kind)?.cells[column];
}
