import { cloneJson } from '../meta/own.js';
import { canonicalTime } from '../wire/go-time.js';
import { canonicalQuantity } from '../wire/quantity.js';
import type { FieldTree } from './types.js';
import { walkFieldTree, type TypeShape } from './walk.js';

/**
 * Defaulting that depends on other fields (kube's SetDefaults_<Type> functions), for one object type of a field
 * tree: called on every object of that type, after the type's constant defaults and before its properties are
 * walked, so what it adds is defaulted in turn. Mutates the object.
 */
export type TypeDefaulter = (obj: Record<string, unknown>) => void;

/** A Time, MicroTime or Quantity field whose text does not parse (a decoding error: 400). */
export class FieldDecodeError extends Error {
  override name = 'FieldDecodeError';
}

/** `f(value)`, its failure a FieldDecodeError. */
function decoded<T>(f: () => T): T {
  try {
    return f();
  } catch (err) {
    throw new FieldDecodeError((err as Error).message);
  }
}

type Normalization = {
  omitZero: readonly string[];
  times: readonly (readonly [string, 'Time' | 'MicroTime'])[];
  quantities: readonly (readonly [string, 'value' | 'map'])[];
  defaults: readonly (readonly [string, unknown])[];
};

const normalizations = new WeakMap<TypeShape, Normalization>();

/** What applyDefaults does on an object of `type`, listed once per type (it runs on every object of every write). */
function normalizationOf(type: TypeShape): Normalization {
  let found = normalizations.get(type);
  if (found === undefined) {
    found = {
      omitZero: type.omitZero ?? [],
      times: Object.entries(type.times ?? {}),
      quantities: Object.entries(type.quantities ?? {}),
      defaults: Object.entries(type.defaults ?? {}),
    };
    normalizations.set(type, found);
  }
  return found;
}

const isQuantityInput = (v: unknown): v is string | number => typeof v === 'string' || typeof v === 'number';

/**
 * Normalizes a decoded object as kube's typed decoding and defaulting do. A property whose zero value means unset
 * (a Go non-pointer field tagged omitempty: `paused: false`, `minReadySeconds: 0`, `nodeName: ""`) is removed when
 * zero, as kube never writes it. Time and MicroTime fields are parsed and written canonically (UTC, `Z`; seconds
 * for Time, microseconds for MicroTime), as kube's decoding into time values does (TimeParseError when one does
 * not parse); quantities become their canonical form (`1024Mi` → `1Gi`, `0.5` → `500m`). Then the schemas' `default` values apply, as kube's structural defaulting: a property that is absent
 * from an object present in the document gets its default (a copy), at every depth, in lists and maps too. Then
 * the type's defaulter, if `defaulters` (by field-tree type name, `v1/Container`) has one.
 */
export function applyDefaults(tree: FieldTree, typeKey: string, obj: unknown, defaulters: Readonly<Record<string, TypeDefaulter>> = {}): void {
  walkFieldTree(tree, typeKey, obj, {
    onObject(type, value, _path, name) {
      const { omitZero, times, quantities, defaults } = normalizationOf(type);
      for (const key of omitZero) {
        const v = value[key];
        if (v === 0 || v === false || v === '') delete value[key];
      }
      for (const [key, kind] of times) {
        const v = value[key];
        if (typeof v === 'string') value[key] = decoded(() => canonicalTime(v, kind));
      }
      for (const [key, kind] of quantities) {
        const v = value[key];
        if (kind === 'value' && isQuantityInput(v)) value[key] = decoded(() => canonicalQuantity(v));
        if (kind === 'map' && v && typeof v === 'object' && !Array.isArray(v)) {
          const map = v as Record<string, unknown>;
          for (const [name, q] of Object.entries(map)) if (isQuantityInput(q)) map[name] = decoded(() => canonicalQuantity(q));
        }
      }
      for (const [key, def] of defaults) {
        if (value[key] === undefined) value[key] = cloneJson(def);
      }
      if (Object.hasOwn(defaulters, name)) defaulters[name](value);
    },
  });
}
