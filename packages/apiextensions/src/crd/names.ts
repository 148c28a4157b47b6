import type { CustomResourceDefinition, CustomResourceDefinitionNames } from '@kapi/api-apiextensions';

/** What the names controller decides for a CRD: the names it is served by, and why some were refused. */
export interface NamesDecision {
  accepted: CustomResourceDefinitionNames;
  /** Empty when every name was accepted; else kube's reason and message of the first conflict. */
  conflict?: { reason: string; message: string };
}

const inUse = (name: string) => `"${name}" is already in use`;

/**
 * kube's naming controller (NamingConditionController): a CRD's names are accepted unless another CRD of the same
 * group (one accepted earlier) or a resource the server serves already uses them: plural, singular and short names
 * share one space, kinds and list kinds another. A refused name leaves the one accepted before in place, so a CRD
 * keeps serving while a rename waits.
 */
export function decideNames(
  crd: CustomResourceDefinition,
  others: readonly CustomResourceDefinition[],
  /** Resource names and kinds already served in the CRD's group by something else than a CRD. */
  builtIn: { resources: ReadonlySet<string>; kinds: ReadonlySet<string> },
): NamesDecision {
  const resources = new Set(builtIn.resources);
  const kinds = new Set(builtIn.kinds);
  for (const other of others) {
    if (other.metadata?.name === crd.metadata?.name || other.spec.group !== crd.spec.group) continue;
    const names = other.status?.acceptedNames;
    if (!names?.plural) continue;
    for (const n of [names.plural, names.singular, ...(names.shortNames ?? [])]) if (n) resources.add(n);
    for (const k of [names.kind, names.listKind]) if (k) kinds.add(k);
  }
  const requested = crd.spec.names;
  const old = crd.status?.acceptedNames;
  const accepted: CustomResourceDefinitionNames = { ...(old?.plural ? old : {}), plural: old?.plural ?? '', kind: old?.kind ?? '' };
  let conflict: NamesDecision['conflict'];
  const refuse = (reason: string, name: string) => (conflict ??= { reason, message: inUse(name) });

  if (resources.has(requested.plural)) refuse('PluralConflict', requested.plural);
  else accepted.plural = requested.plural;
  const singular = requested.singular || requested.kind.toLowerCase();
  if (resources.has(singular)) refuse('SingularConflict', singular);
  else accepted.singular = requested.singular;
  const clash = (requested.shortNames ?? []).find((s) => resources.has(s));
  if (clash) refuse('ShortNamesConflict', clash);
  else accepted.shortNames = requested.shortNames;
  if (kinds.has(requested.kind)) refuse('KindConflict', requested.kind);
  else accepted.kind = requested.kind;
  const listKind = requested.listKind || `${requested.kind}List`;
  if (kinds.has(listKind)) refuse('ListKindConflict', listKind);
  else accepted.listKind = listKind;
  accepted.categories = requested.categories;
  for (const key of Object.keys(accepted) as (keyof CustomResourceDefinitionNames)[]) if (accepted[key] === undefined) delete accepted[key];
  return { accepted, conflict };
}
