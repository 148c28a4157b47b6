// kube's property name escaping for CEL (k8s.io/apiserver/pkg/cel/escaping.go): a property `foo-bar` is `foo__dash__bar`
// in a rule, `namespace` is `__namespace__`.

const RESERVED = new Set([
  'true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let',
  'loop', 'package', 'namespace', 'return', 'var', 'void', 'while',
]);

/** The CEL name of an object property, or undefined when the property cannot be accessed from CEL. */
export function escapeProperty(name: string): string | undefined {
  if (name === '' || (name[0] >= '0' && name[0] <= '9')) return undefined;
  if (RESERVED.has(name)) return `__${name}__`;
  let out = '';
  for (let i = 0; i < name.length; i++) {
    const c = name[i];
    if (c === '_' && name[i + 1] === '_') {
      out += '__underscores__';
      i++;
    } else if (c === '.') out += '__dot__';
    else if (c === '-') out += '__dash__';
    else if (c === '/') out += '__slash__';
    else if (/[a-zA-Z0-9_]/.test(c)) out += c;
    else return undefined;
  }
  return out;
}
