import { status, type ServiceError } from '@grpc/grpc-js';
import { isStorageError, newInternalError, newInvalidObjectError, newUnreachableError, StorageError } from '@kapi/storage';
import { isConnectionError } from './client.js';

/** etcd's error messages (server/etcdserver/api/v3rpc/rpctypes), which arrive as the gRPC status details. */
const COMPACTED = 'required revision has been compacted';
const FUTURE_REV = 'required revision is a future revision';

export const isCompacted = (err: unknown) => (err as Partial<ServiceError>)?.code === status.OUT_OF_RANGE && String((err as ServiceError).details).includes(COMPACTED);
export const isFutureRevision = (err: unknown) => (err as Partial<ServiceError>)?.code === status.OUT_OF_RANGE && String((err as ServiceError).details).includes(FUTURE_REV);

/**
 * A gRPC failure as a storage error: no connection, a deadline passed, or etcd without a leader → Unreachable
 * (a 5xx for clients, who retry); a request etcd refuses as too large → InvalidObject; anything else → Internal.
 * Compacted and future revisions are told apart by the callers, which know the revisions involved.
 */
export function fromGrpcError(err: unknown, key = ''): StorageError {
  if (isStorageError(err)) return err;
  const e = err as Partial<ServiceError>;
  // grpc-js appends an empty "Resolution note" to connection failures.
  const detail = String(e.details || e.message || err).replace(/\.?\s*Resolution note:\s*$/, '');
  if (isConnectionError(err)) return newUnreachableError(`etcd: ${detail}`, err);
  if (e.code === status.INVALID_ARGUMENT) return newInvalidObjectError(key, `etcd refused the request: ${detail}`);
  return newInternalError(`etcd: ${detail}`, err, key);
}
