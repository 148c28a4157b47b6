import type { TableRowCondition } from '../generated/meta/v1/index.js';
import type { KubeObject } from '../meta/object.js';

/** One cell of one object; `now` (ms since the epoch) is the moment ages are measured at. Must not mutate `obj`. */
export type CellComputer = (obj: KubeObject, now: number) => unknown;

/**
 * How kube's Go table printer shows a kind (pkg/printers/internalversion): the cells it computes, by column name
 * (Pod READY `1/2`), replacing the JSONPath of the kind's printer columns, and the row conditions it sets.
 */
export interface TablePrinter {
  cells: Readonly<Record<string, CellComputer>>;
  conditions?: (obj: KubeObject) => TableRowCondition[] | undefined;
}
