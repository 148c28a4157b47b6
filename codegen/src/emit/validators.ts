import Ajv from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { GENERATED_HEADER, type OutputFile } from '../output.js';
import type { SchemaFile, SchemaNode } from '../model/schema.js';
import { isOwn, type PackageContext } from './context.js';

const SCHEMA_ID_BASE = 'kapi://schemas/';

/**
 * The part of a schema node ajv checks: types, required fields and enums. Descriptions, extensions, defaults
 * and formats are dropped (they would bloat the standalone code), and `additionalProperties` of objects with
 * known properties is dropped because unknown fields are field validation's concern, not a type error.
 */
function forAjv(node: SchemaNode): Record<string, unknown> {
  if (node.$ref) return { $ref: node.$ref };
  const out: Record<string, unknown> = {};
  const wire = node['x-kapi-wire-type'];
  if (node['x-kubernetes-int-or-string'] || node.format === 'int-or-string' || wire === 'IntOrString') {
    out.type = ['integer', 'string'];
  } else if (wire === 'Quantity') {
    out.type = ['string', 'number'];
  } else if (wire === 'RawExtension' || wire === 'FieldsV1') {
    // any JSON value
  } else if (node.type && !(node.type === 'object' && node['x-kubernetes-preserve-unknown-fields'] && !node.properties)) {
    out.type = node.type;
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

/** Emits ajv standalone validators for the package's object schemas, compiled once at generation time. */
export function emitValidators(ctx: PackageContext): OutputFile[] {
  const ajv = new Ajv.default({
    strict: false,
    allErrors: true,
    validateFormats: false,
    code: { source: true, esm: true, lines: true, optimize: true },
  });
  for (const file of ctx.files) {
    ajv.addSchema({ $id: `${SCHEMA_ID_BASE}${file.id}.json`, ...forAjv(file.schema) });
  }
  const files = validatedFiles(ctx);
  const exportNames = new Map<string, string>();
  files.forEach((file, i) => exportNames.set(`v${i}`, `${SCHEMA_ID_BASE}${file.id}.json`));
  const code = standaloneCode.default(ajv, Object.fromEntries(exportNames));
  // Generated packages depend on @kapi/apimachinery alone: the keywords kept above compile to self-contained code.
  if (/\brequire\(|^import /m.test(code)) throw new Error(`${ctx.packageName}: validators need ajv's runtime`);
  const importFrom = ctx.isApimachinery ? '../validation/ajv.js' : '@kapi/apimachinery';
  const entries = files.map((file, i) => `  ${JSON.stringify(validatorKey(ctx, file))}: fromAjv(v${i}),`);
  return [
    {
      path: `${ctx.directory}/src/generated/ajv.js`,
      content: `${GENERATED_HEADER}\n${code}\n`,
    },
    {
      path: `${ctx.directory}/src/generated/ajv.d.ts`,
      content:
        `${GENERATED_HEADER}\nimport type { AjvValidateFunction } from '${importFrom}';\n` +
        files.map((_, i) => `export declare const v${i}: AjvValidateFunction;`).join('\n') +
        '\n',
    },
    {
      path: `${ctx.directory}/src/generated/validators.ts`,
      content:
        `${GENERATED_HEADER}\nimport { fromAjv, type ObjectValidator } from '${importFrom}';\n` +
        `import { ${files.map((_, i) => `v${i}`).join(', ')} } from './ajv.js';\n\n` +
        `/** Precompiled validators (types, required fields, enums) by \`<apiVersion>/<Name>\`. */\n` +
        `export const validators: Record<string, ObjectValidator> = {\n${entries.join('\n')}\n};\n`,
    },
  ];
}
