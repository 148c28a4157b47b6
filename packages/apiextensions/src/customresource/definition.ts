import type { CustomResourceDefinition, CustomResourceDefinitionVersion } from '@kapi/api-apiextensions';
import {
  findUnknownFields,
  mergeFieldTrees,
  mergeOpenAPI,
  metaDescriptor,
  metaFieldTree,
  metaOpenAPI,
  metaValidators,
  type GroupDefinition,
  type KubeObject,
  type ObjectValidator,
  type PrinterColumn,
  type ResourceInfo,
} from '@kapi/apimachinery';
import { compareKubeAwareVersions, createWebhookClient, sortByVersionPriority, type GroupPlugin, type KindConversion, type WebhookClient } from '@kapi/apiserver';
import type { JSONSchemaProps } from '../schema.js';
import { customResourceValidator } from './validator.js';
import { customResourceShape } from './field-tree.js';
import { customResourceOpenAPI } from './openapi.js';
import { customResourceStrategy } from './strategy.js';
import { webhookConversion } from './webhook.js';

const VERBS: ResourceInfo['verbs'] = ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'];

/** kube shows a custom resource's age when its version declares no printer columns (serveDefaultColumnsIfEmpty). */
function ageColumn(): PrinterColumn {
  const meta = metaOpenAPI.schemas['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'] as { properties?: Record<string, { description?: string }> };
  return { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', description: meta?.properties?.creationTimestamp?.description ?? '' };
}

/** The resource one served version of a CRD declares, as discovery and the request path see it. */
function resourceInfo(crd: CustomResourceDefinition, version: CustomResourceDefinitionVersion, schema: ReturnType<typeof customResourceShape>): ResourceInfo {
  const { spec } = crd;
  const names = crd.status?.acceptedNames?.plural ? crd.status.acceptedNames : spec.names;
  const scale = version.subresources?.scale;
  const columns = version.additionalPrinterColumns ?? [];
  return {
    group: spec.group,
    version: version.name,
    kind: names.kind,
    listKind: names.listKind ?? `${names.kind}List`,
    plural: names.plural,
    singular: names.singular || names.kind.toLowerCase(),
    scope: spec.scope === 'Cluster' ? 'Cluster' : 'Namespaced',
    shortNames: names.shortNames ?? [],
    categories: names.categories ?? [],
    verbs: VERBS,
    subresources: {
      ...(version.subresources?.status ? { status: {} } : {}),
      ...(scale
        ? { scale: { specReplicasPath: scale.specReplicasPath, statusReplicasPath: scale.statusReplicasPath, ...(scale.labelSelectorPath ? { labelSelectorPath: scale.labelSelectorPath } : {}) } }
        : {}),
    },
    ...(version.deprecated ? { deprecationWarning: version.deprecationWarning ?? defaultDeprecationWarning(crd, version.name) } : {}),
    printerColumns: columns.length
      ? columns.map((c) => ({ name: c.name, type: c.type as PrinterColumn['type'], jsonPath: c.jsonPath, ...(c.description ? { description: c.description } : {}), ...(c.priority ? { priority: c.priority } : {}), ...(c.format ? { format: c.format } : {}) }))
      : [ageColumn()],
    // No Protobuf for custom resources (kube answers 406): an empty message name says so.
    protobuf: { message: '', listMessage: '' },
    patchMeta: schema.patchMeta,
  };
}

export interface CustomResourceOptions {
  /** Refuses every create with this error (a CRD being deleted: kube answers 405). */
  refuseCreate?: () => Error;
  /** How a conversion webhook is called (the server's shared webhook client); without it, webhook conversion fails. */
  webhookClient?: WebhookClient;
}

/** kube's warning for a deprecated version without its own (defaultDeprecationWarning): the best version to use instead. */
function defaultDeprecationWarning(crd: CustomResourceDefinition, deprecated: string): string {
  const { group, names } = crd.spec;
  const message = `${group}/${deprecated} ${names.kind} is deprecated`;
  const better = crd.spec.versions.filter((v) => v.served && !v.deprecated && compareKubeAwareVersions(deprecated, v.name) < 0).map((v) => v.name);
  if (!better.length) return message;
  return `${message}; use ${group}/${sortByVersionPriority(better)[0]} ${names.kind}`;
}

/**
 * How the versions of a CRD convert (spec.conversion): `None` rewrites apiVersion only; `Webhook` asks the CRD's
 * conversion webhook.
 */
function conversionOf(crd: CustomResourceDefinition, client?: WebhookClient): KindConversion | undefined {
  const storageVersion = crd.spec.versions.find((v) => v.storage)?.name;
  if (!storageVersion || crd.spec.versions.length < 2) return undefined;
  const kind = crd.status?.acceptedNames?.kind || crd.spec.names.kind;
  if (crd.spec.conversion?.strategy === 'Webhook') return webhookConversion(crd, storageVersion, kind, client ?? createWebhookClient(async () => undefined));
  return { storageVersion, convert: (objects, toApiVersion) => objects.map((obj) => ({ ...obj, apiVersion: toApiVersion })) };
}

const objectMetaValidator = metaValidators['meta.k8s.io/v1/ObjectMeta'];

/**
 * The schema's validation, and ObjectMeta's types in `metadata` (kube decodes a custom resource's metadata into a
 * typed ObjectMeta): labels of numbers or lists are refused, never stored.
 */
function withObjectMeta(validate: ObjectValidator): ObjectValidator {
  return (obj, old) => {
    const errors = validate(obj, old);
    const meta = (obj as { metadata?: unknown } | null)?.metadata;
    if (meta && typeof meta === 'object' && objectMetaValidator) {
      for (const e of objectMetaValidator(meta)) errors.push({ ...e, field: e.field ? `metadata.${e.field}` : 'metadata' });
    }
    return errors;
  };
}

/** The open schema of a version without one (a CRD converted from v1beta1 may lack it): anything is kept. */
const OPEN_SCHEMA: JSONSchemaProps = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };

/**
 * The group plugin serving one CustomResourceDefinition's custom resources: a resource per served version, with
 * the version's schema as validation, pruning, defaulting and OpenAPI, its printer columns, subresources and names.
 * The names are those the CRD's status accepted (kube serves acceptedNames), else its spec's.
 */
export function customResourcePlugin(crd: CustomResourceDefinition, options: CustomResourceOptions = {}): GroupPlugin {
  const served = crd.spec.versions.filter((v) => v.served);
  const resources: ResourceInfo[] = [];
  const validators: Record<string, ObjectValidator> = {};
  const typeValidators: Record<string, ObjectValidator> = {};
  const trees = [metaFieldTree];
  const documents = [metaOpenAPI];
  const strategies: GroupPlugin['strategies'] = {};
  for (const version of served) {
    const schema = (version.schema?.openAPIV3Schema as JSONSchemaProps | undefined) ?? OPEN_SCHEMA;
    const kind = crd.status?.acceptedNames?.kind || crd.spec.names.kind;
    const typeKey = `${crd.spec.group}/${version.name}/${kind}`;
    const shape = customResourceShape(typeKey, schema);
    const info = resourceInfo(crd, version, shape);
    resources.push(info);
    validators[typeKey] = withObjectMeta(customResourceValidator(schema));
    // Custom resources are decoded as unstructured JSON: type errors are validation errors, reported with the rest.
    typeValidators[typeKey] = () => [];
    trees.push(shape.fieldTree);
    documents.push(customResourceOpenAPI(info, schema));
    strategies[kind] = customResourceStrategy(crd, options);
  }
  let fieldTree: GroupDefinition['fieldTree'] | undefined;
  let openapi: GroupDefinition['openapi'] | undefined;
  const definition: GroupDefinition = {
    group: crd.spec.group,
    packageName: `customresourcedefinitions/${crd.metadata?.name}`,
    versions: served.map((v) => v.name).sort(),
    strategicMergePatch: false,
    resources,
    validators,
    typeValidators,
    get fieldTree() {
      return (fieldTree ??= mergeFieldTrees(trees));
    },
    protobuf: metaDescriptor,
    get openapi() {
      return (openapi ??= mergeOpenAPI(documents));
    },
  };
  const kind = crd.status?.acceptedNames?.kind || crd.spec.names.kind;
  const converts = conversionOf(crd, options.webhookClient);
  const conversion = converts && pruningConversion(converts, () => definition.fieldTree, kind);
  return { definition, strategies, ...(conversion ? { conversions: { [kind]: conversion } } : {}) };
}

/**
 * kube's schemaCoercingConverter: what a conversion gives is pruned with the schema of the version it converted to.
 * A field the written version keeps (its schema preserves unknown fields) but the storage version does not know is
 * not stored; a webhook's extra fields are not served.
 */
function pruningConversion(conversion: KindConversion, tree: () => GroupDefinition['fieldTree'], kind: string): KindConversion {
  const prune = (objects: KubeObject[], toApiVersion: string): KubeObject[] => {
    const fields = tree();
    const typeKey = `${toApiVersion}/${kind}`;
    if (!fields.types[typeKey]) return objects;
    // Converted objects may share their parts with the objects given (None only rewrites apiVersion): copied first.
    return objects.map((obj) => {
      if (!findUnknownFields(fields, typeKey, obj).length) return obj;
      const copy = structuredClone(obj);
      findUnknownFields(fields, typeKey, copy, { prune: true });
      return copy;
    });
  };
  return {
    ...conversion,
    convert(objects, toApiVersion) {
      const converted = conversion.convert(objects, toApiVersion);
      return converted instanceof Promise ? converted.then((out) => prune(out, toApiVersion)) : prune(converted, toApiVersion);
    },
  };
}
