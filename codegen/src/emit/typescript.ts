import { Project, type SourceFile, StructureKind, type InterfaceDeclarationStructure } from 'ts-morph';
import { posix } from 'node:path';
import { GENERATED_HEADER, type OutputFile } from '../output.js';
import type { SchemaFile, SchemaNode } from '../model/schema.js';
import { emitsTypes, isOwn, ownerOf, type PackageContext } from './context.js';
import { packageBarrel } from './package-barrel.js';

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Module path of a file's types inside `src/generated/`, without extension. */
const modulePath = (file: SchemaFile) => `${file.folder}/${file.version}/${file.name}`;

function doc(description: string | undefined): string[] {
  return description ? [description.replace(/\*\//g, '*\\/')] : [];
}

/** Emits one TypeScript module per schema file, plus a barrel per own folder/version and the package barrel. */
export function emitTypes(ctx: PackageContext): OutputFile[] {
  const project = new Project({ useInMemoryFileSystem: true });
  const outputs: OutputFile[] = [];
  const barrels = new Map<string, string[]>();
  const exported = new Map<string, string[]>();

  for (const file of ctx.files.filter((f) => emitsTypes(ctx, f))) {
    const path = modulePath(file);
    const source = project.createSourceFile(`/${path}.ts`, '', { overwrite: true });
    const imports = new Map<string, Set<string>>();
    const typeOf = (node: SchemaNode): string => tsType(ctx, file, node, imports);

    for (const def of ctx.model.types(file)) {
      if (def.node.properties) {
        source.addInterface(interfaceFor(def.name, def.node, typeOf, file, def.node === file.schema));
      } else {
        source.addTypeAlias({ name: def.name, isExported: true, type: typeOf({ ...def.node, $ref: undefined }), docs: doc(def.node.description) });
      }
    }
    const header = file.schema['x-kapi-resource'];
    if (header) {
      const listKind = header.listKind ?? `${header.kind}List`;
      addImport(imports, ctx, file, 'meta', 'ListMeta');
      source.addInterface({
        kind: StructureKind.Interface,
        name: listKind,
        isExported: true,
        docs: [`${listKind} is a list of ${header.kind} objects.`],
        properties: [
          { name: 'apiVersion', type: JSON.stringify(ctx.model.groupVersion(file)) },
          { name: 'kind', type: JSON.stringify(listKind) },
          { name: 'metadata', hasQuestionToken: true, type: 'ListMeta' },
          { name: 'items', type: `${header.kind}[]` },
        ],
      });
    }
    writeImports(source, imports);
    outputs.push({ path: `${ctx.directory}/src/generated/${path}.ts`, content: finish(source) });
    if (isOwn(ctx, file)) {
      const barrel = `${file.folder}/${file.version}`;
      barrels.set(barrel, [...(barrels.get(barrel) ?? []), file.name]);
      const names = ctx.model.types(file).map((d) => d.name);
      if (header) names.push(header.listKind ?? `${header.kind}List`);
      exported.set(barrel, [...(exported.get(barrel) ?? []), ...names]);
    }
  }

  for (const [barrel, names] of [...barrels].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const lines = names.map((n) => `export type * from './${n}.js';`);
    outputs.push({ path: `${ctx.directory}/src/generated/${barrel}/index.ts`, content: `${GENERATED_HEADER}\n${lines.join('\n')}\n` });
  }
  const top = [...barrels.keys()].map((path) => ({ path, names: exported.get(path) ?? [] }));
  outputs.push({ path: `${ctx.directory}/src/generated/types.ts`, content: packageBarrel(top) });
  return outputs;
}

function interfaceFor(
  name: string,
  node: SchemaNode,
  typeOf: (n: SchemaNode) => string,
  file: SchemaFile,
  isRoot: boolean,
): InterfaceDeclarationStructure {
  const header = isRoot ? file.schema['x-kapi-resource'] : undefined;
  const required = new Set(node.required ?? []);
  return {
    kind: StructureKind.Interface,
    name,
    isExported: true,
    docs: doc(node.description),
    properties: Object.entries(node.properties ?? {}).map(([prop, child]) => {
      const literal =
        header && prop === 'apiVersion'
          ? JSON.stringify(header.group ? `${header.group}/${header.version}` : header.version)
          : header && prop === 'kind'
            ? JSON.stringify(header.kind)
            : undefined;
      return {
        name: IDENT.test(prop) ? prop : JSON.stringify(prop),
        hasQuestionToken: literal ? false : !required.has(prop),
        type: literal ?? typeOf(child),
        docs: doc(child.description),
      };
    }),
  };
}

function addImport(imports: Map<string, Set<string>>, ctx: PackageContext, from: SchemaFile, folder: string, name: string) {
  const target = [...ctx.model.set.files.values()].find((f) => f.folder === folder && f.name === name);
  if (!target) throw new Error(`schemas/${folder}/*/${name}.json is needed by ${from.id}`);
  importType(imports, ctx, from, target);
}

function importType(imports: Map<string, Set<string>>, ctx: PackageContext, from: SchemaFile, target: SchemaFile) {
  if (target.id === from.id) return;
  const specifier = emitsTypes(ctx, target) ? relativeModule(modulePath(from), modulePath(target)) : ownerOf(ctx, target);
  if (!imports.has(specifier)) imports.set(specifier, new Set());
  imports.get(specifier)!.add(target.name);
}

function relativeModule(fromPath: string, toPath: string): string {
  const rel = posix.relative(posix.dirname(fromPath), toPath);
  return `${rel.startsWith('.') ? rel : `./${rel}`}.js`;
}

function writeImports(source: SourceFile, imports: Map<string, Set<string>>) {
  const specs = [...imports.keys()].sort();
  source.insertImportDeclarations(
    0,
    specs.map((moduleSpecifier) => ({
      isTypeOnly: true,
      moduleSpecifier,
      namedImports: [...imports.get(moduleSpecifier)!].sort(),
    })),
  );
}

function finish(source: SourceFile): string {
  source.formatText({ indentSize: 2, convertTabsToSpaces: true });
  return `${GENERATED_HEADER}\n${source.getFullText().trimEnd()}\n`;
}

function tsType(ctx: PackageContext, file: SchemaFile, node: SchemaNode, imports: Map<string, Set<string>>): string {
  if (node.$ref) {
    const target = ctx.model.resolve(file, node.$ref);
    importType(imports, ctx, file, target);
    return target.name;
  }
  if (node.oneOf) {
    return node.oneOf
      .map((alt) => {
        const t = tsType(ctx, file, alt, imports);
        return /[|&]/.test(t) ? `(${t})` : t;
      })
      .join(' | ');
  }
  if (node['x-kubernetes-int-or-string'] || node.format === 'int-or-string') return 'number | string';
  if (node['x-kapi-wire-type'] === 'Quantity') return 'string | number';
  if (node.enum && node.enum.length) return node.enum.map((v) => JSON.stringify(v)).join(' | ');
  switch (node.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array': {
      const inner = node.items ? tsType(ctx, file, node.items, imports) : 'unknown';
      return /[|&]/.test(inner) ? `(${inner})[]` : `${inner}[]`;
    }
    case 'object': {
      const nested = ctx.model.nestedType(node);
      if (nested) return nested.name;
      if (node.additionalProperties && typeof node.additionalProperties === 'object') {
        return `Record<string, ${tsType(ctx, file, node.additionalProperties, imports)}>`;
      }
      return 'Record<string, unknown>';
    }
    default: {
      const nested = ctx.model.nestedType(node);
      return nested ? nested.name : 'unknown';
    }
  }
}
