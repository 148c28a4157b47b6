import type { GroupOpenAPI } from '@kapi/apimachinery';

type Schema = Record<string, unknown>;

/** The component a schema refers to (`$ref`, or kube's `allOf: [{$ref}]` beside a default or description). */
function refName(schema: Schema): string | undefined {
  const ref = (schema.$ref ?? (schema.allOf as Schema[] | undefined)?.[0]?.$ref) as string | undefined;
  return ref?.slice(ref.lastIndexOf('/') + 1);
}

/** Go's name of a kube type (reflect.Type.String()): its package's last element and its name, `v1.Container`, `resource.Quantity`. */
const goTypeName = (definition: string) => definition.split('.').slice(-2).join('.');


/** The Go type a schema is decoded into, as reflect writes it: `int32`, `[]v1.Container`, `map[string]string`. */
function goType(schema: Schema | undefined): string | undefined {
  if (!schema) return undefined;
  const name = refName(schema);
  if (name) return goTypeName(name);
  switch (schema.type) {
    case 'integer':
      return schema.format === 'int32' ? 'int32' : 'int64';
    case 'number':
      return schema.format === 'float' ? 'float32' : 'float64';
    case 'boolean':
      return 'bool';
    case 'string':
      return schema.format === 'byte' ? '[]uint8' : 'string';
    case 'array': {
      const item = goType(schema.items as Schema | undefined);
      return item && `[]${item}`;
    }
    case 'object': {
      const value = goType(schema.additionalProperties as Schema | undefined);
      return value && `map[string]${value}`;
    }
    default:
      return undefined;
  }
}

/** A kube field path's steps: `spec.containers[0].image` → spec, containers, [0], image (a number: a list index). */
const steps = (field: string): (string | number)[] =>
  field.split('.').flatMap((part) => {
    const [name, ...indexes] = part.split('[');
    return [...(name ? [name] : []), ...indexes.map((i) => Number.parseInt(i, 10))];
  });

/**
 * How Go's JSON decoder names a value of the wrong type at `field` of a kind (`definition`, its OpenAPI name): the
 * struct holding the field, the field's path from the object's root without list indexes or map keys, and the Go
 * type it decodes into, as in `json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of
 * type int32`. Undefined when the path leaves the schemas.
 */
export function goFieldOfType(openapi: GroupOpenAPI, definition: string, field: string): { struct: string; field: string; type: string } | undefined {
  let struct = definition;
  let schema = Object.hasOwn(openapi.schemas, definition) ? (openapi.schemas[definition] as Schema) : undefined;
  const path: string[] = [];
  const rest = steps(field);
  while (schema) {
    const ref = refName(schema);
    if (ref) {
      if (!rest.length) break;
      struct = ref;
      schema = Object.hasOwn(openapi.schemas, ref) ? (openapi.schemas[ref] as Schema) : undefined;
      continue;
    }
    if (!rest.length) break;
    const step = rest.shift()!;
    if (typeof step === 'number') {
      if (schema.type !== 'array') return undefined;
      schema = schema.items as Schema | undefined;
    } else if (schema.type === 'object' && schema.additionalProperties) {
      // A map's key is not in Go's path; a key may hold dots, so a map of scalars ends the path at its value.
      schema = schema.additionalProperties as Schema;
      if (!refName(schema) && schema.type !== 'array' && schema.type !== 'object') rest.length = 0;
    } else {
      const properties = schema.properties as Record<string, Schema> | undefined;
      schema = properties && Object.hasOwn(properties, step) ? properties[step] : undefined;
      path.push(step);
    }
  }
  const type = goType(schema);
  if (!schema || !type || !path.length) return undefined;
  return { struct: goTypeName(struct).split('.').pop()!, field: path.join('.'), type };
}
