import { protobufLibrary } from './protobuf-library.js';
import type { INamespace, Root, Type } from 'protobufjs';
import { newBadRequest, newInternalError } from '../errors/factories.js';
import { isStatusError } from '../errors/status-error.js';
import { createPlanner, type MessagePlan } from './codec-plan.js';
import { decodeMessage } from './codec-decode.js';
import { encodeMessage } from './codec-encode.js';
import type { MessageCodec, ProtoDescriptor } from './types.js';

/**
 * A codec between kube JSON objects and Protobuf messages of `descriptor` (see {@link ProtoDescriptor} for the
 * conventions). The protobufjs root and the per-message plans are built on first use and kept.
 *
 * Encoding writes what Go writes for the same object: fields in number order, every field present in the JSON
 * (empty strings, `0` and `false` included), maps sorted by key bytes, inline structs always, special types and
 * unions in Go's layout. A field absent from the JSON is not written, except Go's non-pointer omitempty scalars
 * (`kapi_omit_zero`), written as their zero value as Go writes them; other non-pointer fields Go would write too,
 * but the descriptor cannot tell them apart from pointers (kube's JSON always has them).
 *
 * Decoding gives kube's JSON form: absent fields stay absent; fields present on the wire appear even when zero
 * (`""`, `0`, `false`), except the zero value of a `kapi_omit_zero` field, which Go's JSON leaves out; an empty
 * message field decodes to `{}` (Time, MicroTime, FieldsV1, RawExtension and JSON to `null`, a union to `false` or
 * `null`); an empty list or map cannot be told apart from an absent one on the wire and is omitted; fields come
 * in declaration order. Errors: encode throws a 500 InternalError StatusError, decode a 400 BadRequest.
 *
 * Integers: a JSON value outside its field's type (an int32 of 2^31, an int64 of 2^63) is an encode error, never
 * wrapped. int64 values are JS numbers in the JSON form, so decoding an int64 beyond ±(2^53 - 1) is an error rather
 * than a silently rounded number; encoding accepts such values exactly as bigint or decimal strings.
 */
export function createMessageCodec(descriptor: ProtoDescriptor): MessageCodec {
  let root: Root | undefined;
  let planOf: ((name: string) => MessagePlan) | undefined;

  const planner = (): ((name: string) => MessagePlan) => {
    if (!planOf) {
      // protobufjs reads map fields from JSON; only its INamespace typing lacks them.
      root = protobufLibrary().Root.fromJSON(descriptor as INamespace);
      root.resolveAll();
      const r = root;
      planOf = createPlanner((name): Type => r.lookupType(name));
    }
    return planOf;
  };

  const plan = (messageName: string): MessagePlan => {
    try {
      return planner()(messageName);
    } catch (err) {
      throw newInternalError(`unknown Protobuf message ${messageName}: ${(err as Error).message}`);
    }
  };

  return {
    encode(messageName: string, obj: unknown): Uint8Array {
      const p = plan(messageName);
      if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) {
        throw newInternalError(`unable to encode ${messageName} as Protobuf: expected an object`);
      }
      try {
        const w = protobufLibrary().Writer.create();
        encodeMessage(w, p, obj as Record<string, unknown>, '');
        const buf = w.finish();
        return new Uint8Array(buf.buffer, buf.byteOffset, buf.length);
      } catch (err) {
        if (isStatusError(err)) throw err;
        throw newInternalError(`unable to encode ${messageName} as Protobuf: ${(err as Error).message}`);
      }
    },

    decode(messageName: string, bytes: Uint8Array): Record<string, unknown> {
      const p = plan(messageName);
      try {
        const r = protobufLibrary().Reader.create(bytes);
        return decodeMessage(r, p, r.len);
      } catch (err) {
        if (isStatusError(err)) throw err;
        throw newBadRequest(`unable to decode Protobuf ${messageName}: ${(err as Error).message}`);
      }
    },
  };
}
