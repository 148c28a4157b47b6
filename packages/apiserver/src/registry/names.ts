import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, maskTrailingDash, type ResourceInfo } from '@kapi/apimachinery';

// kube's name checks (k8s.io/apimachinery/pkg/util/validation): which one applies is per kind.
export type NameValidator = (name: string) => string[];

/** kube's path.IsValidPathSegmentPrefix, for a generateName: one message for each of `/` and `%` it contains. */
export function isValidPathSegmentPrefix(prefix: string): string[] {
  return ['/', '%'].filter((bad) => prefix.includes(bad)).map((bad) => `may not contain '${bad}'`);
}

/** kube's path.IsValidPathSegmentName: not `.` or `..`; otherwise the prefix rule's messages. */
export function isValidPathSegmentName(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  return isValidPathSegmentPrefix(name);
}

type NameRule = NonNullable<ResourceInfo['nameValidation']>;

const NAME_RULES: Record<NameRule, NameValidator> = {
  DNS1123Subdomain: isDNS1123Subdomain,
  DNS1123Label: isDNS1123Label,
  DNS1035Label: isDNS1035Label,
  PathSegment: isValidPathSegmentName,
};

/** The same rules for a generateName (kube's ValidateNameFunc with prefix true). */
const PREFIX_RULES: Record<NameRule, NameValidator> = {
  DNS1123Subdomain: (prefix) => isDNS1123Subdomain(maskTrailingDash(prefix)),
  DNS1123Label: (prefix) => isDNS1123Label(maskTrailingDash(prefix)),
  DNS1035Label: (prefix) => isDNS1035Label(maskTrailingDash(prefix)),
  PathSegment: isValidPathSegmentPrefix,
};

/** The name rule of a kind, as its resource header declares it: a DNS-1123 subdomain unless it names another. */
export function nameValidatorFor(info: ResourceInfo): NameValidator {
  return NAME_RULES[info.nameValidation ?? 'DNS1123Subdomain'];
}

/** The kind's name rule for a generateName. */
export function namePrefixValidatorFor(info: ResourceInfo): NameValidator {
  return PREFIX_RULES[info.nameValidation ?? 'DNS1123Subdomain'];
}

const GENERATE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** kube's SimpleNameGenerator: the prefix (trimmed to leave room) plus five random characters. */
export function generateName(prefix: string): string {
  const base = prefix.length > 58 ? prefix.slice(0, 58) : prefix;
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += GENERATE_ALPHABET[Math.floor(Math.random() * GENERATE_ALPHABET.length)];
  return base + suffix;
}
