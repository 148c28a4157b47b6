import type { RestOperation } from './paths.js';
import type { GroupVersionKind } from './types.js';

export const VERB_ORDER = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export interface OtherSubresource {
  name: string;
  group: string;
  version: string;
  kind: string;
  verbs: string[];
}

/** The part of a resource header that swagger `paths` determine. */
export interface RestShape {
  plural: string;
  scope: 'Namespaced' | 'Cluster';
  verbs: string[];
  subresources?: {
    status?: Record<string, never>;
    scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath: string };
    others?: OtherSubresource[];
  };
}

const sameGvk = (a: GroupVersionKind | undefined, b: GroupVersionKind) =>
  a !== undefined && a.group === b.group && a.version === b.version && a.kind === b.kind;

function sortVerbs(verbs: Iterable<string | undefined>): string[] {
  const set = new Set([...verbs].filter((v): v is string => v !== undefined));
  return VERB_ORDER.filter((v) => set.delete(v)).concat([...set].sort());
}

/**
 * Derives plural, scope, verbs and subresources of a kind from the operations whose
 * `x-kubernetes-group-version-kind` is the kind. A kind that is only ever a subresource's body (Scale,
 * Eviction) has no verbs of its own; its scope is that of the resources it appears under.
 */
export function restShapeOf(gvk: GroupVersionKind, ops: readonly RestOperation[]): RestShape {
  const main = ops.filter(
    (op) => op.group === gvk.group && op.version === gvk.version && !op.subresource && sameGvk(op.gvk, gvk),
  );
  if (main.length === 0) {
    const uses = ops.filter((op) => sameGvk(op.gvk, gvk));
    return {
      plural: `${gvk.kind.toLowerCase()}s`,
      scope: uses.length > 0 && uses.every((op) => op.namespaced) ? 'Namespaced' : 'Cluster',
      verbs: [],
    };
  }
  const plurals = new Set(main.map((op) => op.resource));
  if (plurals.size !== 1) throw new Error(`${gvk.kind}: several resources ${[...plurals].join(', ')}`);
  const plural = main[0].resource;
  const own = ops.filter((op) => op.group === gvk.group && op.version === gvk.version && op.resource === plural);
  const shape: RestShape = {
    plural,
    scope: own.some((op) => op.namespaced) ? 'Namespaced' : 'Cluster',
    verbs: sortVerbs(main.map((op) => op.verb)),
  };

  const bySub = new Map<string, RestOperation[]>();
  for (const op of own) if (op.subresource) bySub.set(op.subresource, [...(bySub.get(op.subresource) ?? []), op]);
  const subresources: NonNullable<RestShape['subresources']> = {};
  const others: OtherSubresource[] = [];
  for (const name of [...bySub.keys()].sort()) {
    const subOps = bySub.get(name)!;
    const body = subOps.find((op) => op.gvk)?.gvk ?? gvk;
    if (name === 'status' && sameGvk(body, gvk)) {
      subresources.status = {};
    } else if (name === 'scale' && body.kind === 'Scale') {
      // As kube serves it: the Scale's status.selector is the label selector in string form.
      subresources.scale = {
        specReplicasPath: '.spec.replicas',
        statusReplicasPath: '.status.replicas',
        labelSelectorPath: '.status.selector',
      };
    } else {
      others.push({ name, group: body.group, version: body.version, kind: body.kind, verbs: sortVerbs(subOps.map((op) => op.verb)) });
    }
  }
  if (others.length) subresources.others = others;
  const { status, scale } = subresources;
  if (status || scale || others.length) {
    shape.subresources = { ...(status ? { status } : {}), ...(scale ? { scale } : {}), ...(others.length ? { others } : {}) };
  }
  return shape;
}
