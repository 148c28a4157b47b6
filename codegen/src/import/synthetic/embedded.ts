/**
 * Descriptions of Go-style embedded structs that swagger never defines on their own (their fields are inlined
 * in the embedding type's JSON). Others get a generic description.
 */
export const EMBEDDED_DOCS: Record<string, string> = {
  'io.k8s.api.core.v1.VolumeSource':
    'Represents the source of a volume to mount. Only one of its members may be specified. Inlined in Volume.',
  'io.k8s.api.core.v1.ProbeHandler':
    'ProbeHandler defines a specific action that should be taken in a probe. One and only one of the fields must be specified. Inlined in Probe.',
  'io.k8s.api.core.v1.EphemeralContainerCommon':
    'EphemeralContainerCommon is a copy of all fields in Container to be inlined in EphemeralContainer. This separate type allows easy conversion from EphemeralContainer to Container and allows separate documentation for the fields of EphemeralContainer. When a new field is added to Container it must be added here as well.',
  'io.k8s.api.core.v1.PersistentVolumeSource':
    'PersistentVolumeSource is similar to VolumeSource but meant for the administrator who creates PVs. Exactly one of its members must be set. Inlined in PersistentVolumeSpec.',
};
