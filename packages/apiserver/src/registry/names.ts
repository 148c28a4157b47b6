import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, type ResourceInfo } from '@kapi/apimachinery';

// kube's name checks (k8s.io/apimachinery/pkg/util/validation): which one applies is per kind.
export type NameValidator = (name: string) => string[];

/** kube's path.IsValidPathSegmentName: not `.` or `..`; otherwise one message for each of `/` and `%` it contains. */
export function isValidPathSegmentName(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  return ['/', '%'].filter((bad) => name.includes(bad)).map((bad) => `may not contain '${bad}'`);
}

const NAME_RULES: Record<NonNullable<ResourceInfo['nameValidation']>, NameValidator> = {
  DNS1123Subdomain: isDNS1123Subdomain,
  DNS1123Label: isDNS1123Label,
  DNS1035Label: isDNS1035Label,
  PathSegment: isValidPathSegmentName,
};

/** The name rule of a kind, as its resource header declares it: a DNS-1123 subdomain unless it names another. */
export function nameValidatorFor(info: ResourceInfo): NameValidator {
  return NAME_RULES[info.nameValidation ?? 'DNS1123Subdomain'];
}

const GENERATE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** kube's SimpleNameGenerator: the prefix (trimmed to leave room) plus five random characters. */
export function generateName(prefix: string): string {
  const base = prefix.length > 58 ? prefix.slice(0, 58) : prefix;
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += GENERATE_ALPHABET[Math.floor(Math.random() * GENERATE_ALPHABET.length)];
  return base + suffix;
}
