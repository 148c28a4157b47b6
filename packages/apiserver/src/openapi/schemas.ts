import type { GroupDefinition, ResourceInfo } from '@kapi/apimachinery';

export type Schema = Record<string, unknown>;

export interface GroupVersionKind {
  group: string;
  kind: string;
  version: string;
}

/** Where a v3 document keeps its schemas; generated groups' `$ref`s point here. */
export const COMPONENTS_PREFIX = '#/components/schemas/';

const GVK_KEY = 'x-kubernetes-group-version-kind';

/** kube's definition name of a Protobuf message: `k8s.io.api.apps.v1.Deployment` → `io.k8s.api.apps.v1.Deployment`. */
export const openAPIName = (message: string): string =>
  message.startsWith('k8s.io.') ? `io.k8s.${message.slice('k8s.io.'.length)}` : message;

export const ref = (name: string): Schema => ({ $ref: COMPONENTS_PREFIX + name });

export const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
export const VERSION_INFO = 'io.k8s.apimachinery.pkg.version.Info';

const str = (description?: string): Schema => (description ? { description, type: 'string' } : { default: '', type: 'string' });

/**
 * Schemas a document needs that no generated group may carry: meta's `Patch`, and `version.Info` (served at
 * /version, not a schema file). Only used where no group supplies the name.
 */
const BUILTIN: Record<string, Schema> = {
  [`${META}Patch`]: {
    description: 'Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.',
    type: 'object',
  },
  [VERSION_INFO]: {
    description: "Info contains versioning information. how we'll want to distribute that information.",
    properties: {
      buildDate: str(),
      compiler: str(),
      emulationMajor: str('EmulationMajor is the major version of the emulation version'),
      emulationMinor: str('EmulationMinor is the minor version of the emulation version'),
      gitCommit: str(),
      gitTreeState: str(),
      gitVersion: str(),
      goVersion: str(),
      major: str('Major is the major version of the binary version'),
      minCompatibilityMajor: str('MinCompatibilityMajor is the major version of the minimum compatibility version'),
      minCompatibilityMinor: str('MinCompatibilityMinor is the minor version of the minimum compatibility version'),
      minor: str('Minor is the minor version of the binary version'),
      platform: str(),
    },
    required: ['major', 'minor', 'gitVersion', 'gitCommit', 'gitTreeState', 'buildDate', 'goVersion', 'compiler', 'platform'],
    type: 'object',
  },
};

/** Stand-in for a meta type no installed group carries (groups generated before OpenAPI support). */
const opaque = (name: string): Schema => ({
  description: `${name.slice(name.lastIndexOf('.') + 1)} (schema not available).`,
  type: 'object',
  'x-kubernetes-preserve-unknown-fields': true,
});

/** Every schema the installed groups know, by definition name, with lookups by GroupVersionKind. */
export interface SchemaPool {
  has(name: string): boolean;
  /** The definition name of the schema carrying this GroupVersionKind, if any. */
  nameOf(gvk: GroupVersionKind): string | undefined;
  /** The definition names of a resource's kind and list (stand-ins are added for groups without schemas). */
  kindNames(resource: ResourceInfo): { kind: string; list: string };
  /** `roots` and every schema they reach through `$ref`, sorted by name; unknown names get an opaque stand-in. */
  closure(roots: Iterable<string>): Record<string, Schema>;
}

const gvkKey = (g: GroupVersionKind) => `${g.group}/${g.version}/${g.kind}`;

function gvksOf(schema: Schema): GroupVersionKind[] {
  const value = schema[GVK_KEY];
  return Array.isArray(value) ? (value as GroupVersionKind[]) : [];
}

function withGVKs(schema: Schema, gvks: GroupVersionKind[]): Schema {
  const sorted = [...new Map(gvks.map((g) => [gvkKey(g), g])).values()].sort((a, b) =>
    a.group === b.group ? (a.version === b.version ? (a.kind < b.kind ? -1 : 1) : a.version < b.version ? -1 : 1) : a.group < b.group ? -1 : 1,
  );
  return { ...schema, [GVK_KEY]: sorted };
}

/** Every `$ref` target name below a value. */
export function refNames(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refNames(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith(COMPONENTS_PREFIX)) out.push(v.slice(COMPONENTS_PREFIX.length));
      else refNames(v, out);
    }
  }
  return out;
}

/**
 * Merges the groups' schemas. Groups copy the types they share (ObjectMeta, PodTemplateSpec), so a name is taken
 * from the first group that has it; meta kinds registered in several groups collect every GroupVersionKind.
 */
export function schemaPool(groups: readonly GroupDefinition[]): SchemaPool {
  const schemas = new Map<string, Schema>();
  for (const group of groups) {
    for (const [name, value] of Object.entries(group.openapi?.schemas ?? {})) {
      const schema = value as Schema;
      const known = schemas.get(name);
      if (!known) schemas.set(name, schema);
      else if (gvksOf(schema).length && gvksOf(known).length) schemas.set(name, withGVKs(known, [...gvksOf(known), ...gvksOf(schema)]));
    }
  }
  for (const [name, schema] of Object.entries(BUILTIN)) if (!schemas.has(name)) schemas.set(name, schema);

  const byGVK = new Map<string, string>();
  for (const name of [...schemas.keys()].sort()) {
    for (const gvk of gvksOf(schemas.get(name)!)) if (!byGVK.has(gvkKey(gvk))) byGVK.set(gvkKey(gvk), name);
  }

  const kindNames = (r: ResourceInfo) => {
    const kindName = byGVK.get(gvkKey(r)) ?? openAPIName(r.protobuf.message);
    const listName = byGVK.get(gvkKey({ ...r, kind: r.listKind })) ?? `${kindName.slice(0, kindName.lastIndexOf('.') + 1)}${r.listKind}`;
    if (!schemas.has(kindName)) {
      schemas.set(kindName, {
        description: `${r.kind} (schema not available).`,
        type: 'object',
        'x-kubernetes-group-version-kind': [{ group: r.group, kind: r.kind, version: r.version }],
        'x-kubernetes-preserve-unknown-fields': true,
      });
      byGVK.set(gvkKey(r), kindName);
    }
    if (!schemas.has(listName)) {
      schemas.set(listName, {
        description: `${r.listKind} is a list of ${r.kind} objects.`,
        properties: {
          apiVersion: { type: 'string' },
          items: { items: ref(kindName), type: 'array' },
          kind: { type: 'string' },
          metadata: ref(`${META}ListMeta`),
        },
        required: ['items'],
        type: 'object',
        'x-kubernetes-group-version-kind': [{ group: r.group, kind: r.listKind, version: r.version }],
      });
    }
    return { kind: kindName, list: listName };
  };

  return {
    has: (name) => schemas.has(name),
    nameOf: (gvk) => byGVK.get(gvkKey(gvk)),
    kindNames,
    closure(roots) {
      const out = new Map<string, Schema>();
      const queue = [...roots];
      while (queue.length) {
        const name = queue.pop()!;
        if (out.has(name)) continue;
        const schema = schemas.get(name) ?? opaque(name);
        out.set(name, schema);
        queue.push(...refNames(schema));
      }
      return Object.fromEntries([...out.keys()].sort().map((k) => [k, out.get(k)!]));
    },
  };
}
