import { createMessageCodec, metaDescriptor, type MessageCodec } from '@kapi/apimachinery';

export const STATUS_MESSAGE = 'k8s.io.apimachinery.pkg.apis.meta.v1.Status';

let codec: MessageCodec | undefined;
/** The codec of meta.k8s.io/v1 messages (Status, WatchEvent, DeleteOptions), built on first use. */
export const metaCodec = (): MessageCodec => (codec ??= createMessageCodec(metaDescriptor));
