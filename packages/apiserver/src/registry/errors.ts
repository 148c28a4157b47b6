import { newAlreadyExists, newConflict, newInternalError, newNotFound, newResourceExpired, newTimeout, type StatusError } from '@kapi/apimachinery';
import { isStorageError } from '@kapi/storage';
import type { ResourceEntry } from './resources.js';

export const groupResource = (entry: ResourceEntry) => ({ group: entry.info.group, resource: entry.info.plural });

export const OPTIMISTIC_LOCK_MESSAGE = 'the object has been modified; please apply your changes to the latest version and try again';

/** The registry boundary: storage errors become kube Status errors (k8s.io/apiserver storage → API errors). */
export function fromStorageError(entry: ResourceEntry, name: string, err: unknown): StatusError | unknown {
  if (!isStorageError(err)) return err;
  switch (err.code) {
    case 'KeyExists':
      return newAlreadyExists(groupResource(entry), name);
    case 'KeyNotFound':
      return newNotFound(groupResource(entry), name);
    case 'Conflict':
      return newConflict(groupResource(entry), name, OPTIMISTIC_LOCK_MESSAGE);
    case 'Compacted':
      return newResourceExpired(`The resourceVersion for the provided list is too old.`);
    case 'TooLargeRevision':
      return newTimeout(`Too large resource version`, 1);
    default:
      return newInternalError(err);
  }
}
