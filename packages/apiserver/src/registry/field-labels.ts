import type { KubeObject } from '@kapi/apimachinery';
import type { ResourceEntry } from './resources.js';

const METADATA_LABELS = ['metadata.name', 'metadata.namespace'];
const meta = (obj: KubeObject, field: 'name' | 'namespace'): string => {
  const v = obj.metadata?.[field];
  return v === undefined || v === null ? '' : String(v);
};

/** The field-selector labels of an object and their values: its name and namespace, and its strategy's labels. */
export function fieldLabels(entry: ResourceEntry, obj: KubeObject): Record<string, string> {
  const fields: Record<string, string> = { 'metadata.name': meta(obj, 'name'), 'metadata.namespace': meta(obj, 'namespace') };
  for (const [label, read] of Object.entries(entry.strategy.fieldLabels ?? {})) fields[label] = read(obj);
  return fields;
}

/** The labels a field selector may use for a kind (kube answers 400 for others). */
export function supportedFieldLabels(entry: ResourceEntry): string[] {
  return [...METADATA_LABELS, ...Object.keys(entry.strategy.fieldLabels ?? {})];
}
