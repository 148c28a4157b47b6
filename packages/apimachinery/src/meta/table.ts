import type { ListMeta, ObjectMeta, Table, TableColumnDefinition, TableRow } from '../generated/meta/v1/index.js';
import { formatTime, parseRFC3339, ZERO_TIME_SECONDS } from '../wire/go-time.js';
import { compactListMeta, isKubeList, type KubeList, type KubeObject } from './object.js';

/** What a Table row carries in `object` (the `includeObject` query parameter). kube's default is Metadata. */
export type IncludeObjectPolicy = 'None' | 'Metadata' | 'Object';

/** The Table API version kube serves by default. */
export const TABLE_API_VERSION = 'meta.k8s.io/v1';

/** ObjectMeta's documentation of `name`, the description of the default `Name` column. */
export const NAME_COLUMN_DESCRIPTION =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';

/** ObjectMeta's documentation of `creationTimestamp`, the description of the default `Created At` column. */
export const CREATED_AT_COLUMN_DESCRIPTION =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

/** Options of a Table response. */
export interface TableOptions {
  /** What each row's `object` holds; default `Metadata` (a PartialObjectMetadata). */
  includeObject?: IncludeObjectPolicy;
  /** Leave out the column definitions (kube's TableOptions.NoHeaders). */
  noHeaders?: boolean;
  /** API version of the Table and of the PartialObjectMetadata rows; default `meta.k8s.io/v1`. */
  apiVersion?: string;
}

/**
 * The two columns kube's default table convertor declares: `Name` (string, format name) and `Created At` (date).
 * `format`, `description` and `priority` are always present, as kube's JSON has no omitempty on them.
 */
export function defaultTableColumns(): TableColumnDefinition[] {
  return [
    { name: 'Name', type: 'string', format: 'name', description: NAME_COLUMN_DESCRIPTION, priority: 0 },
    { name: 'Created At', type: 'date', format: '', description: CREATED_AT_COLUMN_DESCRIPTION, priority: 0 },
  ];
}

function creationTimestampCell(value: unknown): string {
  if (typeof value !== 'string' || value === '') return formatTime(ZERO_TIME_SECONDS);
  try {
    return formatTime(parseRFC3339(value).seconds);
  } catch {
    return value;
  }
}

/** The default cells of an object: its name and its creation time in UTC RFC 3339 (Go's zero time when unset). */
export function defaultTableCells(obj: KubeObject): [string, string] {
  return [obj.metadata?.name ?? '', creationTimestampCell(obj.metadata?.creationTimestamp)];
}

/** The PartialObjectMetadata of an object: its whole metadata under kind PartialObjectMetadata. */
export function toPartialObjectMetadata(
  obj: KubeObject,
  apiVersion = TABLE_API_VERSION,
): { kind: 'PartialObjectMetadata'; apiVersion: string; metadata: ObjectMeta } {
  return { kind: 'PartialObjectMetadata', apiVersion, metadata: obj.metadata ?? {} };
}

/** What a row's `object` holds under `policy`: the PartialObjectMetadata, the object itself, or null (None). */
export function tableRowObject(obj: KubeObject, policy: IncludeObjectPolicy = 'Metadata', apiVersion = TABLE_API_VERSION): unknown {
  if (policy === 'None') return null;
  if (policy === 'Object') return obj;
  return toPartialObjectMetadata(obj, apiVersion);
}

/** How to build a Table: the columns, the cells of one object, and the list metadata to carry. */
export interface TableSpec extends TableOptions {
  columns: TableColumnDefinition[];
  cells: (obj: KubeObject) => unknown[];
  listMeta?: ListMeta;
}

/** A Table of `items` (kube's Table JSON: kind, apiVersion, metadata, columnDefinitions, rows). */
export function buildTable(items: readonly KubeObject[], spec: TableSpec): Table {
  const apiVersion = spec.apiVersion ?? TABLE_API_VERSION;
  const rows: TableRow[] = items.map((obj) => ({
    cells: spec.cells(obj),
    object: tableRowObject(obj, spec.includeObject, apiVersion) as TableRow['object'],
  }));
  return {
    kind: 'Table',
    apiVersion,
    metadata: compactListMeta(spec.listMeta),
    columnDefinitions: spec.noHeaders ? [] : spec.columns,
    rows,
  } as Table;
}

/**
 * kube's default Table of an object or a list: `Name` and `Created At` columns, one row per object; the Table's
 * metadata is the list's (resourceVersion, continue, remainingItemCount) or the object's resourceVersion.
 */
export function defaultTable(objectOrList: KubeObject | KubeList, options: TableOptions = {}): Table {
  const list = isKubeList(objectOrList);
  const items = list ? objectOrList.items : [objectOrList as KubeObject];
  const listMeta: ListMeta = list
    ? (objectOrList.metadata ?? {})
    : { resourceVersion: (objectOrList as KubeObject).metadata?.resourceVersion };
  return buildTable(items, { ...options, columns: defaultTableColumns(), cells: defaultTableCells, listMeta });
}
