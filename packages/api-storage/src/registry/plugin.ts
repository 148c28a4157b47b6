import { isDeepStrictEqual } from 'node:util';
import { age, at, listAt, str, type FieldError, type KubeObject, type TablePrinter } from '@kapi/apimachinery';
import type { GroupPlugin } from '@kapi/apiserver';
import { group } from '../generated/index.js';

const bool = (v: unknown): boolean => v === true;

const csiDriver: TablePrinter = {
  cells: {
    AttachRequired: (obj) => at(obj, 'spec.attachRequired') !== false,
    PodInfoOnMount: (obj) => bool(at(obj, 'spec.podInfoOnMount')),
    StorageCapacity: (obj) => bool(at(obj, 'spec.storageCapacity')),
    TokenRequests: (obj) => listAt(obj, 'spec.tokenRequests').map((t) => str(at(t, 'audience'))).join(',') || '<unset>',
    RequiresRepublish: (obj) => bool(at(obj, 'spec.requiresRepublish')),
    Modes: (obj) => listAt(obj, 'spec.volumeLifecycleModes').map(str).join(',') || '<none>',
    Age: age,
  },
};

/** ValidateStorageClassUpdate: what provisions the class's volumes never changes. */
function storageClassUpdateErrors(obj: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const forbidden = (field: string, message = `updates to ${field} are forbidden.`) => errs.push({ type: 'FieldValueForbidden', field, message });
  if (!isDeepStrictEqual(at(obj, 'parameters') ?? {}, at(old, 'parameters') ?? {})) forbidden('parameters');
  if (at(obj, 'provisioner') !== at(old, 'provisioner')) forbidden('provisioner');
  if (at(obj, 'reclaimPolicy') !== at(old, 'reclaimPolicy')) forbidden('reclaimPolicy');
  if (at(obj, 'volumeBindingMode') !== at(old, 'volumeBindingMode')) forbidden('volumeBindingMode', 'field is immutable');
  return errs;
}

/** The storage.k8s.io group as a server installs it: StorageClasses' update rule, its kinds' table printers. */
export const plugin: GroupPlugin = {
  definition: group,
  strategies: { StorageClass: { validateUpdate: storageClassUpdateErrors } },
  printers: {
    StorageClass: {
      cells: {
        // printStorageClass: the default class is marked in its name.
        Name: (obj) => {
          const annotations = obj.metadata?.annotations ?? {};
          const isDefault = [annotations['storageclass.kubernetes.io/is-default-class'], annotations['storageclass.beta.kubernetes.io/is-default-class']].includes('true');
          return `${obj.metadata?.name ?? ''}${isDefault ? ' (default)' : ''}`;
        },
        Provisioner: (obj) => str(at(obj, 'provisioner')),
        ReclaimPolicy: (obj) => str(at(obj, 'reclaimPolicy')) || 'Delete',
        VolumeBindingMode: (obj) => str(at(obj, 'volumeBindingMode')) || 'Immediate',
        AllowVolumeExpansion: (obj) => bool(at(obj, 'allowVolumeExpansion')),
        Age: age,
      },
    },
    CSIDriver: csiDriver,
    CSINode: { cells: { Drivers: (obj) => listAt(obj, 'spec.drivers').length, Age: age } },
    VolumeAttachment: {
      cells: {
        Attacher: (obj) => str(at(obj, 'spec.attacher')),
        PV: (obj) => str(at(obj, 'spec.source.persistentVolumeName')),
        Node: (obj) => str(at(obj, 'spec.nodeName')),
        Attached: (obj) => bool(at(obj, 'status.attached')),
        Age: age,
      },
    },
  },
};
