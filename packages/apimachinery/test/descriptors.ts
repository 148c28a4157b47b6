// Hand-written protobufjs descriptors for the codec tests, with field numbers from upstream's generated.proto
// (reference/kubernetes/protobuf-fields.json) and fields in Go declaration order.
import type { ProtoDescriptor, ProtoDescriptorType } from '../src/wire/types.js';

export const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';
const ref = (name: string): string => `.${name}`;

/** Nests `{ 'a.b.C': type }` into protobufjs reflection JSON. */
export function nest(messages: Record<string, ProtoDescriptorType>): ProtoDescriptor {
  const root: ProtoDescriptor = { nested: {} };
  for (const [fullName, type] of Object.entries(messages)) {
    const parts = fullName.split('.');
    let ns = root;
    for (const part of parts.slice(0, -1)) {
      ns.nested ??= {};
      ns = (ns.nested[part] ??= { nested: {} }) as ProtoDescriptor;
    }
    ns.nested ??= {};
    ns.nested[parts[parts.length - 1]] = type;
  }
  return root;
}

export const metaTypes: Record<string, ProtoDescriptorType> = {
  [`${META}.Time`]: { fields: { seconds: { type: 'int64', id: 1 }, nanos: { type: 'int32', id: 2 } } },
  [`${META}.MicroTime`]: { fields: { seconds: { type: 'int64', id: 1 }, nanos: { type: 'int32', id: 2 } } },
  [`${META}.FieldsV1`]: { fields: { Raw: { type: 'bytes', id: 1 } } },
  [`${META}.OwnerReference`]: {
    fields: {
      apiVersion: { type: 'string', id: 5 },
      kind: { type: 'string', id: 1 },
      name: { type: 'string', id: 3 },
      uid: { type: 'string', id: 4 },
      controller: { type: 'bool', id: 6 },
      blockOwnerDeletion: { type: 'bool', id: 7 },
    },
  },
  [`${META}.ManagedFieldsEntry`]: {
    fields: {
      manager: { type: 'string', id: 1 },
      operation: { type: 'string', id: 2 },
      apiVersion: { type: 'string', id: 3 },
      time: { type: ref(`${META}.Time`), id: 4 },
      fieldsType: { type: 'string', id: 6 },
      fieldsV1: { type: ref(`${META}.FieldsV1`), id: 7 },
      subresource: { type: 'string', id: 8 },
    },
  },
  [`${META}.ObjectMeta`]: {
    fields: {
      name: { type: 'string', id: 1 },
      generateName: { type: 'string', id: 2 },
      namespace: { type: 'string', id: 3 },
      selfLink: { type: 'string', id: 4 },
      uid: { type: 'string', id: 5 },
      resourceVersion: { type: 'string', id: 6 },
      generation: { type: 'int64', id: 7 },
      creationTimestamp: { type: ref(`${META}.Time`), id: 8 },
      deletionTimestamp: { type: ref(`${META}.Time`), id: 9 },
      deletionGracePeriodSeconds: { type: 'int64', id: 10 },
      labels: { keyType: 'string', type: 'string', id: 11 },
      annotations: { keyType: 'string', type: 'string', id: 12 },
      ownerReferences: { rule: 'repeated', type: ref(`${META}.OwnerReference`), id: 13 },
      finalizers: { rule: 'repeated', type: 'string', id: 14 },
      managedFields: { rule: 'repeated', type: ref(`${META}.ManagedFieldsEntry`), id: 17 },
    },
  },
};

export const configMapDescriptor: ProtoDescriptor = nest({
  ...metaTypes,
  'k8s.io.api.core.v1.ConfigMap': {
    fields: {
      metadata: { type: ref(`${META}.ObjectMeta`), id: 1 },
      immutable: { type: 'bool', id: 4 },
      data: { keyType: 'string', type: 'string', id: 2 },
      binaryData: { keyType: 'string', type: 'bytes', id: 3 },
    },
  },
});

export const leaseDescriptor: ProtoDescriptor = nest({
  ...metaTypes,
  'k8s.io.api.coordination.v1.LeaseSpec': {
    fields: {
      holderIdentity: { type: 'string', id: 1 },
      leaseDurationSeconds: { type: 'int32', id: 2 },
      acquireTime: { type: ref(`${META}.MicroTime`), id: 3 },
      renewTime: { type: ref(`${META}.MicroTime`), id: 4 },
      leaseTransitions: { type: 'int32', id: 5 },
      strategy: { type: 'string', id: 6 },
      preferredHolder: { type: 'string', id: 7 },
    },
  },
  'k8s.io.api.coordination.v1.Lease': {
    fields: {
      metadata: { type: ref(`${META}.ObjectMeta`), id: 1 },
      spec: { type: '.k8s.io.api.coordination.v1.LeaseSpec', id: 2 },
    },
  },
});

/** Small test-only messages exercising the other special types, inline structs and scalar kinds. */
export const specialsDescriptor: ProtoDescriptor = nest({
  ...metaTypes,
  [`${META}.Duration`]: { fields: { duration: { type: 'int64', id: 1 } } },
  'k8s.io.apimachinery.pkg.api.resource.Quantity': { fields: { string: { type: 'string', id: 1 } } },
  'k8s.io.apimachinery.pkg.util.intstr.IntOrString': {
    fields: { type: { type: 'int64', id: 1 }, intVal: { type: 'int32', id: 2 }, strVal: { type: 'string', id: 3 } },
  },
  'k8s.io.apimachinery.pkg.runtime.RawExtension': { fields: { raw: { type: 'bytes', id: 1 } } },
  'test.v1.LocalObjectReference': { fields: { name: { type: 'string', id: 1 } } },
  'test.v1.ExtraValue': { fields: { items: { rule: 'repeated', type: 'string', id: 1 } }, options: { kapi_list_wrapper: true } },
  'test.v1.SecretRef': {
    fields: {
      localObjectReference: { type: '.test.v1.LocalObjectReference', id: 1, options: { kapi_inline: true } },
      optional: { type: 'bool', id: 2 },
    },
  },
  'test.v1.Sample': {
    fields: {
      port: { type: '.k8s.io.apimachinery.pkg.util.intstr.IntOrString', id: 1 },
      limits: { keyType: 'string', type: '.k8s.io.apimachinery.pkg.api.resource.Quantity', id: 2 },
      timeout: { type: `.${META}.Duration`, id: 3 },
      eventTime: { type: `.${META}.MicroTime`, id: 4 },
      object: { type: '.k8s.io.apimachinery.pkg.runtime.RawExtension', id: 5 },
      secretRef: { type: '.test.v1.SecretRef', id: 6 },
      ratio: { type: 'double', id: 7 },
      groups: { rule: 'repeated', type: 'int64', id: 8 },
      ports: { rule: 'repeated', type: '.k8s.io.apimachinery.pkg.util.intstr.IntOrString', id: 9 },
      weights: { rule: 'repeated', type: 'int32', id: 10, options: { packed: true } },
      created: { type: `.${META}.Time`, id: 11 },
      count: { type: 'int32', id: 12 },
      extra: { keyType: 'string', type: '.test.v1.ExtraValue', id: 13 },
      verbs: { type: '.test.v1.ExtraValue', id: 14 },
    },
  },
});
