/**
 * Renders JSON values the way Go's `%v` and `reflect.TypeOf` print a decoded `interface{}`, so error messages read
 * like kube-apiserver's (`map: map[image:x] does not contain declared merge key: name`).
 */

/** The Go dynamic type a decoded JSON value has in apimachinery (whole numbers decode to int64). */
export type GoKind = 'map' | 'slice' | 'string' | 'int64' | 'float64' | 'bool' | 'nil';

export function goKind(value: unknown): GoKind {
  if (value === null || value === undefined) return 'nil';
  if (Array.isArray(value)) return 'slice';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(value) ? 'int64' : 'float64';
    default:
      return 'map';
  }
}

const typeNames: Record<GoKind, string> = {
  map: 'map[string]interface {}',
  slice: '[]interface {}',
  string: 'string',
  int64: 'int64',
  float64: 'float64',
  bool: 'bool',
  nil: '<nil>',
};

export function goTypeName(value: unknown): string {
  return typeNames[goKind(value)];
}

export const mapTypeName = typeNames.map;
export const sliceTypeName = typeNames.slice;

export function goValue(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (Array.isArray(value)) return `[${value.map(goValue).join(' ')}]`;
  if (typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .map((key) => `${key}:${goValue((value as Record<string, unknown>)[key])}`);
    return `map[${entries.join(' ')}]`;
  }
  return String(value);
}
