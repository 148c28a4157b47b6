import type { KubeList, KubeObject } from '@kapi/apimachinery';
import type { ProtobufMessage } from './media/index.js';
import { metaCodec } from './media/meta.js';
import type { Conversion } from './negotiate.js';

const META_V1 = 'k8s.io.apimachinery.pkg.apis.meta.v1';

/** What a read answers after the negotiated conversion: the value to encode and its Protobuf message. */
export interface Transformed {
  value: KubeObject;
  /** The message for Protobuf; undefined where there is none (Table: JSON only). */
  protobuf?: ProtobufMessage;
}

/** kube's metadata-only form of an object (meta.k8s.io PartialObjectMetadata): type and metadata, nothing else. */
export function partialObjectMetadata(obj: KubeObject, version: Conversion['version']): KubeObject {
  return { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${version}`, metadata: obj.metadata };
}

/** The Protobuf message of a metadata conversion (the v1 messages; negotiation offers v1beta1 in JSON and YAML only). */
export const partialMetadataMessage = (list: boolean): ProtobufMessage => ({
  codec: metaCodec(),
  message: `${META_V1}.${list ? 'PartialObjectMetadataList' : 'PartialObjectMetadata'}`,
});

/** A list in the metadata-only form (PartialObjectMetadataList), its list metadata kept. */
export function partialObjectMetadataList(list: KubeList, version: Conversion['version']): KubeObject {
  return {
    kind: 'PartialObjectMetadataList',
    apiVersion: `meta.k8s.io/${version}`,
    metadata: list.metadata,
    items: list.items.map((item) => partialObjectMetadata(item, version)),
  } as unknown as KubeObject;
}
