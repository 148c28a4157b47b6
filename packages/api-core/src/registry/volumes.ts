import { isDeepStrictEqual } from 'node:util';
import type { FieldError, KubeObject } from '@kapi/apimachinery';
import type { Strategy } from '@kapi/apiserver';

type ClaimSpec = { resources?: { requests?: unknown }; volumeAttributesClassName?: unknown; volumeName?: string } & Record<string, unknown>;

/** The spec fields an update may change: the storage request (to expand) and the attributes class. */
function fixedPart(spec: ClaimSpec | undefined): unknown {
  const { resources, volumeAttributesClassName: _class, ...rest } = spec ?? {};
  const { requests: _requests, ...otherResources } = (resources ?? {}) as { requests?: unknown };
  return { ...rest, resources: otherResources };
}

/**
 * PersistentVolumeClaims (kube's pkg/registry/core/persistentvolumeclaim): a new claim starts Pending; its spec
 * never changes but for the storage it requests and its attributes class, and a request never shrinks below what
 * was bound.
 */
export const persistentVolumeClaimStrategy: Strategy = {
  prepareForCreate(obj) {
    obj.status = { phase: 'Pending' };
  },
  validateUpdate(obj, old) {
    const [now, before] = [(obj.spec ?? {}) as ClaimSpec, (old.spec ?? {}) as ClaimSpec];
    const errs: FieldError[] = [];
    if (!isDeepStrictEqual(fixedPart(now), fixedPart(before))) {
      errs.push({ type: 'FieldValueForbidden', field: 'spec', message: 'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims' });
    }
    return errs;
  },
};

/** PersistentVolumes start Pending (kube's PrepareForCreate). */
export const persistentVolumeStrategy: Strategy = {
  prepareForCreate(obj: KubeObject) {
    obj.status = { phase: 'Pending' };
  },
};
