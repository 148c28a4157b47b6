import { GENERATED_HEADER, type OutputFile } from '../output.js';
import { ownKinds, type PackageContext } from './context.js';

/** The name a package's client resources are exported by: `@kapi/api-apps` → `apps`, `@acme/my-widgets` → `myWidgets`. */
export function clientExportName(packageName: string): string {
  const base = packageName.replace(/^@[^/]+\//, '').replace(/^api-/, '');
  const camel = base.replace(/[^A-Za-z0-9]+([A-Za-z0-9])/g, (_, c: string) => c.toUpperCase()).replace(/[^A-Za-z0-9]/g, '');
  return /^[0-9]/.test(camel) || camel === '' ? `_${camel}` : camel;
}

/**
 * `src/generated/client.ts`: every resource's address with the type of its objects, by version and plural, for
 * `createClient` of @kapi/client (`client.apps.v1.deployments`). The type is declared here, structurally equal to
 * @kapi/client's ResourceType, so the package needs no dependency on the client and loads nothing at run time.
 */
export function emitClient(ctx: PackageContext): OutputFile[] {
  if (ctx.isApimachinery) return [];
  const kinds = ownKinds(ctx);
  const name = clientExportName(ctx.packageName);
  const versions = [...new Set(kinds.map((f) => f.version))].sort();
  const alias = (folder: string, version: string) => `${folder.replace(/[^A-Za-z0-9]/g, '_')}_${version}`;
  const barrels = [...new Set(kinds.map((f) => `${f.folder}/${f.version}`))].sort();
  const imports = barrels.map((b) => {
    const [folder, version] = b.split('/');
    return `import type * as ${alias(folder, version)} from './${b}/index.js';`;
  });
  const body = versions.map((version) => {
    const plural = (f: (typeof kinds)[number]) => f.schema['x-kapi-resource']!.plural;
    const entries = kinds
      .filter((f) => f.version === version)
      .sort((a, b) => (plural(a) < plural(b) ? -1 : 1))
      .map((file) => {
        const h = file.schema['x-kapi-resource']!;
        const subresources = Object.keys(h.subresources ?? {}).sort();
        const fields = [
          `group: ${JSON.stringify(h.group)}`,
          `version: ${JSON.stringify(h.version)}`,
          `kind: ${JSON.stringify(h.kind)}`,
          `plural: ${JSON.stringify(h.plural)}`,
          `namespaced: ${h.scope === 'Namespaced'}`,
          `subresources: ${JSON.stringify(subresources)}`,
        ];
        return `    ${JSON.stringify(h.plural)}: { ${fields.join(', ')} } as Resource<${alias(file.folder, file.version)}.${h.kind}>,`;
      });
    return `  ${JSON.stringify(version)}: {\n${entries.join('\n')}\n  },`;
  });
  const first = kinds.find((f) => f.version === versions[0])?.schema['x-kapi-resource'];
  const example = first ? `${first.version}.${first.plural}` : undefined;
  const content =
    `${GENERATED_HEADER}\n${imports.join('\n')}\n\n` +
    `/** A resource's address; \`__object\` (never set) carries the type of its objects for @kapi/client. */\n` +
    `export interface Resource<T> {\n` +
    `  readonly group: string;\n  readonly version: string;\n  readonly kind: string;\n  readonly plural: string;\n` +
    `  readonly namespaced: boolean;\n  readonly subresources: readonly string[];\n  readonly __object?: T;\n}\n\n` +
    `/**\n * The resources of ${ctx.packageName} by version and plural, for \`createClient(config, { ${name} })\` of @kapi/client` +
    (example ? `:\n * \`client.${name}.${example}\`.\n */\n` : `.\n */\n`) +
    `export const ${name} = {\n${body.join('\n')}\n};\n`;
  return [{ path: `${ctx.directory}/src/generated/client.ts`, content }];
}
