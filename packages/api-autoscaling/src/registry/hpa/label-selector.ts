// metav1.LabelSelector inside the round-trip annotations: written as Go writes it, read back as json.Unmarshal does.
import { at, isObj, listAt, str, type Obj } from '@kapi/apimachinery';
import { goSlice, goString, goStringMap, goStruct, type Decoder } from './go-json.js';

/** A selector in Go's field order, empty maps and lists left out (omitempty), map keys sorted. */
export function selectorToGo(selector: unknown): Obj | undefined {
  if (!isObj(selector)) return undefined;
  const out: Obj = {};
  const labels = isObj(selector.matchLabels) ? selector.matchLabels : {};
  const keys = Object.keys(labels).sort();
  if (keys.length) out.matchLabels = Object.fromEntries(keys.map((k) => [k, labels[k]]));
  const expressions = listAt(selector, 'matchExpressions');
  if (expressions.length) {
    out.matchExpressions = expressions.map((e) => {
      const requirement: Obj = { key: str(at(e, 'key')), operator: str(at(e, 'operator')) };
      const values = listAt(e, 'values');
      if (values.length) requirement.values = values;
      return requirement;
    });
  }
  return out;
}

const requirement = goStruct({
  key: { decode: goString, zero: '' },
  operator: { decode: goString, zero: '' },
  values: { decode: goSlice(goString), pointer: true },
});

const decodeSelector = goStruct({
  matchLabels: { decode: goStringMap, pointer: true },
  matchExpressions: { decode: goSlice(requirement), pointer: true },
});

/** A *metav1.LabelSelector as decoded, in kapi's form: what Go would write back (empty maps and lists left out). */
export const selectorFromGo: Decoder<Obj> = (v) => {
  const decoded = decodeSelector(v);
  const out: Obj = {};
  const labels = decoded.matchLabels as Obj | undefined;
  if (labels && Object.keys(labels).length) out.matchLabels = labels;
  const expressions = decoded.matchExpressions as Obj[] | undefined;
  if (expressions?.length) {
    out.matchExpressions = expressions.map((e) => {
      const r: Obj = { key: e.key, operator: e.operator };
      if ((e.values as unknown[] | undefined)?.length) r.values = e.values;
      return r;
    });
  }
  return out;
};
