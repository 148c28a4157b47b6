import {
  asObjects,
  fieldForbidden,
  fieldInvalid,
  fieldRequired,
  isDNS1123Label,
  isDNS1123Subdomain,
  isLabelValue,
  isObj,
  str,
  validateLabelName,
  validateLabelSelector,
  type FieldError,
  type Obj,
} from '@kapi/apimachinery';

// kube 1.33's validateAffinity (pkg/apis/core/validation): node affinity (required terms with valid label values,
// preferred ones with any value, weights 1-100), pod affinity and anti-affinity terms (selectors, namespaces,
// matchLabelKeys/mismatchLabelKeys, topology keys). Plus the merge of matchLabelKeys into a new Pod's selectors that
// kube's pod strategy does before validating.

export const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v : '')) : []);

/** kube's ValidateNodeSelectorRequirement; `anyValue` for preferred terms (their values are not checked). */
export function nodeSelectorRequirementErrors(req: Obj, anyValue: boolean, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const operator = str(req.operator);
  const values = strings(req.values);
  if (operator === 'In' || operator === 'NotIn') {
    if (values.length === 0) errs.push(fieldRequired(`${field}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
  } else if (operator === 'Exists' || operator === 'DoesNotExist') {
    if (values.length > 0) errs.push(fieldForbidden(`${field}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
  } else if (operator === 'Gt' || operator === 'Lt') {
    if (values.length !== 1) errs.push(fieldRequired(`${field}.values`, "must be specified single value when `operator` is 'Lt' or 'Gt'"));
  } else {
    errs.push(fieldInvalid(`${field}.operator`, operator, 'not a valid selector operator'));
  }
  errs.push(...validateLabelName(str(req.key), `${field}.key`));
  if (!anyValue) values.forEach((v, i) => errs.push(...isLabelValue(v).map((msg) => fieldInvalid(`${field}.values[${i}]`, v, msg))));
  return errs;
}

/** kube's ValidateNodeFieldSelectorRequirement: one node name, In or NotIn, on metadata.name. */
export function nodeFieldRequirementErrors(req: Obj, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const operator = str(req.operator);
  const values = strings(req.values);
  if (operator === 'In' || operator === 'NotIn') {
    if (values.length !== 1) errs.push(fieldRequired(`${field}.values`, "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
  } else {
    errs.push(fieldInvalid(`${field}.operator`, operator, 'not a valid selector operator'));
  }
  if (str(req.key) !== 'metadata.name') {
    errs.push(fieldInvalid(`${field}.key`, str(req.key), 'not a valid field selector key'));
  } else {
    values.forEach((v, i) => errs.push(...isDNS1123Subdomain(v).map((msg) => fieldInvalid(`${field}.values[${i}]`, v, msg))));
  }
  return errs;
}

/** kube's ValidateNodeSelectorTerm. */
function nodeSelectorTermErrors(term: unknown, anyValue: boolean, field: string): FieldError[] {
  if (!isObj(term)) return [];
  return [
    ...asObjects(term.matchExpressions).flatMap((req, j) => nodeSelectorRequirementErrors(req, anyValue, `${field}.matchExpressions[${j}]`)),
    ...asObjects(term.matchFields).flatMap((req, j) => nodeFieldRequirementErrors(req, `${field}.matchFields[${j}]`)),
  ];
}

/** A weight of a preferred term: 1 to 100. */
const weightErrors = (weight: unknown, field: string): FieldError[] =>
  typeof weight === 'number' && weight >= 1 && weight <= 100 ? [] : [fieldInvalid(field, weight ?? 0, 'must be in the range 1-100')];

/** kube's validateNodeAffinity: ValidateNodeSelector for the required terms, ValidatePreferredSchedulingTerms. */
function nodeAffinityErrors(na: Obj, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const required = na.requiredDuringSchedulingIgnoredDuringExecution;
  if (isObj(required)) {
    const terms = asObjects(required.nodeSelectorTerms);
    const termsField = `${field}.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`;
    if (terms.length === 0) errs.push(fieldRequired(termsField, 'must have at least one node selector term'));
    terms.forEach((term, i) => errs.push(...nodeSelectorTermErrors(term, false, `${termsField}[${i}]`)));
  }
  asObjects(na.preferredDuringSchedulingIgnoredDuringExecution).forEach((term, i) => {
    const at = `${field}.preferredDuringSchedulingIgnoredDuringExecution[${i}]`;
    errs.push(...weightErrors(term.weight, `${at}.weight`));
    // Preferred terms may name any label value: they can still be met on a one-node cluster.
    errs.push(...nodeSelectorTermErrors(term.preference, true, `${at}.preference`));
  });
  return errs;
}

/** kube's validateLabelKeys: matchLabelKeys or mismatchLabelKeys need a labelSelector, and are label names. */
function labelKeysErrors(keys: string[], selector: unknown, field: string): FieldError[] {
  if (keys.length === 0) return [];
  if (!isObj(selector)) return [fieldForbidden(field, 'must not be specified when labelSelector is not set')];
  return keys.flatMap((key, i) => validateLabelName(key, `${field}[${i}]`));
}

/** kube's validateMatchLabelKeysAndMismatchLabelKeys (with kube's field path for a key in both the keys and the selector). */
function matchLabelKeysErrors(term: Obj, field: string): FieldError[] {
  const match = strings(term.matchLabelKeys);
  const mismatch = strings(term.mismatchLabelKeys);
  const selector = term.labelSelector;
  const errs = [...labelKeysErrors(match, selector, `${field}.matchLabelKeys`), ...labelKeysErrors(mismatch, selector, `${field}.mismatchLabelKeys`)];
  if (isObj(selector)) {
    const index = new Map(match.map((key, i) => [key, i]));
    const selectorKeys = new Set(isObj(selector.matchLabels) ? Object.keys(selector.matchLabels) : []);
    for (const expr of asObjects(selector.matchExpressions)) {
      const key = str(expr.key);
      const i = index.get(key);
      if (i !== undefined && selectorKeys.has(key)) errs.push(fieldInvalid(`${field}[${i}]`, key, 'exists in both matchLabelKeys and labelSelector'));
      selectorKeys.add(key);
    }
  }
  const mismatched = new Set(mismatch);
  match.forEach((key, i) => {
    if (mismatched.has(key)) errs.push(fieldInvalid(`${field}.matchLabelKeys[${i}]`, key, 'exists in both matchLabelKeys and mismatchLabelKeys'));
  });
  return errs;
}

/** kube's validatePodAffinityTerm. */
function podAffinityTermErrors(term: Obj, field: string): FieldError[] {
  const errs = [
    ...validateLabelSelector(term.labelSelector, `${field}.labelSelector`),
    ...validateLabelSelector(term.namespaceSelector, `${field}.namespaceSelector`),
  ];
  // kube reports a bad namespace under `namespace`, not `namespaces[i]`.
  for (const name of strings(term.namespaces)) errs.push(...isDNS1123Label(name).map((msg) => fieldInvalid(`${field}.namespace`, name, msg)));
  errs.push(...matchLabelKeysErrors(term, field));
  const topologyKey = str(term.topologyKey);
  if (!topologyKey) errs.push(fieldRequired(`${field}.topologyKey`, 'can not be empty'));
  errs.push(...validateLabelName(topologyKey, `${field}.topologyKey`));
  return errs;
}

/** kube's validatePodAffinity and validatePodAntiAffinity (the same rules). */
function podAffinityErrors(affinity: Obj, field: string): FieldError[] {
  return [
    ...asObjects(affinity.requiredDuringSchedulingIgnoredDuringExecution).flatMap((term, i) =>
      podAffinityTermErrors(term, `${field}.requiredDuringSchedulingIgnoredDuringExecution[${i}]`),
    ),
    ...asObjects(affinity.preferredDuringSchedulingIgnoredDuringExecution).flatMap((weighted, j) => {
      const at = `${field}.preferredDuringSchedulingIgnoredDuringExecution[${j}]`;
      return [...weightErrors(weighted.weight, `${at}.weight`), ...podAffinityTermErrors(isObj(weighted.podAffinityTerm) ? weighted.podAffinityTerm : {}, `${at}.podAffinityTerm`)];
    }),
  ];
}

/** kube's validateAffinity. */
export function affinityErrors(affinity: unknown, field: string): FieldError[] {
  if (!isObj(affinity)) return [];
  return [
    ...(isObj(affinity.nodeAffinity) ? nodeAffinityErrors(affinity.nodeAffinity, `${field}.nodeAffinity`) : []),
    ...(isObj(affinity.podAffinity) ? podAffinityErrors(affinity.podAffinity, `${field}.podAffinity`) : []),
    ...(isObj(affinity.podAntiAffinity) ? podAffinityErrors(affinity.podAntiAffinity, `${field}.podAntiAffinity`) : []),
  ];
}

/** The pod affinity terms of a spec, required and preferred, of both kinds. */
function podAffinityTerms(spec: Obj): Obj[] {
  const affinity = isObj(spec.affinity) ? spec.affinity : {};
  return [affinity.podAffinity, affinity.podAntiAffinity].filter(isObj).flatMap((a) => [
    ...asObjects(a.requiredDuringSchedulingIgnoredDuringExecution),
    ...asObjects(a.preferredDuringSchedulingIgnoredDuringExecution).map((w) => w.podAffinityTerm).filter(isObj),
  ]);
}

/**
 * What kube's pod strategy does on create (MatchLabelKeysInPodAffinity, on by default in 1.33): each key of a term's
 * matchLabelKeys that the new Pod has as a label becomes `key In (value)` in the term's labelSelector, and each of its
 * mismatchLabelKeys `key NotIn (value)`. Terms without a labelSelector are left as they are (validation refuses them).
 */
export function mergeMatchLabelKeys(spec: Obj, labels: unknown): void {
  const podLabels = isObj(labels) ? labels : {};
  for (const term of podAffinityTerms(spec)) {
    const selector = term.labelSelector;
    if (!isObj(selector)) continue;
    const added: Obj[] = [];
    for (const [keys, operator] of [[term.matchLabelKeys, 'In'], [term.mismatchLabelKeys, 'NotIn']] as const) {
      for (const key of strings(keys)) {
        const value = podLabels[key];
        if (typeof value === 'string') added.push({ key, operator, values: [value] });
      }
    }
    if (added.length) selector.matchExpressions = [...asObjects(selector.matchExpressions), ...added];
  }
}
