import { GENERATED_HEADER, type OutputFile } from '../output.js';
import { hookName, matchVersions, type Plan } from '../model/conversion-plan.js';
import { multiVersionKinds } from '../model/versions.js';
import type { SchemaFile } from '../model/schema.js';
import { APIMACHINERY, type PackageContext } from './context.js';

/** One non-storage version of a kind, with the plans and manual fields of both directions. */
interface VersionConversion {
  file: SchemaFile;
  toStorage: Plan;
  fromStorage: Plan;
  /** Manual fields of this version and of the storage version: with any, both directions need a hook. */
  manual: string[];
  manualStorage: string[];
}

interface KindPlans {
  group: string;
  kind: string;
  storage: SchemaFile;
  versions: VersionConversion[];
}

/**
 * The package's kinds served in several versions and how they convert (but those the group's plugin converts whole);
 * throws naming every unconvertible field.
 */
export function conversionPlans(ctx: PackageContext): KindPlans[] {
  const errors: string[] = [];
  const kinds = multiVersionKinds(ctx.model, ctx.folders).filter((k) => !k.manual).map((k) => {
    const apiVersion = (f: SchemaFile) => ctx.model.groupVersion(f);
    const versions = k.others.map((file) => {
      const pair = matchVersions(ctx.model, file, k.storage, {
        a: `${apiVersion(file)} ${k.kind}`,
        b: `${apiVersion(k.storage)} ${k.kind} (the storage version)`,
      });
      errors.push(...pair.errors);
      return { file, toStorage: pair.aToB, fromStorage: pair.bToA, manual: pair.manualA, manualStorage: pair.manualB };
    });
    return { ...k, versions };
  });
  if (errors.length) throw new Error([...new Set(errors)].join('\n'));
  return kinds;
}

const needsHook = (v: VersionConversion) => v.manual.length > 0 || v.manualStorage.length > 0;

/** Whether the package has kinds in several versions, and whether their conversion needs hand-written hooks. */
export function conversionNeeds(ctx: PackageContext): { any: boolean; hooks: boolean } {
  if (ctx.isApimachinery) return { any: false, hooks: false };
  const kinds = conversionPlans(ctx);
  return { any: kinds.length > 0, hooks: kinds.some((k) => k.versions.some(needsHook)) };
}

function hookDocs(k: KindPlans, v: VersionConversion, from: SchemaFile, to: SchemaFile): string[] {
  const [fromFields, toFields] = from === k.storage ? [v.manualStorage, v.manual] : [v.manual, v.manualStorage];
  const fields = (file: SchemaFile, list: string[]) => (list.length ? [` * Manual fields of ${file.version}: ${list.join(', ')}`] : []);
  return [
    `/**`,
    ` * ${k.kind} ${from.version} → ${to.version}${to === k.storage ? ' (the storage version)' : ''}. \`to\` arrives with every automatic field`,
    ` * converted; set its manual fields from \`from\`. Must not mutate \`from\`; may throw a StatusError (422 or 400 naming the field).`,
    ...fields(from, fromFields),
    ...fields(to, toFields),
    ` */`,
  ];
}

/**
 * `src/generated/conversions.ts`: the converters of every kind served in several versions. Without manual fields
 * it exports `conversions` (which group.ts installs); with some, `createConversions(hooks)` and the `ConversionHooks`
 * the group's plugin implements. Nothing when no kind is served in several versions.
 */
export function emitConversions(ctx: PackageContext): OutputFile[] {
  if (ctx.isApimachinery) return [];
  const kinds = conversionPlans(ctx);
  if (!kinds.length) return [];
  const withHooks = kinds.some((k) => k.versions.some(needsHook));
  const files = kinds.flatMap((k) => [k.storage, ...k.versions.map((v) => v.file)]);
  const modules = [...new Map(files.map((f) => [f.version, `./${f.folder}/${f.version}/index.js`])).entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  const lines: string[] = [GENERATED_HEADER];
  const runtime = withHooks ? ['kindConversion', 'type ConversionContext', 'type KindConversion'] : ['kindConversion', 'type KindConversion'];
  lines.push(`import { ${runtime.join(', ')} } from '${APIMACHINERY}';`);
  if (withHooks) for (const [version, path] of modules) lines.push(`import type * as ${version} from '${path}';`);
  lines.push('');

  if (withHooks) {
    lines.push(`/** The hand-written conversion of the fields codegen cannot convert (\`x-kapi-conversion: manual\`), by kind. */`);
    lines.push(`export interface ConversionHooks {`);
    for (const k of kinds.filter((k) => k.versions.some(needsHook))) {
      lines.push(`  ${k.kind}: {`);
      for (const v of k.versions.filter(needsHook)) {
        for (const [from, to] of [[v.file, k.storage], [k.storage, v.file]]) {
          lines.push(...hookDocs(k, v, from, to).map((l) => `    ${l}`));
          lines.push(`    ${hookName(from.version, to.version)}(from: ${from.version}.${k.kind}, to: ${to.version}.${k.kind}, ctx: ConversionContext): void;`);
        }
      }
      lines.push(`  };`);
    }
    lines.push(`}`, '');
  }

  const step = (k: KindPlans, v: VersionConversion, dir: 'toStorage' | 'fromStorage') => {
    const plan = JSON.stringify(v[dir]);
    if (!needsHook(v)) return `{ plan: ${plan} }`;
    const [from, to] = dir === 'toStorage' ? [v.file.version, k.storage.version] : [k.storage.version, v.file.version];
    return `{ plan: ${plan}, hook: (from, to, ctx) => hooks.${k.kind}.${hookName(from, to)}(from as never, to as never, ctx) }`;
  };
  const body = kinds.map((k) =>
    [
      `    ${k.kind}: kindConversion({`,
      `      group: ${JSON.stringify(k.group)},`,
      `      kind: ${JSON.stringify(k.kind)},`,
      `      storageVersion: ${JSON.stringify(k.storage.version)},`,
      `      versions: {`,
      ...k.versions.flatMap((v) => [
        `        ${v.file.version}: {`,
        `          toStorage: ${step(k, v, 'toStorage')},`,
        `          fromStorage: ${step(k, v, 'fromStorage')},`,
        `        },`,
      ]),
      `      },`,
      `    }),`,
    ].join('\n'),
  );
  if (withHooks) {
    lines.push(`/** The converters of the kinds served in several versions, with the group's hooks: install them as the plugin's \`conversions\`. */`);
    lines.push(`export function createConversions(hooks: ConversionHooks): Record<string, KindConversion> {`, `  return {`, ...body, `  };`, `}`);
  } else {
    lines.push(`/** The converters of the kinds served in several versions (the group definition's \`conversions\`). */`);
    lines.push(`export const conversions: Record<string, KindConversion> = {`, ...body.map((b) => b.replace(/^  /gm, '')), `};`);
  }
  return [{ path: `${ctx.directory}/src/generated/conversions.ts`, content: lines.join('\n') + '\n' }];
}
