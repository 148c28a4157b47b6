// The shapes of the etcd messages Kapi sends and receives, as @grpc/proto-loader renders them (keepCase, int64 as
// numbers, bytes as Buffers, defaults filled in). Field meanings: etcd's API reference (api/etcdserverpb/rpc.proto).

export interface ResponseHeader {
  revision: number;
}

export interface EtcdKeyValue {
  key: Buffer;
  create_revision: number;
  mod_revision: number;
  version: number;
  value: Buffer;
}

export interface RangeRequest {
  key: Buffer;
  range_end?: Buffer;
  limit?: number;
  revision?: number;
  count_only?: boolean;
  keys_only?: boolean;
}

export interface RangeResponse {
  header: ResponseHeader;
  kvs: EtcdKeyValue[];
  more: boolean;
  count: number;
}

export interface PutRequest {
  key: Buffer;
  value: Buffer;
  prev_kv?: boolean;
}

export interface PutResponse {
  header: ResponseHeader;
  prev_kv?: EtcdKeyValue | null;
}

export interface DeleteRangeRequest {
  key: Buffer;
  prev_kv?: boolean;
}

export interface DeleteRangeResponse {
  header: ResponseHeader;
  deleted: number;
  prev_kvs: EtcdKeyValue[];
}

export type RequestOp =
  | { request_range: RangeRequest }
  | { request_put: PutRequest }
  | { request_delete_range: DeleteRangeRequest };

export interface ResponseOp {
  response_range?: RangeResponse | null;
  response_put?: PutResponse | null;
  response_delete_range?: DeleteRangeResponse | null;
}

export interface Compare {
  result: 'EQUAL' | 'GREATER' | 'LESS' | 'NOT_EQUAL';
  target: 'VERSION' | 'CREATE' | 'MOD' | 'VALUE';
  key: Buffer;
  mod_revision?: number;
  create_revision?: number;
}

export interface TxnRequest {
  compare: Compare[];
  success: RequestOp[];
  failure: RequestOp[];
}

export interface TxnResponse {
  header: ResponseHeader;
  succeeded: boolean;
  responses: ResponseOp[];
}

export interface WatchCreateRequest {
  key: Buffer;
  range_end: Buffer;
  start_revision: number;
  progress_notify: boolean;
  prev_kv: boolean;
}

export type WatchRequest = { create_request: WatchCreateRequest } | { cancel_request: { watch_id: number } } | { progress_request: Record<string, never> };

export interface EtcdEvent {
  type: 'PUT' | 'DELETE';
  kv: EtcdKeyValue;
  prev_kv?: EtcdKeyValue | null;
}

export interface WatchResponse {
  header: ResponseHeader;
  watch_id: number;
  created: boolean;
  canceled: boolean;
  compact_revision: number;
  cancel_reason: string;
  fragment: boolean;
  events: EtcdEvent[];
}
