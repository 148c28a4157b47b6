import type { ColumnSpec } from './kubectl-table.js';
import { definitionOfRef } from './names.js';
import type { SwaggerSchema } from './types.js';

export interface PrinterColumn {
  name: string;
  type: string;
  jsonPath: string;
  description: string;
  priority?: number;
  format?: string;
}

/** Splits `.a.b[*].c` into field names, honouring `\.` escapes and dropping `[...]` subscripts. */
function fieldsOf(jsonPath: string): string[] {
  return jsonPath
    .replace(/^\./, '')
    .split(/(?<!\\)\./)
    .map((segment) => segment.replace(/\[.*\]$/, '').replace(/\\\./g, '.'));
}

/** The swagger description of the field a simple jsonPath names, if the path can be followed. */
export function describePath(kind: SwaggerSchema, jsonPath: string, definitions: Map<string, SwaggerSchema>): string | undefined {
  let node: SwaggerSchema | undefined = kind;
  let description: string | undefined;
  for (const field of fieldsOf(jsonPath)) {
    while (node?.$ref) node = definitions.get(definitionOfRef(node.$ref));
    while (node?.type === 'array' && node.items) {
      node = node.items;
      while (node?.$ref) node = definitions.get(definitionOfRef(node.$ref));
    }
    const next: SwaggerSchema | undefined = node?.properties?.[field];
    if (!next) return undefined;
    description = next.description;
    node = next;
  }
  return description;
}

/** A header's printer columns from the hand table, with descriptions filled from swagger. */
export function printerColumns(
  kindName: string,
  kind: SwaggerSchema,
  specs: readonly ColumnSpec[],
  definitions: Map<string, SwaggerSchema>,
): PrinterColumn[] {
  return specs.map((spec) => {
    const base = spec.description ?? describePath(kind, spec.jsonPath, definitions);
    if (base === undefined) throw new Error(`${kindName} column ${spec.name}: no description and none in swagger for ${spec.jsonPath}`);
    const column: PrinterColumn = {
      name: spec.name,
      type: spec.type,
      jsonPath: spec.jsonPath,
      description: spec.computed ? `${/[.!?]$/.test(base) ? base : `${base}.`} ${spec.computed}` : base,
    };
    if (spec.priority !== undefined) column.priority = spec.priority;
    if (spec.format !== undefined) column.format = spec.format;
    return column;
  });
}
