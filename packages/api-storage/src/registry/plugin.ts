import { age, at, listAt, str, type TablePrinter } from '@kapi/apimachinery';
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

/** The storage.k8s.io group as a server installs it: its kinds' table printers. */
export const plugin: GroupPlugin = {
  definition: group,
  printers: {
    StorageClass: {
      cells: {
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
