import { textAt, type KubeObject } from '@kapi/apimachinery';

const labels = (paths: string[]): Record<string, (obj: KubeObject) => string> => Object.fromEntries(paths.map((p) => [p, textAt(p)]));

/** The field-selector labels of core/v1 kinds beyond name and namespace (kube's GetAttrs / SelectableFields). */
export const POD_FIELD_LABELS = labels([
  'spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'spec.hostNetwork',
  'status.phase', 'status.podIP', 'status.nominatedNodeName',
]);

export const EVENT_FIELD_LABELS = {
  ...labels([
    'involvedObject.kind', 'involvedObject.namespace', 'involvedObject.name', 'involvedObject.uid',
    'involvedObject.apiVersion', 'involvedObject.resourceVersion', 'involvedObject.fieldPath', 'reason',
    'reportingComponent', 'type',
  ]),
  // kube's event source: the component, or the reporting component of events.k8s.io-style events.
  source: (obj: KubeObject) => textAt('source.component')(obj) || textAt('reportingComponent')(obj),
};

export const SECRET_FIELD_LABELS = labels(['type']);
export const NODE_FIELD_LABELS = labels(['spec.unschedulable']);
export const REPLICATION_CONTROLLER_FIELD_LABELS = labels(['status.replicas']);
