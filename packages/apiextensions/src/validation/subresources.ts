// spec.versions[*].subresources (ValidateCustomResourceDefinitionSubresources).
import type { FieldError } from '@kapi/apimachinery';
import { child, invalid, required } from './field.js';
import type { Subresources } from './internal.js';
import { validateSimpleJSONPath } from './jsonpath.js';

/**
 * The scale subresource's paths: specReplicasPath a JSON path under `.spec`, statusReplicasPath under `.status`,
 * labelSelectorPath (optional) under either. The status subresource has nothing to check.
 */
export function validateSubresources(subresources: Subresources | undefined, fldPath: string): FieldError[] {
  const scale = subresources?.scale;
  if (!scale) return [];
  const errs: FieldError[] = [];
  const path = (name: string): string => child(fldPath, `scale.${name}`);
  const under = (name: 'specReplicasPath' | 'statusReplicasPath', prefix: string): void => {
    const value = scale[name];
    if (!value) {
      errs.push(required(path(name)));
      return;
    }
    const pathErrs = validateSimpleJSONPath(value, path(name));
    if (pathErrs.length > 0) errs.push(...pathErrs);
    else if (!value.startsWith(`${prefix}.`)) errs.push(invalid(path(name), value, `should be a json path under ${prefix}`));
  };
  under('specReplicasPath', '.spec');
  under('statusReplicasPath', '.status');
  const selector = scale.labelSelectorPath;
  if (selector) {
    const pathErrs = validateSimpleJSONPath(selector, path('labelSelectorPath'));
    if (pathErrs.length > 0) errs.push(...pathErrs);
    else if (!selector.startsWith('.spec.') && !selector.startsWith('.status.')) {
      errs.push(invalid(path('labelSelectorPath'), selector, 'should be a json path under either .spec or .status'));
    }
  }
  return errs;
}
