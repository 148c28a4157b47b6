import type { KubeObject } from '@kapi/apimachinery';
import type { KeyValue } from '@kapi/storage';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * How objects are stored: JSON without metadata.resourceVersion (the storage revision is the resource version,
 * as in kube's etcd3 store). Decoding stamps the key's mod revision back in.
 */
export function encodeForStorage(obj: KubeObject): Uint8Array {
  const meta = { ...(obj.metadata as Record<string, unknown>) };
  delete meta.resourceVersion;
  return encoder.encode(JSON.stringify({ ...obj, metadata: meta }));
}

export function decodeFromStorage(kv: KeyValue): KubeObject {
  const obj = JSON.parse(decoder.decode(kv.value)) as KubeObject;
  (obj.metadata as Record<string, unknown>).resourceVersion = String(kv.modRevision);
  return obj;
}
