import type { CustomResourceDefinition } from '@kapi/api-apiextensions';
import type { KubeObject } from '@kapi/apimachinery';
import type { Strategy } from '@kapi/apiserver';

/** The value at a selectable field's JSONPath (`.spec.color`), as a field selector compares it. */
function valueAt(obj: KubeObject, jsonPath: string): string {
  let value: unknown = obj;
  for (const part of jsonPath.split('.').filter(Boolean)) value = value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  return value === undefined || value === null ? '' : String(value);
}

/**
 * How custom resources of a CRD are written (kube's customResourceStrategy): generation on every object (bumped
 * when anything but metadata and status changes), status by its subresource when the version enables it (the
 * Store's rules for kinds with a status subresource), and field selectors over the CRD's selectableFields.
 */
export function customResourceStrategy(crd: CustomResourceDefinition, options: { refuseCreate?: () => Error } = {}): Strategy {
  const fieldLabels: Record<string, (obj: KubeObject) => string> = {};
  for (const version of crd.spec.versions) {
    for (const field of version.selectableFields ?? []) {
      fieldLabels[field.jsonPath.replace(/^\./, '')] = (obj) => valueAt(obj, field.jsonPath);
    }
  }
  const strategy: Strategy = { tracksGeneration: true, fieldLabels };
  if (options.refuseCreate) {
    const refuse = options.refuseCreate;
    strategy.prepareForCreate = () => {
      throw refuse();
    };
  }
  return strategy;
}
