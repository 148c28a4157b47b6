import { newForbidden, type KubeObject } from '@kapi/apimachinery';
import type { AdmissionAttributes, AdmissionPlugin, PluginHost } from '@kapi/apiserver';
import { compareQuantities } from './quantity.js';
import { claimClass, requestedStorage } from './volumes.js';

const CLAIMS = { group: '', resource: 'persistentvolumeclaims' };

/**
 * kube's PersistentVolumeClaimResize admission (plugin/pkg/admission/storage/persistentvolume/resize), on by
 * default: a claim's storage request may grow only when it is Bound and its StorageClass (the same before and
 * after, found in the storage.k8s.io group) has `allowVolumeExpansion: true`; anything else is 403.
 */
/** A write of a claim itself (not of a subresource): what this plugin looks at. */
const isClaimWrite = (attrs: AdmissionAttributes): boolean =>
  !attrs.subresource && attrs.resource.group === '' && attrs.resource.kind === 'PersistentVolumeClaim';

export function claimResizeAdmission(host: PluginHost): AdmissionPlugin {
  const allowsExpansion = async (className: string): Promise<boolean> => {
    const entry = host.registry.byKind('storage.k8s.io', 'v1', 'StorageClass');
    if (!entry) return false;
    const storageClass = await host.store.find(host.systemContext(entry), className);
    return (storageClass as { allowVolumeExpansion?: boolean } | undefined)?.allowVolumeExpansion === true;
  };
  return {
    name: 'PersistentVolumeClaimResize',
    operations: ['UPDATE'],
    matches: isClaimWrite,
    async validate(attrs) {
      if (!isClaimWrite(attrs)) return;
      const [claim, old] = [attrs.object, attrs.oldObject] as [KubeObject | undefined, KubeObject | undefined];
      if (!claim || !old) return;
      if (compareQuantities(requestedStorage(claim), requestedStorage(old)) <= 0) return;
      if ((old as { status?: { phase?: string } }).status?.phase !== 'Bound') {
        throw newForbidden(CLAIMS, attrs.name, 'Only bound persistent volume claims can be expanded');
      }
      const [className, oldClassName] = [claimClass(claim), claimClass(old)];
      if (!className || className !== oldClassName || !(await allowsExpansion(className))) {
        throw newForbidden(CLAIMS, attrs.name, 'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize');
      }
    },
  };
}
