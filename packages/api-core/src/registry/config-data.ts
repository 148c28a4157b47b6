import { isDeepStrictEqual } from 'node:util';
import { newBadRequest, setOwn, type FieldError, type KubeObject } from '@kapi/apimachinery';
import type { Strategy } from '@kapi/apiserver';

// ConfigMaps and Secrets: their keys become file names in volumes, so kube validates them
// (pkg/apis/core/validation ValidateConfigMap, ValidateSecret), and Secret data is base64 bytes.

/** kube's MaxSecretSize, which bounds a ConfigMap's data too: 1 MiB. */
export const MAX_DATA_BYTES = 1024 * 1024;

const KEY_FORMAT = '[-._a-zA-Z0-9]+';
const KEY_REGEXP = new RegExp(`^${KEY_FORMAT}$`);
const KEY_MESSAGE =
  `a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '${KEY_FORMAT}')`;

/** kube's IsConfigMapKey: what may name a ConfigMap or Secret key (a file name in a volume). */
export function isConfigMapKey(key: string): string[] {
  const errs: string[] = [];
  if (key.length > 253) errs.push('must be no more than 253 characters');
  if (!KEY_REGEXP.test(key)) errs.push(KEY_MESSAGE);
  if (key === '.') errs.push(`must not be '.'`);
  else if (key === '..') errs.push(`must not be '..'`);
  else if (key.startsWith('..')) errs.push(`must not start with '..'`);
  return errs;
}

const mapOf = (value: unknown) => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
const invalid = (field: string, badValue: unknown, message: string): FieldError => ({ type: 'FieldValueInvalid', field, badValue, message });
const keyErrors = (field: string, map: Record<string, unknown>) =>
  Object.keys(map).flatMap((key) => isConfigMapKey(key).map((m) => invalid(`${field}[${key}]`, key, m)));
const tooLong = (field: string): FieldError => ({ type: 'FieldValueTooLong', field, message: `must have at most ${MAX_DATA_BYTES} bytes` });

/** Fields of `immutable: true` objects that no update may change, and `immutable` itself once set. */
function immutableErrors(obj: KubeObject, old: KubeObject, fields: string[]): FieldError[] {
  if ((old as { immutable?: boolean }).immutable !== true) return [];
  const errs: FieldError[] = [];
  if ((obj as { immutable?: boolean }).immutable !== true) {
    errs.push({ type: 'FieldValueForbidden', field: 'immutable', message: 'field is immutable when `immutable` is set' });
  }
  for (const f of fields) {
    if (!isDeepStrictEqual(obj[f] ?? {}, old[f] ?? {})) {
      errs.push({ type: 'FieldValueForbidden', field: f, message: 'field is immutable when `immutable` is set' });
    }
  }
  return errs;
}

function validateConfigMap(obj: KubeObject): FieldError[] {
  const data = mapOf(obj.data);
  const binary = mapOf(obj.binaryData);
  const errs = [...keyErrors('data', data), ...keyErrors('binaryData', binary)];
  let size = 0;
  for (const [key, value] of Object.entries(data)) {
    size += Buffer.byteLength(String(value));
    if (Object.hasOwn(binary, key)) errs.push(invalid(`data[${key}]`, key, 'duplicate of key present in binaryData'));
  }
  for (const value of Object.values(binary)) size += Buffer.from(String(value), 'base64').length;
  if (size > MAX_DATA_BYTES) errs.push(tooLong(''));
  return errs;
}

export const configMapStrategy: Strategy = {
  validate: validateConfigMap,
  validateUpdate: (obj, old) => [...validateConfigMap(obj), ...immutableErrors(obj, old, ['data', 'binaryData'])],
};

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Keys a Secret of a kube type must have (ValidateSecret). */
const REQUIRED_KEYS: Record<string, string[]> = {
  'kubernetes.io/tls': ['tls.crt', 'tls.key'],
  'kubernetes.io/dockerconfigjson': ['.dockerconfigjson'],
  'kubernetes.io/dockercfg': ['.dockercfg'],
  'kubernetes.io/ssh-auth': ['ssh-privatekey'],
};

/**
 * A Secret as kube's decoding and defaulting leave it: `data` values are base64 (anything else is the decoder's
 * 400), `stringData` is merged into `data` (encoded; it wins over `data`) and dropped, and the type defaults to
 * Opaque.
 */
function normalizeSecret(obj: KubeObject): void {
  const data = mapOf(obj.data);
  for (const [key, value] of Object.entries(data)) {
    // Go's decoder skips line breaks inside base64 text.
    if (typeof value === 'string' && !BASE64.test(value.replace(/[\r\n]/g, ''))) {
      throw newBadRequest(`Secret in version "v1" cannot be handled as a Secret: illegal base64 data in data[${key}]`);
    }
  }
  const stringData = mapOf((obj as { stringData?: unknown }).stringData);
  if (Object.keys(stringData).length) {
    const merged = { ...data };
    for (const [key, value] of Object.entries(stringData)) setOwn(merged, key, Buffer.from(String(value)).toString('base64'));
    obj.data = merged;
  }
  delete (obj as { stringData?: unknown }).stringData;
  obj.type ||= 'Opaque';
}

function validateSecret(obj: KubeObject): FieldError[] {
  const data = mapOf(obj.data);
  const errs = keyErrors('data', data);
  const size = Object.values(data).reduce((n: number, v) => n + Buffer.from(String(v), 'base64').length, 0);
  if (size > MAX_DATA_BYTES) errs.push(tooLong('data'));
  for (const key of REQUIRED_KEYS[String(obj.type)] ?? []) {
    if (!Object.hasOwn(data, key)) errs.push({ type: 'FieldValueRequired', field: `data[${key}]`, message: '' });
  }
  return errs;
}

export const secretStrategy: Strategy = {
  prepareForCreate: normalizeSecret,
  prepareForUpdate: normalizeSecret,
  validate: validateSecret,
  validateUpdate(obj, old) {
    const errs = validateSecret(obj);
    if (old.type !== undefined && obj.type !== old.type) errs.push(invalid('type', obj.type, 'field is immutable'));
    return [...errs, ...immutableErrors(obj, old, ['data'])];
  },
};
