import type { FlowSchema, PriorityLevelConfiguration, QueuingConfiguration, ResourcePolicyRule, Subject } from '@kapi/api-flowcontrol';
import { fieldForbidden as forbidden, fieldInvalid as invalid, fieldRequired as required, type FieldError, type KubeObject, type TypeDefaulter } from '@kapi/apimachinery';
import type { Strategy } from '@kapi/apiserver';

// kube's pkg/apis/flowcontrol/validation, with its messages, for what the schemas cannot say.

const notSupported = (field: string, badValue: unknown, supported: string[]): FieldError => ({
  type: 'FieldValueNotSupported',
  field,
  badValue,
  message: `supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}`,
});

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** A list that must not be empty and may hold `*` only alone. */
function wildcardList(field: string, list: readonly string[] | undefined, emptyMessage: string, what: string): FieldError[] {
  if (!list || list.length === 0) return [required(field, emptyMessage)];
  return list.length > 1 && list.includes('*') ? [invalid(field, list, `if '*' is present, must not specify other ${what}`)] : [];
}

function validateSubject(field: string, subject: Subject): FieldError[] {
  const members = { User: subject.user, Group: subject.group, ServiceAccount: subject.serviceAccount };
  if (!Object.hasOwn(members, subject.kind)) return [notSupported(`${field}.kind`, subject.kind, ['Group', 'ServiceAccount', 'User'])];
  const errs: FieldError[] = [];
  const member = { User: 'user', Group: 'group', ServiceAccount: 'serviceAccount' } as const;
  for (const [kind, value] of Object.entries(members)) {
    const key = member[kind as keyof typeof member];
    if (kind === subject.kind && !value) errs.push(required(`${field}.${key}`, `${key} is required when subject kind is '${kind}'`));
    if (kind !== subject.kind && value) errs.push(forbidden(`${field}.${key}`, `${key} is forbidden when subject kind is not '${kind}'`));
  }
  if (subject.user && !subject.user.name) errs.push(required(`${field}.user.name`, 'username is required'));
  if (subject.group && !subject.group.name) errs.push(required(`${field}.group.name`, 'group name is required'));
  if (subject.serviceAccount) {
    if (!subject.serviceAccount.name) errs.push(required(`${field}.serviceAccount.name`, 'serviceaccount name is required'));
    if (!subject.serviceAccount.namespace) errs.push(required(`${field}.serviceAccount.namespace`, 'serviceaccount namespace is required'));
  }
  return errs;
}

function validateResourceRule(field: string, rule: ResourcePolicyRule): FieldError[] {
  const errs = [
    ...wildcardList(`${field}.verbs`, rule.verbs, 'verbs must contain at least one value', 'verbs'),
    ...wildcardList(`${field}.apiGroups`, rule.apiGroups, 'resource rules must supply at least one api group', 'api groups'),
    ...wildcardList(`${field}.resources`, rule.resources, 'resource rules must supply at least one resource', 'resources'),
  ];
  const namespaces = rule.namespaces ?? [];
  if (namespaces.length === 0 && !rule.clusterScope) {
    errs.push(required(`${field}.namespaces`, 'resource rules that are not cluster scoped must supply at least one namespace'));
  } else if (namespaces.length > 1 && namespaces.includes('*')) {
    errs.push(invalid(`${field}.namespaces`, namespaces, "if '*' is present, must not specify other namespaces"));
  }
  namespaces.forEach((ns, i) => {
    if (ns !== '*' && !(ns.length <= 63 && DNS_LABEL.test(ns))) errs.push(invalid(`${field}.namespaces[${i}]`, ns, "must be '*' or a valid namespace name"));
  });
  return errs;
}

function validateNonResourceURL(field: string, url: string): FieldError[] {
  if (url === '*') return [];
  if (!url.startsWith('/')) return [invalid(field, url, 'must start with slash')];
  if (url.includes('//')) return [invalid(field, url, "must not contain '//'")];
  const star = url.indexOf('*');
  if (star >= 0 && star !== url.length - 1) return [invalid(field, url, "'*' only allowed at the end")];
  return [];
}

export function validateFlowSchema(obj: KubeObject): FieldError[] {
  const spec = (obj as unknown as FlowSchema).spec;
  if (!spec) return [required('spec', 'spec is required')];
  const errs: FieldError[] = [];
  const precedence = spec.matchingPrecedence ?? 1000;
  if (!(precedence >= 1 && precedence <= 10000)) errs.push(invalid('spec.matchingPrecedence', precedence, 'must be between 1 and 10000 inclusively'));
  const method = spec.distinguisherMethod?.type;
  if (spec.distinguisherMethod && method !== 'ByUser' && method !== 'ByNamespace') {
    errs.push(notSupported('spec.distinguisherMethod.type', method, ['ByNamespace', 'ByUser']));
  }
  if (!spec.priorityLevelConfiguration?.name) errs.push(required('spec.priorityLevelConfiguration.name', 'must reference a priority level'));
  (spec.rules ?? []).forEach((rule, i) => {
    const at = `spec.rules[${i}]`;
    if (!rule.subjects || rule.subjects.length === 0) errs.push(required(`${at}.subjects`, 'subjects must contain at least one value'));
    (rule.subjects ?? []).forEach((s, j) => errs.push(...validateSubject(`${at}.subjects[${j}]`, s)));
    if (!rule.resourceRules?.length && !rule.nonResourceRules?.length) {
      errs.push(required(at, 'at least one of resourceRules and nonResourceRules has to be non-empty'));
    }
    (rule.resourceRules ?? []).forEach((r, j) => errs.push(...validateResourceRule(`${at}.resourceRules[${j}]`, r)));
    (rule.nonResourceRules ?? []).forEach((r, j) => {
      const nr = `${at}.nonResourceRules[${j}]`;
      errs.push(...wildcardList(`${nr}.verbs`, r.verbs, 'verbs must contain at least one value', 'verbs'));
      errs.push(...wildcardList(`${nr}.nonResourceURLs`, r.nonResourceURLs, 'nonResourceURLs must contain at least one value', 'non-resource URLs'));
      (r.nonResourceURLs ?? []).forEach((url, k) => errs.push(...validateNonResourceURL(`${nr}.nonResourceURLs[${k}]`, url)));
    });
  });
  return errs;
}

/** log2 of the number of hands (ordered) of `handSize` out of `deckSize`: kube allows at most 60 bits. */
const entropyBits = (deck: number, hand: number) => {
  let bits = 0;
  for (let i = 0; i < hand; i++) bits += Math.log2(deck - i);
  return bits;
};

function validateQueuing(field: string, q: QueuingConfiguration): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of ['queueLengthLimit', 'queues', 'handSize'] as const) {
    if (!(Number(q[key]) > 0)) errs.push(invalid(`${field}.${key}`, q[key], 'must be positive'));
  }
  const queues = q.queues ?? 0;
  const handSize = q.handSize ?? 0;
  if (handSize > queues) errs.push(invalid(`${field}.handSize`, handSize, `should not be greater than queues (${queues})`));
  else if (queues > 0 && handSize > 0 && entropyBits(queues, handSize) > 60) {
    errs.push(invalid(`${field}.handSize`, handSize, `required entropy bits of deckSize ${queues} and handSize ${handSize} should not be greater than 60`));
  }
  return errs;
}

export function validatePriorityLevel(obj: KubeObject): FieldError[] {
  const pl = obj as unknown as PriorityLevelConfiguration;
  const spec = pl.spec;
  if (!spec) return [required('spec', 'spec is required')];
  const errs: FieldError[] = [];
  if (spec.type !== 'Exempt' && spec.type !== 'Limited') return [notSupported('spec.type', spec.type, ['Exempt', 'Limited'])];
  if ((pl.metadata?.name === 'exempt') !== (spec.type === 'Exempt')) {
    errs.push(invalid('spec.type', spec.type, "type must be 'Exempt' if and only if name is 'exempt'"));
  }
  if (spec.type === 'Exempt') {
    if (spec.limited) errs.push(forbidden('spec.limited', 'must be nil if the type is not Limited'));
    const exempt = spec.exempt;
    if (exempt?.nominalConcurrencyShares !== undefined && exempt.nominalConcurrencyShares < 0) {
      errs.push(invalid('spec.exempt.nominalConcurrencyShares', exempt.nominalConcurrencyShares, 'must be a non-negative integer'));
    }
    if (exempt?.lendablePercent !== undefined && !(exempt.lendablePercent >= 0 && exempt.lendablePercent <= 100)) {
      errs.push(invalid('spec.exempt.lendablePercent', exempt.lendablePercent, 'must be between 0 and 100, inclusive'));
    }
    return errs;
  }
  if (spec.exempt) errs.push(forbidden('spec.exempt', 'must be nil if the type is Limited'));
  const limited = spec.limited;
  if (!limited) return [...errs, required('spec.limited', 'must not be empty when type is Limited')];
  if ((limited.nominalConcurrencyShares ?? 0) < 0) {
    errs.push(invalid('spec.limited.nominalConcurrencyShares', limited.nominalConcurrencyShares, 'must be a non-negative integer'));
  }
  const lendable = limited.lendablePercent ?? 0;
  if (!(lendable >= 0 && lendable <= 100)) errs.push(invalid('spec.limited.lendablePercent', lendable, 'must be between 0 and 100, inclusive'));
  if (limited.borrowingLimitPercent !== undefined && limited.borrowingLimitPercent < 0) {
    errs.push(invalid('spec.limited.borrowingLimitPercent', limited.borrowingLimitPercent, 'if specified, must be a non-negative integer'));
  }
  const response = limited.limitResponse;
  if (!response) return errs;
  if (response.type === 'Queue') {
    if (!response.queuing) errs.push(required('spec.limited.limitResponse.queuing', 'must not be empty if the type is Queue'));
    else errs.push(...validateQueuing('spec.limited.limitResponse.queuing', response.queuing));
  } else if (response.type === 'Reject') {
    if (response.queuing) errs.push(forbidden('spec.limited.limitResponse.queuing', 'must be nil if limited.limitResponse.type is not Limited'));
  } else {
    errs.push(notSupported('spec.limited.limitResponse.type', response.type, ['Queue', 'Reject']));
  }
  return errs;
}

export const strategies: Record<string, Strategy> = {
  FlowSchema: { validate: validateFlowSchema },
  PriorityLevelConfiguration: { validate: validatePriorityLevel },
};

/** kube's v1 defaults for the int32 fields Go cannot tell unset from zero (SetDefaults_FlowSchemaSpec, _QueuingConfiguration). */
export const defaulters: Record<string, TypeDefaulter> = {
  'flowcontrol.apiserver.k8s.io/v1/FlowSchemaSpec': (spec) => {
    if (spec.matchingPrecedence === 0) spec.matchingPrecedence = 1000;
  },
  'flowcontrol.apiserver.k8s.io/v1/QueuingConfiguration': (q) => {
    if (q.handSize === 0) q.handSize = 8;
    if (q.queues === 0) q.queues = 64;
    if (q.queueLengthLimit === 0) q.queueLengthLimit = 50;
  },
};
