import { isStatusError, newBadRequest } from '@kapi/apimachinery';
import { Document, parse as parseYaml, visit, type Tags } from 'yaml';
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

/**
 * Plain scalars a YAML 1.2 (core schema) reader takes for something other than a string: null, booleans, ints
 * (decimal, 0o octal, 0x hex), floats, infinities and NaN. YAML 1.1 readers have more (yes/no/on/off/y/n, dates,
 * sexagesimal numbers, `<<` merge keys, `=`): the 1.1 stringifier quotes those.
 */
const YAML12_NON_STRING =
  /^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE|[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;

/** The 1.1 schema's merge tag would write the string `<<` as a bare merge key: it is data here, and gets quoted. */
const WITHOUT_MERGE_TAG = (tags: Tags) => tags.filter((t) => typeof t === 'string' ? t !== 'merge' : t.tag !== 'tag:yaml.org,2002:merge');

/**
 * YAML that means the same to YAML 1.1 readers (PyYAML, Go's yaml.v2, which kube's own YAML output targets) and to
 * YAML 1.2 ones: every string, key or value, that either would read as something else is quoted.
 */
export function toYaml(value: unknown): string {
  const doc = new Document(value, { version: '1.1', customTags: WITHOUT_MERGE_TAG });
  visit(doc, {
    Scalar(_, node) {
      if (typeof node.value === 'string' && (YAML12_NON_STRING.test(node.value) || node.value === '<<' || node.value === '=')) {
        node.type = 'QUOTE_DOUBLE';
      }
    },
  });
  return doc.toString();
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
