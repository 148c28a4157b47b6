import Ajv from 'ajv';
import { GENERATED_HEADER, type OutputFile } from '../output.js';
import type { SchemaFile, SchemaNode } from '../model/schema.js';
import { kapiRefId } from '../model/graph.js';
import { oneOfAlternatives, type OneOfAlternative } from '../model/one-of.js';
import { APIMACHINERY, dependencyPackages, emitsTypes, isOwn, type PackageContext } from './context.js';

const SCHEMA_ID_BASE = 'kapi://schemas/';

/**
 * The part of a schema node ajv checks: types (int32 with its range), required fields and enums. Descriptions,
 * extensions, defaults and other formats are dropped (they would bloat what is shipped), and `additionalProperties` of objects with
 * known properties is dropped because unknown fields are field validation's concern, not a type error.
 */
function forAjv(node: SchemaNode, alternatives?: OneOfAlternative[]): Record<string, unknown> {
  // Relative references resolve against the schema's $id; `kapi:` ones name the schema's $id themselves.
  if (node.$ref) {
    const id = kapiRefId(node.$ref);
    return { $ref: id === undefined ? node.$ref : `${SCHEMA_ID_BASE}${id}.json` };
  }
  const out: Record<string, unknown> = {};
  const wire = node['x-kapi-wire-type'];
  if (alternatives) {
    // A union told apart by JSON type: the value has one of the alternatives' types, and an alternative's own
    // checks apply to values of its type only (so a wrong type is one type error, not one per alternative).
    out.type = alternatives.map((a) => a.kind);
    const checks = alternatives.flatMap(({ kind, node: alt }) => {
      const inner = forAjv(alt);
      return Object.keys(inner).length === 1 && inner.type === kind ? [] : [{ if: { type: kind }, then: inner }];
    });
    if (checks.length === 1) Object.assign(out, checks[0]);
    else if (checks.length > 1) out.allOf = checks;
    return out;
  }
  if (node['x-kubernetes-int-or-string'] || node.format === 'int-or-string' || wire === 'IntOrString') {
    out.type = ['integer', 'string'];
  } else if (wire === 'Quantity') {
    out.type = ['string', 'number'];
  } else if (wire === 'RawExtension' || wire === 'FieldsV1' || wire === 'JSON') {
    // any JSON value
  } else if (node.type && !(node.type === 'object' && node['x-kubernetes-preserve-unknown-fields'] && !node.properties)) {
    out.type = node.type;
    // An int32 holds no more (Go's decoder refuses a larger number; Protobuf could not carry it). int64's range
    // is checked for every number when a body is decoded.
    if (node.type === 'integer' && node.format === 'int32') Object.assign(out, { minimum: -2147483648, maximum: 2147483647 });
  }
  if (node.enum) out.enum = node.enum;
  if (node.required?.length) out.required = node.required;
  if (node.properties) {
    out.properties = Object.fromEntries(
      Object.entries(node.properties).map(([k, v]) => [k, forAjv(v)]),
    );
  } else if (node.additionalProperties && typeof node.additionalProperties === 'object') {
    out.additionalProperties = forAjv(node.additionalProperties);
  }
  if (node.items) out.items = forAjv(node.items);
  return out;
}

/** Key of a validator: the schema's `apiVersion` followed by its name (`apps/v1/Deployment`, `v1/Pod`). */
export function validatorKey(ctx: PackageContext, file: SchemaFile): string {
  return ctx.model.rootType(file).key;
}

/** Object schemas of the package's own folders get an exported validator. */
export function validatedFiles(ctx: PackageContext): SchemaFile[] {
  return ctx.files.filter((f) => isOwn(ctx, f) && f.schema.properties && !f.schema['x-kapi-wire-type']);
}

/** The name a package exports its validation schemas under (apimachinery: `metaAjvSchemas`). */
export const ajvSchemasExport = (packageName: string) => (packageName === APIMACHINERY ? 'metaAjvSchemas' : 'ajvSchemas');

/**
 * Emits the package's validation schemas (its own schema files, reduced to what ajv checks) and validators that
 * compile them on first use, together with the schemas of the packages it refers to, which it imports: each
 * type's checks live in the package that owns it, never copied.
 */
export function emitValidators(ctx: PackageContext): OutputFile[] {
  const own = ctx.files.filter((f) => emitsTypes(ctx, f));
  const schemas = Object.fromEntries(
    own.map((file) => [
      `${SCHEMA_ID_BASE}${file.id}.json`,
      forAjv(file.schema, file.schema.oneOf ? oneOfAlternatives(ctx.model, file) : undefined),
    ]),
  );
  checkAgainstMetaSchema(schemas);
  const files = validatedFiles(ctx);
  const runtime = ctx.isApimachinery ? '../validation/lazy.js' : APIMACHINERY;
  const deps = dependencyPackages(ctx);
  const imports = [
    `import { lazyValidators${ctx.isApimachinery ? '' : ', metaAjvSchemas'}, type AjvSchemas } from '${runtime}';`,
    ...deps.filter((p) => p !== APIMACHINERY).map((p) => `import { ajvSchemas as ${identifier(p)} } from '${p}';`),
    `import { ajvSchemas } from './ajv-schemas.js';`,
  ];
  const sets = ['ajvSchemas', ...(ctx.isApimachinery ? [] : ['metaAjvSchemas']), ...deps.filter((p) => p !== APIMACHINERY).map(identifier)];
  const entries = files.map((file) => `  ${JSON.stringify(validatorKey(ctx, file))}: ${JSON.stringify(`${SCHEMA_ID_BASE}${file.id}.json`)},`);
  return [
    {
      path: `${ctx.directory}/src/generated/ajv-schemas.ts`,
      content:
        `${GENERATED_HEADER}\nimport type { AjvSchemas } from '${runtime}';\n\n` +
        `/** This package's schemas as the validators check them (types, required fields, enums), by \`$id\`. */\n` +
        `export const ajvSchemas: AjvSchemas = ${JSON.stringify(schemas, null, 1)};\n`,
    },
    {
      path: `${ctx.directory}/src/generated/validators.ts`,
      content:
        `${GENERATED_HEADER}\n${imports.join('\n')}\n\n` +
        `const schemas: AjvSchemas[] = [${sets.join(', ')}];\n\n` +
        `/** Schema \`$id\` by validator key (\`<apiVersion>/<Name>\`). */\n` +
        `const keys: Record<string, string> = {\n${entries.join('\n')}\n};\n\n` +
        `/** Validators (types, required fields, enums) by key, compiled on first use. */\n` +
        `export const validators = lazyValidators(schemas, keys);\n\n` +
        `/** Type checks only (what decoding into typed structs refuses), by key, compiled on first use. */\n` +
        `export const typeValidators = lazyValidators(schemas, keys, { typesOnly: true });\n`,
    },
  ];
}

let metaChecker: InstanceType<typeof Ajv.default> | undefined;

/**
 * Checks the emitted schemas against JSON Schema's meta-schema (draft-07, ajv's default): the servers compile them
 * without checking them again (`validateSchema: false` in `lazyValidators`), so a malformed one must stop codegen.
 */
function checkAgainstMetaSchema(schemas: Record<string, Record<string, unknown>>): void {
  metaChecker ??= new Ajv.default({ strict: false });
  const problems = Object.entries(schemas).flatMap(([id, schema]) =>
    metaChecker!.validateSchema(schema) ? [] : [`${id}: ${metaChecker!.errorsText(metaChecker!.errors)}`],
  );
  if (problems.length) throw new Error(`emitted validation schemas are not valid JSON Schema:\n  ${problems.join('\n  ')}`);
}

/** A package name as an import binding: `@kapi/api-core` → `apiCoreSchemas`. */
function identifier(packageName: string): string {
  const base = packageName.replace(/^@[^/]+\//, '').replace(/[^A-Za-z0-9]+(.)/g, (_, c: string) => c.toUpperCase());
  return `${base}Schemas`;
}
