import type { KubeObject } from '@kapi/apimachinery';

type Fields = Record<string, string>;
const get = (obj: unknown, path: string): string => {
  let v: unknown = obj;
  for (const p of path.split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[p] : undefined;
  return v === undefined || v === null ? '' : String(v);
};
const pick = (obj: KubeObject, paths: string[]): Fields => Object.fromEntries(paths.map((p) => [p, get(obj, p)]));

/** Field-selector labels each kind supports beyond metadata.name and metadata.namespace (kube's GetAttrs). */
const KIND_FIELDS: Record<string, string[]> = {
  '/Pod': [
    'spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'spec.hostNetwork',
    'status.phase', 'status.podIP', 'status.nominatedNodeName',
  ],
  '/Event': [
    'involvedObject.kind', 'involvedObject.namespace', 'involvedObject.name', 'involvedObject.uid',
    'involvedObject.apiVersion', 'involvedObject.resourceVersion', 'involvedObject.fieldPath', 'reason',
    'reportingComponent', 'source', 'type',
  ],
  '/Secret': ['type'],
  '/Namespace': ['status.phase'],
  '/Node': ['spec.unschedulable'],
  'apps/ReplicaSet': ['status.replicas'],
};

/** The field-selector labels of an object and their values. */
export function fieldLabels(group: string, kind: string, obj: KubeObject): Fields {
  const fields = pick(obj, ['metadata.name', 'metadata.namespace']);
  const extra = KIND_FIELDS[`${group}/${kind}`];
  if (extra) Object.assign(fields, pick(obj, extra));
  if (group === '' && kind === 'Event' && fields.source === '') fields.source = get(obj, 'source.component');
  return fields;
}

/** The labels a field selector may use for a kind (kube answers 400 for others). */
export function supportedFieldLabels(group: string, kind: string): string[] {
  return ['metadata.name', 'metadata.namespace', ...(KIND_FIELDS[`${group}/${kind}`] ?? [])];
}
