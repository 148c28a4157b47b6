import { isDNS1123Subdomain, type ResourceInfo } from '@kapi/apimachinery';

// kube's name checks (k8s.io/apimachinery/pkg/util/validation): which one applies is per kind.
const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const dns1123Label = new RegExp(`^${DNS1123_LABEL_FMT}$`);
const dns1035Label = new RegExp(`^${DNS1035_LABEL_FMT}$`);

export type NameValidator = (name: string) => string[];

export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!dns1123Label.test(value)) {
    errs.push(
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    );
  }
  return errs;
}

export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!dns1035Label.test(value)) {
    errs.push(
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    );
  }
  return errs;
}

/** kube's path-segment rule, applied to every name: not `.` or `..`, no `/` or `%`. */
export function isValidPathSegmentName(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  for (const bad of ['/', '%']) if (name.includes(bad)) return [`may not contain '${bad}'`];
  return [];
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
