import { isStatusError, newBadRequest } from '@kapi/apimachinery';
import type { Tags } from 'yaml';
import { GO_YAML_V2, yamlLibrary } from '../../yaml-library.js';
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
  // JSON is YAML, and what clients send as YAML mostly is JSON (kubectl's server-side apply, client-go): JSON.parse
  // gives the same value many times faster. Anything it refuses is parsed as YAML, which decides.
  const asJson = LOOKS_LIKE_JSON.test(source) ? jsonOrUndefined(source) : undefined;
  if (asJson !== undefined) return checkDecoded(asJson, 'YAML', source);
  try {
    checkYamlDepth(source);
    // Integers as bigints, so that one a double cannot hold exactly is refused rather than rounded (checkDecoded).
    value = yamlLibrary().parse(source, { ...GO_YAML_V2, uniqueKeys: false, maxAliasCount: MAX_YAML_ALIAS_COUNT, intAsBigInt: true });
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
const LOOKS_LIKE_JSON = /^\s*[{[]/;

/** The text's JSON value, or undefined (which no JSON text parses to) when it is no JSON. */
function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const YAML12_NON_STRING =
  /^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE|[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;

/** The 1.1 schema's merge tag would write the string `<<` as a bare merge key: it is data here, and gets quoted. */
const WITHOUT_MERGE_TAG = (tags: Tags) => tags.filter((t) => typeof t === 'string' ? t !== 'merge' : t.tag !== 'tag:yaml.org,2002:merge');

const isDigit = (c: string) => c >= '0' && c <= '9';
const isLetter = (c: string) => /\p{L}/u.test(c);

/**
 * The order of Go's yaml.v2 for map keys (its keyList.Less), which kube's YAML (JSON turned into YAML by
 * sigs.k8s.io/yaml) uses: letters by code point, letters before other characters except right after a digit,
 * and runs of digits by their number (`a2` before `a10`).
 */
export function goYamlKeyLess(a: string, b: string): boolean {
  const ar = [...a];
  const br = [...b];
  let digits = false;
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) {
      digits = isDigit(ar[i]);
      continue;
    }
    const al = isLetter(ar[i]);
    const bl = isLetter(br[i]);
    if (al && bl) return ar[i] < br[i];
    if (al || bl) return digits ? al : bl;
    let an = 0;
    let bn = 0;
    if (ar[i] === '0' || br[i] === '0') {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]); j--) {
        if (ar[j] !== '0') {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    let bi = i;
    for (; ai < ar.length && isDigit(ar[ai]); ai++) an = an * 10 + Number(ar[ai]);
    for (; bi < br.length && isDigit(br[bi]); bi++) bn = bn * 10 + Number(br[bi]);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i] < br[i];
  }
  return ar.length < br.length;
}

const goYamlOrder = (a: { key: unknown }, b: { key: unknown }) => {
  const [x, y] = [String((a.key as { value?: unknown })?.value ?? a.key), String((b.key as { value?: unknown })?.value ?? b.key)];
  return goYamlKeyLess(x, y) ? -1 : goYamlKeyLess(y, x) ? 1 : 0;
};

/**
 * YAML that means the same to YAML 1.1 readers (PyYAML, Go's yaml.v2, which kube's own YAML output targets) and to
 * YAML 1.2 ones: every string, key or value, that either would read as something else is quoted. Map keys are in
 * yaml.v2's order, as in kube's YAML.
 */
export function toYaml(value: unknown): string {
  // An object that appears twice is written twice (kube's YAML has no anchors and aliases).
  const doc = new (yamlLibrary().Document)(value, { version: '1.1', customTags: WITHOUT_MERGE_TAG, sortMapEntries: goYamlOrder, aliasDuplicateObjects: false });
  yamlLibrary().visit(doc, {
    Scalar(_, node) {
      if (typeof node.value === 'string' && (YAML12_NON_STRING.test(node.value) || node.value === '<<' || node.value === '=')) {
        node.type = 'QUOTE_DOUBLE';
      }
    },
  });
  // yaml.v2 writes a list at its key's indentation.
  return doc.toString({ indentSeq: false });
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
