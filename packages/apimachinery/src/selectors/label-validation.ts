// kube's label key and value checks (k8s.io/apimachinery/pkg/api/validate/content), with its exact messages.
import type { FieldError } from '../validation/types.js';

const LABEL_KEY_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_KEY_ERR = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_KEY_MAX = 63;
const LABEL_VALUE_FMT = `(${LABEL_KEY_FMT})?`;
const LABEL_VALUE_ERR =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_MAX = 63;
const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN_ERR =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_MAX = 253;

const labelKeyName = new RegExp(`^${LABEL_KEY_FMT}$`);
const dns1123Subdomain = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);

/** `must be no more than N characters` */
export const maxLenError = (n: number): string => `must be no more than ${n} characters`;
/** `must be non-empty` */
export const emptyError = (): string => 'must be non-empty';

/** kube's RegexError: `<msg> (e.g. 'a',  or 'b', regex used for validation is '<fmt>')` (the double space is kube's). */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`;
}

// Length checks count bytes, as Go's len() does.
const byteLength = (s: string): number => Buffer.byteLength(s, 'utf8');

/** Problems with `value` as an RFC 1123 subdomain (`[]` when valid). */
export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_SUBDOMAIN_MAX) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX));
  if (!dns1123Subdomain.test(value)) errs.push(regexError(DNS1123_SUBDOMAIN_ERR, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  return errs;
}

const DNS1123_LABEL_ERR =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const DNS1035_LABEL_ERR =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const DNS_LABEL_MAX = 63;
const dns1123Label = new RegExp(`^${DNS1123_LABEL_FMT}$`);
const dns1035Label = new RegExp(`^${DNS1035_LABEL_FMT}$`);

/** Problems with `value` as an RFC 1123 label (`[]` when valid): kube's IsDNS1123Label. */
export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS_LABEL_MAX) errs.push(maxLenError(DNS_LABEL_MAX));
  if (!dns1123Label.test(value)) errs.push(regexError(DNS1123_LABEL_ERR, DNS1123_LABEL_FMT, 'my-name', '123-abc'));
  return errs;
}

/** Problems with `value` as a DNS-1035 label (`[]` when valid): kube's IsDNS1035Label. */
export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS_LABEL_MAX) errs.push(maxLenError(DNS_LABEL_MAX));
  if (!dns1035Label.test(value)) errs.push(regexError(DNS1035_LABEL_ERR, DNS1035_LABEL_FMT, 'my-name', 'abc-123'));
  return errs;
}

/**
 * kube's maskTrailingDash (apimachinery's api/validation), how a DNS name rule checks a prefix (a generateName): one
 * ending in `-` is checked with its last two characters replaced by `a` (upstream's slice; the point is that the dash
 * no longer ends it).
 */
export const maskTrailingDash = (prefix: string): string => (prefix.length > 1 && prefix.endsWith('-') ? `${prefix.slice(0, -2)}a` : prefix);

/** Problems with `value` as a label key (`prefix/name` or `name`), `[]` when valid. Also kube's qualified names. */
export function isLabelKey(value: string): string[] {
  const errs: string[] = [];
  let name: string;
  const slash = value.indexOf('/');
  if (slash < 0) {
    name = value;
  } else if (value.indexOf('/', slash + 1) >= 0) {
    return [
      `a valid label key ${regexError(LABEL_KEY_ERR, LABEL_KEY_FMT, 'MyName', 'my.name', '123-abc')}` +
        " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  } else {
    const prefix = value.slice(0, slash);
    name = value.slice(slash + 1);
    if (prefix.length === 0) errs.push(`prefix part ${emptyError()}`);
    else errs.push(...isDNS1123Subdomain(prefix).map((m) => `prefix part ${m}`));
  }
  if (name.length === 0) errs.push(`name part ${emptyError()}`);
  else if (byteLength(name) > LABEL_KEY_MAX) errs.push(`name part ${maxLenError(LABEL_KEY_MAX)}`);
  if (!labelKeyName.test(name)) errs.push(`name part ${regexError(LABEL_KEY_ERR, LABEL_KEY_FMT, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

/** Problems with `value` as a label value (may be empty), `[]` when valid. */
export function isLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > LABEL_VALUE_MAX) errs.push(maxLenError(LABEL_VALUE_MAX));
  if (value.length > 0 && !labelKeyName.test(value)) {
    errs.push(regexError(LABEL_VALUE_ERR, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  }
  return errs;
}

/** kube's ValidateLabelName (metav1validation): each problem with `key` as a label key, an Invalid error at `field`. */
export function validateLabelName(key: string, field: string): FieldError[] {
  return isLabelKey(key).map((message) => ({ type: 'FieldValueInvalid', field, badValue: key, message }));
}

/**
 * kube's ValidateLabels (metav1validation): every key a label key, every value a label value, each problem an
 * Invalid error on `field` naming the key or the value; keys in sorted order (Go's map order is random).
 */
export function validateLabels(labels: unknown, field: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!labels || typeof labels !== 'object' || Array.isArray(labels)) return errs;
  const map = labels as Record<string, unknown>;
  for (const key of Object.keys(map).sort()) {
    for (const message of isLabelKey(key)) errs.push({ type: 'FieldValueInvalid', field, badValue: key, message });
    const value = typeof map[key] === 'string' ? (map[key] as string) : '';
    for (const message of isLabelValue(value)) errs.push({ type: 'FieldValueInvalid', field, badValue: value, message });
  }
  return errs;
}

/** kube's TotalAnnotationSizeLimitB: the bytes of all annotation keys and values together. */
export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

/**
 * kube's ValidateAnnotations (apimachinery's ValidateAnnotations): each key, lowercased, a qualified name (an Invalid
 * error on `field` naming the key as written), and at most TOTAL_ANNOTATION_SIZE_LIMIT bytes of keys and values.
 */
export function validateAnnotations(annotations: unknown, field: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!annotations || typeof annotations !== 'object' || Array.isArray(annotations)) return errs;
  let bytes = 0;
  for (const [key, value] of Object.entries(annotations as Record<string, unknown>)) {
    for (const message of isLabelKey(key.toLowerCase())) errs.push({ type: 'FieldValueInvalid', field, badValue: key, message });
    bytes += byteLength(key) + byteLength(typeof value === 'string' ? value : String(value ?? ''));
  }
  if (bytes > TOTAL_ANNOTATION_SIZE_LIMIT) {
    errs.push({ type: 'FieldValueTooLong', field, message: `must have at most ${TOTAL_ANNOTATION_SIZE_LIMIT} bytes` });
  }
  return errs;
}

/** Problems with `value` as a port name (an IANA_SVC_NAME), `[]` when valid: kube's IsValidPortName. */
export function isPortName(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(value)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(value)) errs.push('must contain at least one letter (a-z)');
  if (value.includes('--')) errs.push('must not contain consecutive hyphens');
  if (value.startsWith('-') || value.endsWith('-')) errs.push('must not begin or end with a hyphen');
  return errs;
}
