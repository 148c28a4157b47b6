// Gateway API CRDs and example resources from test/fixtures/gateway-api.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

export const FIXTURES = join(import.meta.dirname, 'fixtures', 'gateway-api');

export interface CrdVersion {
  file: string;
  kind: string;
  group: string;
  version: string;
  schema: Record<string, unknown>;
  /** Index of the version in spec.versions (for kube's error paths). */
  index: number;
}

const docs = (file: string): Record<string, unknown>[] =>
  parseAllDocuments(readFileSync(file, 'utf8'))
    .map((d) => d.toJS() as Record<string, unknown>)
    .filter((d) => d && typeof d === 'object');

/** Every version of every Gateway API CRD. */
export function crdVersions(): CrdVersion[] {
  const out: CrdVersion[] = [];
  for (const file of readdirSync(FIXTURES).filter((f) => f.endsWith('.yaml')).sort()) {
    for (const crd of docs(join(FIXTURES, file))) {
      const spec = crd.spec as { group: string; names: { kind: string }; versions: { name: string; schema: { openAPIV3Schema: Record<string, unknown> } }[] };
      spec.versions.forEach((v, index) =>
        out.push({ file, kind: spec.names.kind, group: spec.group, version: v.name, schema: v.schema.openAPIV3Schema, index }),
      );
    }
  }
  return out;
}

/** Every example resource, with the file it came from. */
export function examples(): { file: string; obj: Record<string, unknown> }[] {
  const dir = join(FIXTURES, 'examples');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .flatMap((file) => docs(join(dir, file)).map((obj) => ({ file, obj })));
}

/** The first example of a kind whose file name matches. */
export function example(file: string, kind: string): Record<string, unknown> {
  const found = examples().find((e) => e.file === file && e.obj.kind === kind);
  if (!found) throw new Error(`no ${kind} in ${file}`);
  return structuredClone(found.obj);
}
