import type { WireType } from '../model/schema.js';

type Field = { type: string; id: number };

/**
 * The Protobuf layout of the special types (apimachinery's, and apiextensions' free-form `JSON`). Their JSON forms
 * are scalars or free-form values (a Time is an RFC 3339 string), so the layout cannot be read off the schema; it is
 * part of the wire contract with upstream Kubernetes.
 */
export const WIRE_TYPE_FIELDS: Record<WireType, Record<string, Field>> = {
  Time: { seconds: { type: 'int64', id: 1 }, nanos: { type: 'int32', id: 2 } },
  MicroTime: { seconds: { type: 'int64', id: 1 }, nanos: { type: 'int32', id: 2 } },
  Duration: { duration: { type: 'int64', id: 1 } },
  Quantity: { string: { type: 'string', id: 1 } },
  IntOrString: { type: { type: 'int64', id: 1 }, intVal: { type: 'int32', id: 2 }, strVal: { type: 'string', id: 3 } },
  RawExtension: { raw: { type: 'bytes', id: 1 } },
  FieldsV1: { Raw: { type: 'bytes', id: 1 } },
  JSON: { raw: { type: 'bytes', id: 1 } },
};

/** Upstream message names of the special types, used when a schema needs one it does not reference by file. */
export const WIRE_TYPE_MESSAGES: Record<WireType, string> = {
  Time: 'k8s.io.apimachinery.pkg.apis.meta.v1.Time',
  MicroTime: 'k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime',
  Duration: 'k8s.io.apimachinery.pkg.apis.meta.v1.Duration',
  Quantity: 'k8s.io.apimachinery.pkg.api.resource.Quantity',
  IntOrString: 'k8s.io.apimachinery.pkg.util.intstr.IntOrString',
  RawExtension: 'k8s.io.apimachinery.pkg.runtime.RawExtension',
  FieldsV1: 'k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1',
  JSON: 'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSON',
};
