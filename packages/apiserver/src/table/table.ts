// Server-side Tables (meta.k8s.io/v1): the columns of a resource's printer columns, computed as
// apiextensions-apiserver's tableconvertor computes CRD columns, with kube's Go printers for built-in kinds.
import {
  ageSince,
  buildTable as buildMetaTable,
  defaultTableCells,
  defaultTableColumns,
  NAME_COLUMN_DESCRIPTION,
  type IncludeObjectPolicy,
  type KubeObject,
  type PrinterColumn,
  type ResourceInfo,
  type Table,
  type TableColumnDefinition,
  type TablePrinter,
} from '@kapi/apimachinery';
import { jsonPathText } from './go-text.js';
import { evaluateJSONPath } from './jsonpath.js';

/** How to build a Table. */
export interface BuildTableOptions {
  /** What each row's `object` holds: PartialObjectMetadata (`Metadata`, kube's default), the object, or null (`None`). */
  includeObject?: IncludeObjectPolicy;
  /** The list's metadata (or, for one object, its resourceVersion); empty fields are left out. */
  listMeta?: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  /** Leave out the column definitions (kube's TableOptions.noHeaders: watch events after the first). */
  noHeaders?: boolean;
  /** The moment ages are measured at (ms since the epoch, or a Date); now by default. */
  now?: number | Date;
  /** The kind's computed cells and row conditions (its plugin's printer), which replace its columns' JSONPath. */
  printer?: TablePrinter;
}

/** The `Name` column every Table starts with. */
const NAME_COLUMN: TableColumnDefinition = { name: 'Name', type: 'string', format: 'name', description: NAME_COLUMN_DESCRIPTION, priority: 0 };

/**
 * The column definitions of a resource: `Name` and its printer columns (format `''`, priority 0 and the CRD
 * default description when unset), or exactly kube's default `Name` and `Created At` when it declares none.
 */
export function tableColumns(info: ResourceInfo): TableColumnDefinition[] {
  if (info.printerColumns.length === 0) return defaultTableColumns();
  return [
    { ...NAME_COLUMN },
    ...info.printerColumns.map((c) => ({
      name: c.name,
      type: c.type,
      format: c.format ?? '',
      description: c.description || `Custom resource definition column (in JSONPath format): ${c.jsonPath}`,
      priority: c.priority ?? 0,
    })),
  ];
}

/**
 * One column's cell by the CRD rules: the first JSONPath match, or null when none. A string column prints the
 * match as kube's JSONPath does (lists and maps as JSON); integer, number and boolean columns take the JSON value
 * of that type (null otherwise); a date column is the age of an RFC 3339 timestamp (`5m`, `<invalid>` when it
 * does not parse, `<unknown>` when unset).
 */
export function columnCell(column: PrinterColumn, obj: KubeObject, now: number): unknown {
  let matches: unknown[];
  try {
    matches = evaluateJSONPath(column.jsonPath, obj);
  } catch {
    return null;
  }
  if (matches.length === 0) return null;
  const value = matches[0];
  switch (column.type) {
    case 'string':
      return jsonPathText(value);
    case 'integer':
      return typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date':
      return typeof value === 'string' ? ageSince(value, now) : null;
    default:
      return null;
  }
}

/** The cells of one object: its name, then each printer column (the printer's computed cell when it has one). */
export function tableCells(info: ResourceInfo, obj: KubeObject, now: number, printer?: TablePrinter): unknown[] {
  if (info.printerColumns.length === 0) return defaultTableCells(obj);
  const cellOf = (c: PrinterColumn): unknown => {
    const computed = printer?.cells[c.name];
    return computed ? computed(obj, now) : columnCell(c, obj, now);
  };
  // A printer may compute the name cell too (a default StorageClass is `fast (default)`).
  const name = printer?.cells.Name ? printer.cells.Name(obj, now) : (obj.metadata?.name ?? '');
  return [name, ...info.printerColumns.map(cellOf)];
}

/**
 * A meta.k8s.io/v1 Table of `objects` of the resource `info`: kind, apiVersion, metadata (the list metadata),
 * columnDefinitions and one row per object with its cells, kube's row conditions where its printer sets them, and
 * the `object` the includeObject policy asks for.
 */
export function buildTable(info: ResourceInfo, objects: readonly KubeObject[], options: BuildTableOptions = {}): Table {
  const now = options.now === undefined ? Date.now() : typeof options.now === 'number' ? options.now : options.now.getTime();
  const table = buildMetaTable(objects, {
    columns: tableColumns(info),
    cells: (obj) => tableCells(info, obj, now, options.printer),
    listMeta: options.listMeta,
    includeObject: options.includeObject,
    noHeaders: options.noHeaders,
  });
  const conditionsOf = info.printerColumns.length > 0 ? options.printer?.conditions : undefined;
  if (conditionsOf) {
    table.rows.forEach((row, i) => {
      const conditions = conditionsOf(objects[i]);
      if (conditions) row.conditions = conditions;
    });
  }
  return table;
}
