import type { GroupOpenAPI, ResourceInfo } from '@kapi/apimachinery';
import type { JSONSchemaProps } from '../schema.js';

const OBJECT_META = '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/** kube's OpenAPI definition name of a custom resource kind: the group reversed (`com.example.stable.v1.CronTab`). */
export const definitionName = (group: string, version: string, kind: string): string =>
  `${group.split('.').reverse().join('.')}.${version}.${kind}`;

/**
 * The OpenAPI schema of one version of a custom resource as kube publishes it (its builder): the version's
 * openAPIV3Schema with apiVersion, kind and metadata described as for every kind, under kube's definition name and
 * group-version-kind, so the server's /openapi/v2 and /openapi/v3 (and `kubectl explain`) show it. The list
 * schema is the one the server makes for every kind.
 */
export function customResourceOpenAPI(info: ResourceInfo, schema: JSONSchemaProps): GroupOpenAPI {
  const properties: Record<string, unknown> = {
    apiVersion: {
      description:
        'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources',
      type: 'string',
    },
    kind: {
      description:
        'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
      type: 'string',
    },
    metadata: { allOf: [{ $ref: OBJECT_META }], description: "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata" },
  };
  for (const [name, child] of Object.entries(schema.properties ?? {})) if (!(name in properties)) properties[name] = child;
  const root: Record<string, unknown> = { ...schema, type: 'object', properties };
  root['x-kubernetes-group-version-kind'] = [{ group: info.group, kind: info.kind, version: info.version }];
  return { schemas: { [definitionName(info.group, info.version, info.kind)]: root } };
}
