import { isStatusError, newBadRequest } from '@kapi/apimachinery';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { checkDecoded, checkYamlDepth, MAX_YAML_ALIAS_COUNT } from '../../limits/nesting.js';
import { duplicateYamlFields } from './duplicate-fields.js';
import { jsonWatchFraming } from './json.js';
import type { MediaType } from './types.js';

export const YAML_TYPE = 'application/yaml';

const utf8 = new TextDecoder();

/**
 * Parses a YAML text, bounded: nesting is checked before composing, alias expansion is capped, and the value's
 * depth and numbers are checked after (checkDecoded).
 */
export function parseYamlText(source: string): unknown {
  let value: unknown;
  try {
    checkYamlDepth(source);
    value = parseYaml(source, { uniqueKeys: false, maxAliasCount: MAX_YAML_ALIAS_COUNT });
  } catch (err) {
    if (isStatusError(err)) throw err;
    throw newBadRequest(`error decoding YAML: ${(err as Error).message}`);
  }
  return checkDecoded(value, 'YAML');
}

/** application/yaml: request and response bodies; watches of YAML clients are framed as JSON, as kube does. */
export const yaml: MediaType = {
  name: 'yaml',
  accepts: [YAML_TYPE],
  requestTypes: [YAML_TYPE],
  contentType: YAML_TYPE,
  encode: (value) => toYaml(value),
  decode(body) {
    const source = utf8.decode(body);
    return { value: parseYamlText(source), duplicates: () => duplicateYamlFields(source) };
  },
  watch: jsonWatchFraming,
};
