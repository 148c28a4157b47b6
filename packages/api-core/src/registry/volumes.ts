import { isDeepStrictEqual } from 'node:util';
import type { FieldError } from '@kapi/apimachinery';
import type { Strategy } from '@kapi/apiserver';

type ClaimSpec = { resources?: { requests?: unknown }; volumeAttributesClassName?: unknown; volumeName?: string } & Record<string, unknown>;

/** The spec fields an update may change: the storage request (to expand) and the attributes class. */
function fixedPart(spec: ClaimSpec | undefined): unknown {
  const { resources, volumeAttributesClassName: _class, ...rest } = spec ?? {};
  const { requests: _requests, ...otherResources } = (resources ?? {}) as { requests?: unknown };
  return { ...rest, resources: otherResources };
}

/**
 * PersistentVolumeClaims (kube's pkg/registry/core/persistentvolumeclaim): the spec never changes but for the
 * storage it requests and its attributes class. (A new claim, like a new PersistentVolume, starts Pending: the
 * schema's status default, which the store gives kinds with a status subresource.)
 */
export const persistentVolumeClaimStrategy: Strategy = {
  validateUpdate(obj, old) {
    const [now, before] = [(obj.spec ?? {}) as ClaimSpec, (old.spec ?? {}) as ClaimSpec];
    const errs: FieldError[] = [];
    if (!isDeepStrictEqual(fixedPart(now), fixedPart(before))) {
      errs.push({ type: 'FieldValueForbidden', field: 'spec', message: 'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims' });
    }
    return errs;
  },
};
