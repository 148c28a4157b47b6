import type { Location } from './types.js';

/**
 * Naming rules between the inputs and the output tree. A definition is identified by its swagger name
 * (`io.k8s.api.core.v1.Pod`); definitions the importer synthesizes get a swagger-style name too.
 */

const SWAGGER_PREFIX = 'io.k8s.';
const PROTO_PREFIX = 'k8s.io.';

/**
 * Go modules whose names have a dash: swagger keeps it (`io.k8s.apiextensions-apiserver...`), Protobuf packages
 * cannot (`k8s.io.apiextensions_apiserver...`).
 */
const DASHED_MODULES = ['apiextensions-apiserver', 'kube-aggregator'];

/** `io.k8s.api.core.v1.Pod` → `k8s.io.api.core.v1.Pod`. */
export function protoNameOf(definition: string): string {
  if (!definition.startsWith(SWAGGER_PREFIX)) throw new Error(`not a Kubernetes definition: ${definition}`);
  let rest = definition.slice(SWAGGER_PREFIX.length);
  for (const m of DASHED_MODULES) if (rest.startsWith(`${m}.`)) rest = m.replace('-', '_') + rest.slice(m.length);
  return PROTO_PREFIX + rest;
}

/** `k8s.io.api.core.v1.Pod` → `io.k8s.api.core.v1.Pod`. */
export function definitionOf(protoName: string): string {
  const name = protoName.startsWith('.') ? protoName.slice(1) : protoName;
  if (!name.startsWith(PROTO_PREFIX)) throw new Error(`not a Kubernetes message: ${protoName}`);
  let rest = name.slice(PROTO_PREFIX.length);
  for (const m of DASHED_MODULES) if (rest.startsWith(`${m.replace('-', '_')}.`)) rest = m + rest.slice(m.length);
  return SWAGGER_PREFIX + rest;
}

/** apimachinery packages whose types all land in `meta/v1`, with the file name prefix they get. */
const APIMACHINERY: Record<string, string> = {
  'io.k8s.apimachinery.pkg.apis.meta.v1': '',
  'io.k8s.apimachinery.pkg.api.resource': '',
  'io.k8s.apimachinery.pkg.util.intstr': '',
  'io.k8s.apimachinery.pkg.runtime': '',
};

/** runtime.TypeMeta would collide with meta/v1 TypeMeta; it gets its own file name. */
const RENAMED: Record<string, string> = {
  'io.k8s.apimachinery.pkg.runtime.TypeMeta': 'RuntimeTypeMeta',
};

/** The file a definition is written to. */
export function locationOf(definition: string): Location {
  const dot = definition.lastIndexOf('.');
  const pkg = definition.slice(0, dot);
  const name = RENAMED[definition] ?? definition.slice(dot + 1);
  if (pkg in APIMACHINERY) return { folder: 'meta', version: 'v1', name };
  // `io.k8s.api.<folder>.<version>`, or the API packages of apiextensions-apiserver and kube-aggregator.
  const match = /^io\.k8s\.(?:api|apiextensions-apiserver\.pkg\.apis|kube-aggregator\.pkg\.apis)\.([a-z0-9]+)\.(v[a-z0-9]+)$/.exec(pkg);
  if (!match) throw new Error(`no schema folder for ${definition}`);
  return { folder: match[1], version: match[2], name };
}

/** `core/v1/Pod.json`, relative to the schemas directory. */
export function filePathOf(location: Location): string {
  return `${location.folder}/${location.version}/${location.name}.json`;
}

/** A `$ref` from one schema file to another (`./PodSpec.json`, `../../meta/v1/ObjectMeta.json`). */
export function refBetween(from: Location, to: Location): string {
  if (from.folder === to.folder && from.version === to.version) return `./${to.name}.json`;
  return `../../${to.folder}/${to.version}/${to.name}.json`;
}

/** The definition name in a swagger `$ref` (`#/definitions/io.k8s.api.core.v1.PodSpec`). */
export function definitionOfRef(ref: string): string {
  const prefix = '#/definitions/';
  if (!ref.startsWith(prefix)) throw new Error(`unsupported $ref ${ref}`);
  return ref.slice(prefix.length);
}

export function swaggerRef(definition: string): string {
  return `#/definitions/${definition}`;
}
