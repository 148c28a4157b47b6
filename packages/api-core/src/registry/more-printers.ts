// kube's Go table printers of the core/v1 kinds beyond pods, services, nodes and events, as for `-o wide`.
import { age, at, formatLabels, int, isObj, listAt, orNone, str, type KubeObject, type TablePrinter } from '@kapi/apimachinery';
import { podTemplateCells } from './templates.js';

/** formatEndpoints: up to three `ip:port` pairs, then ` + N more...`; `<none>` without subsets. */
function endpointsCell(obj: KubeObject): string {
  const subsets = listAt(obj, 'subsets');
  if (subsets.length === 0) return '<none>';
  const list: string[] = [];
  let count = 0;
  for (const ss of subsets) {
    for (const port of listAt(ss, 'ports')) {
      for (const addr of listAt(ss, 'addresses')) {
        if (list.length < 3) {
          const ip = str(at(addr, 'ip'));
          list.push(`${ip.includes(':') ? `[${ip}]` : ip}:${int(at(port, 'port'))}`);
        }
        count++;
      }
    }
  }
  return count > 3 ? `${list.join(',')} + ${count - 3} more...` : list.join(',');
}

const MODES: Record<string, string> = { ReadWriteOnce: 'RWO', ReadOnlyMany: 'ROX', ReadWriteMany: 'RWX', ReadWriteOncePod: 'RWOP' };

/** GetAccessModesAsString: the abbreviations, in kube's fixed order. */
function accessModes(modes: unknown[]): string {
  const set = new Set(modes.map(str));
  return Object.keys(MODES).filter((m) => set.has(m)).map((m) => MODES[m]).join(',');
}

const storageClassOf = (obj: KubeObject, specPath: string): string =>
  str(at(obj, `${specPath}.storageClassName`)) || str(obj.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class']);

const persistentVolume: TablePrinter = {
  cells: {
    Capacity: (obj) => str(at(obj, 'spec.capacity.storage')) || '0',
    'Access Modes': (obj) => accessModes(listAt(obj, 'spec.accessModes')),
    'Reclaim Policy': (obj) => str(at(obj, 'spec.persistentVolumeReclaimPolicy')),
    Status: (obj) => str(at(obj, 'status.phase')),
    Claim: (obj) => (isObj(at(obj, 'spec.claimRef')) ? `${str(at(obj, 'spec.claimRef.namespace'))}/${str(at(obj, 'spec.claimRef.name'))}` : ''),
    StorageClass: (obj) => storageClassOf(obj, 'spec'),
    VolumeAttributesClass: (obj) => str(at(obj, 'spec.volumeAttributesClassName')) || '<unset>',
    Reason: (obj) => str(at(obj, 'status.reason')),
    Age: age,
    VolumeMode: (obj) => str(at(obj, 'spec.volumeMode')) || '<unset>',
  },
};

const persistentVolumeClaim: TablePrinter = {
  cells: {
    Status: (obj) => (obj.metadata?.deletionTimestamp ? 'Terminating' : str(at(obj, 'status.phase'))),
    Volume: (obj) => str(at(obj, 'spec.volumeName')),
    Capacity: (obj) => (str(at(obj, 'spec.volumeName')) ? str(at(obj, 'status.capacity.storage')) : ''),
    'Access Modes': (obj) => (str(at(obj, 'spec.volumeName')) ? accessModes(listAt(obj, 'status.accessModes')) : ''),
    StorageClass: (obj) => storageClassOf(obj, 'spec'),
    VolumeAttributesClass: (obj) => str(at(obj, 'status.currentVolumeAttributesClassName')) || '<unset>',
    Age: age,
    VolumeMode: (obj) => str(at(obj, 'spec.volumeMode')) || '<unset>',
  },
};

const replicationController: TablePrinter = {
  cells: {
    Desired: (obj) => int(at(obj, 'spec.replicas'), 1),
    Current: (obj) => int(at(obj, 'status.replicas')),
    Ready: (obj) => int(at(obj, 'status.readyReplicas')),
    Age: age,
    ...podTemplateCells(),
    Selector: (obj) => formatLabels(at(obj, 'spec.selector')),
  },
};

const podTemplate: TablePrinter = {
  cells: { ...podTemplateCells('template.spec'), 'Pod Labels': (obj) => formatLabels(at(obj, 'template.metadata.labels')) },
};

/** printResourceQuota: `<resource>: <used>/<hard>` by resource name, limits.* in LIMIT and the rest in REQUEST. */
function quotaColumn(obj: KubeObject, limits: boolean): string {
  const hard = at(obj, 'spec.hard');
  if (!isObj(hard)) return '';
  const used = at(obj, 'status.used');
  return Object.keys(hard)
    .sort()
    .filter((name) => name.startsWith('limits.') === limits)
    .map((name) => `${name}: ${(isObj(used) && str(used[name])) || '0'}/${str(hard[name])}`)
    .join(', ');
}

export const MORE_CORE_PRINTERS: Record<string, TablePrinter> = {
  Endpoints: { cells: { Endpoints: endpointsCell, Age: age } },
  PersistentVolume: persistentVolume,
  PersistentVolumeClaim: persistentVolumeClaim,
  ReplicationController: replicationController,
  PodTemplate: podTemplate,
  ResourceQuota: { cells: { Age: age, Request: (obj) => quotaColumn(obj, false), Limit: (obj) => quotaColumn(obj, true) } },
  LimitRange: { cells: { 'Created At': (obj) => orNone(str(obj.metadata?.creationTimestamp)) } },
};
